// Setting kernel arguments through the runtime, so a launch can be observed and replayed
// elsewhere (the NVIDIA hardware counters replay launches through the CUDA driver).
#pragma once

#include <cstring>
#include <map>
#include <memory>
#include <type_traits>
#include <vector>

#include "cl/device_step.h"
#include "cl/runtime.h"

namespace clgrade {

struct Geometry;

/// One argument as the host set it.
struct KernelArg {
  enum class Kind { Buffer, Local, Bytes } kind = Kind::Bytes;
  cl::Buffer buffer;
  size_t localBytes = 0;
  std::vector<unsigned char> bytes;

  static KernelArg ofBuffer(const cl::Buffer& buffer) { return {Kind::Buffer, buffer, 0, {}}; }
  static KernelArg ofLocal(size_t bytes) { return {Kind::Local, cl::Buffer(), bytes, {}}; }
  template <typename T>
  static KernelArg of(const T& value) {
    static_assert(std::is_arithmetic<T>::value, "scalars only");
    KernelArg arg;
    arg.bytes.resize(sizeof(T));
    std::memcpy(arg.bytes.data(), &value, sizeof(T));
    return arg;
  }
};

/// Sees every launch of a runtime with the arguments set before it. Installed on a Runtime
/// only where launches must be observed; grading runs without one.
class LaunchObserver {
 public:
  virtual ~LaunchObserver() = default;
  /// Called after the OpenCL launch has finished.
  virtual void launched(const Runtime& rt, const cl::Kernel& kernel, const std::vector<KernelArg>& args,
                        const Geometry& geometry) = 0;
  /// The arguments recorded per kernel object.
  std::map<cl_kernel, std::vector<KernelArg>> args;
  void record(const cl::Kernel& kernel, cl_uint index, KernelArg arg) {
    std::vector<KernelArg>& list = args[kernel()];
    // The list holds exactly the kernel's arguments: a handle may be that of a kernel released
    // before (the driver reuses them), whose longer list would otherwise stay and make the replay
    // of this one fail ("7 arguments recorded, the PTX has 6"), leaving its launch uncounted.
    // Every argument is set again before a launch (OpenCL refuses one otherwise).
    const size_t count = kernel.getInfo<CL_KERNEL_NUM_ARGS>();
    if (list.size() != count) list.assign(count, KernelArg{});
    if (index < list.size()) list[index] = std::move(arg);
  }
};

/// Sets a buffer argument (and records it when the runtime has an observer).
inline void setArg(const Runtime& rt, cl::Kernel& kernel, cl_uint index, const cl::Buffer& buffer) {
  deviceAction(rt, "arg", [&] {
    kernel.setArg(index, buffer);
    if (rt.observer) rt.observer->record(kernel, index, KernelArg::ofBuffer(buffer));
  });
}

/// Sets a __local allocation argument.
inline void setArg(const Runtime& rt, cl::Kernel& kernel, cl_uint index, const cl::LocalSpaceArg& local) {
  deviceAction(rt, "arg", [&] {
    kernel.setArg(index, local);
    if (rt.observer) rt.observer->record(kernel, index, KernelArg::ofLocal(local.size_));
  });
}

/// Sets a scalar argument (int, uint, float).
template <typename T>
void setArg(const Runtime& rt, cl::Kernel& kernel, cl_uint index, const T& value) {
  static_assert(std::is_arithmetic<T>::value, "scalars only: buffers and local allocations have their own overloads");
  deviceAction(rt, "arg", [&] {
    kernel.setArg(index, value);
    if (rt.observer) rt.observer->record(kernel, index, KernelArg::of(value));
  });
}

}  // namespace clgrade
