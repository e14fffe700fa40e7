// counter_probe: builds one kernel of a .cl file on the first OpenCL platform's first device and
// launches it, so the counter tests can run a kernel under Oclgrind (chosen through the environment:
// OCL_ICD_VENDORS, OCLGRIND_PLUGINS) in a child process of their own.
//
//   counter_probe [--launches N] [--options STR] FILE KERNEL GLOBAL LOCAL [ARG...]
//
// GLOBAL and LOCAL are "X" or "XxY". One ARG per kernel argument, in order, read by what the
// argument is: a byte count for a __global or __constant pointer (a zero-filled buffer), a byte count
// for a __local pointer (the local allocation), a number for a scalar (int, uint, float, ...).
// Exit codes: 0 launched, 1 OpenCL failure (build log on stderr), 2 bad usage.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cl/opencl.h"

namespace {

/// What the command line asks for.
struct ProbeArgs {
  int launches = 1;
  std::string options;
  std::string file;
  std::string kernel;
  std::vector<size_t> global;
  std::vector<size_t> local;
  std::vector<std::string> kernelArgs;
};

/// "64" -> {64}, "64x32" -> {64, 32}; empty on anything else.
std::vector<size_t> parseSize(const std::string& text) {
  std::vector<size_t> dims;
  std::istringstream in(text);
  std::string part;
  while (std::getline(in, part, 'x')) {
    char* end = nullptr;
    const unsigned long value = std::strtoul(part.c_str(), &end, 10);
    if (part.empty() || *end != '\0' || value == 0) return {};
    dims.push_back(value);
  }
  if (dims.size() > 2) return {};
  return dims;
}

bool parseArgs(int argc, char** argv, ProbeArgs* args) {
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--launches" && i + 1 < argc) {
      args->launches = std::atoi(argv[++i]);
    } else if (a == "--options" && i + 1 < argc) {
      args->options = argv[++i];
    } else {
      positional.push_back(a);
    }
  }
  if (positional.size() < 4 || args->launches < 1) return false;
  args->file = positional[0];
  args->kernel = positional[1];
  args->global = parseSize(positional[2]);
  args->local = parseSize(positional[3]);
  args->kernelArgs.assign(positional.begin() + 4, positional.end());
  return !args->global.empty() && args->global.size() == args->local.size();
}

cl::NDRange toRange(const std::vector<size_t>& dims) {
  return dims.size() == 1 ? cl::NDRange(dims[0]) : cl::NDRange(dims[0], dims[1]);
}

/// Sets a scalar argument from its text, sized by the OpenCL type name the kernel declares.
void setScalar(cl::Kernel& kernel, cl_uint index, const std::string& type, const std::string& text) {
  if (type == "float") {
    kernel.setArg(index, static_cast<cl_float>(std::strtod(text.c_str(), nullptr)));
  } else if (type == "double") {
    kernel.setArg(index, std::strtod(text.c_str(), nullptr));
  } else if (type == "long" || type == "ulong" || type == "size_t") {
    kernel.setArg(index, static_cast<cl_long>(std::strtoll(text.c_str(), nullptr, 0)));
  } else if (type == "short" || type == "ushort") {
    kernel.setArg(index, static_cast<cl_short>(std::strtol(text.c_str(), nullptr, 0)));
  } else if (type == "char" || type == "uchar") {
    kernel.setArg(index, static_cast<cl_char>(std::strtol(text.c_str(), nullptr, 0)));
  } else {
    kernel.setArg(index, static_cast<cl_int>(std::strtoll(text.c_str(), nullptr, 0)));
  }
}

int run(const ProbeArgs& args) {
  std::ifstream in(args.file);
  if (!in) {
    std::cerr << "counter_probe: cannot read " << args.file << "\n";
    return 2;
  }
  std::stringstream source;
  source << in.rdbuf();

  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  if (platforms.empty()) {
    std::cerr << "counter_probe: no OpenCL platform\n";
    return 1;
  }
  std::vector<cl::Device> devices;
  platforms[0].getDevices(CL_DEVICE_TYPE_ALL, &devices);
  cl::Context context(devices[0]);
  cl::CommandQueue queue(context, devices[0]);

  cl::Program program(context, source.str());
  try {
    // Argument info tells pointers from scalars; the course's host builds without it, the probe needs it.
    program.build(std::vector<cl::Device>{devices[0]}, (args.options + " -cl-kernel-arg-info").c_str());
  } catch (const cl::Error&) {
    std::cerr << "counter_probe: build failed\n" << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(devices[0]) << "\n";
    return 1;
  }
  cl::Kernel kernel(program, args.kernel.c_str());
  const cl_uint count = kernel.getInfo<CL_KERNEL_NUM_ARGS>();
  if (count != args.kernelArgs.size()) {
    std::cerr << "counter_probe: " << args.kernel << " takes " << count << " arguments, got " << args.kernelArgs.size()
              << "\n";
    return 2;
  }
  std::vector<cl::Buffer> buffers;
  for (cl_uint i = 0; i < count; ++i) {
    const std::string& text = args.kernelArgs[i];
    const auto space = kernel.getArgInfo<CL_KERNEL_ARG_ADDRESS_QUALIFIER>(i);
    std::string type = kernel.getArgInfo<CL_KERNEL_ARG_TYPE_NAME>(i);
    while (!type.empty() && type.back() == '\0') type.pop_back();
    const size_t bytes = std::strtoull(text.c_str(), nullptr, 0);
    if (space == CL_KERNEL_ARG_ADDRESS_LOCAL) {
      kernel.setArg(i, cl::Local(bytes));
    } else if (type.find('*') != std::string::npos) {
      buffers.emplace_back(context, CL_MEM_READ_WRITE, bytes);
      queue.enqueueFillBuffer(buffers.back(), cl_uchar(0), 0, bytes);
      kernel.setArg(i, buffers.back());
    } else {
      setScalar(kernel, i, type, text);
    }
  }
  for (int n = 0; n < args.launches; ++n)
    queue.enqueueNDRangeKernel(kernel, cl::NullRange, toRange(args.global), toRange(args.local));
  queue.finish();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  ProbeArgs args;
  if (!parseArgs(argc, argv, &args)) {
    std::cerr << "usage: counter_probe [--launches N] [--options STR] FILE KERNEL GLOBAL LOCAL [ARG...]\n"
                 "  GLOBAL, LOCAL: X or XxY; one ARG per kernel argument: bytes for pointers, values for scalars\n";
    return 2;
  }
  try {
    return run(args);
  } catch (const cl::Error& e) {
    std::cerr << "counter_probe: " << clgrade::describe(e) << "\n";
    return 1;
  }
}
