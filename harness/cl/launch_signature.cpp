#include "cl/launch_signature.h"

#include <cstdio>

namespace clgrade {

std::string launchSignature(const cl::Kernel& kernel, const std::vector<KernelArg>& args, const Geometry& geometry) {
  std::string name = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
  while (!name.empty() && name.back() == '\0') name.pop_back();
  // The program too: kernels of one name from two builds are two kernels.
  char program[32];
  std::snprintf(program, sizeof program, "%p", static_cast<void*>(kernel.getInfo<CL_KERNEL_PROGRAM>()()));
  std::string s = name + "|" + program + "|" + geometry.str();
  static const char kHex[] = "0123456789abcdef";
  for (const KernelArg& a : args) {
    switch (a.kind) {
      case KernelArg::Kind::Buffer:
        s += "|buffer " + (a.buffer() ? std::to_string(a.buffer.getInfo<CL_MEM_SIZE>()) : std::string("null"));
        break;
      case KernelArg::Kind::Local:
        s += "|local " + std::to_string(a.localBytes);
        break;
      case KernelArg::Kind::Bytes:
        s += "|";
        for (unsigned char b : a.bytes) {
          s += kHex[b >> 4];
          s += kHex[b & 15];
        }
        break;
    }
  }
  return s;
}

}  // namespace clgrade
