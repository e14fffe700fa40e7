// A context and a profiling queue on one chosen device.
#pragma once

#include <memory>

#include "cl/device.h"
#include "cl/opencl.h"

namespace clgrade {

class LaunchObserver;

/// The OpenCL objects one grading run shares. Copies share the same objects (CLHPP refcounts).
struct Runtime {
  DeviceEntry device;
  cl::Context context;
  cl::CommandQueue queue;  ///< in-order, CL_QUEUE_PROFILING_ENABLE
  size_t baseAddrAlignBytes = 128;  ///< CL_DEVICE_MEM_BASE_ADDR_ALIGN / 8, for sub-buffer origins
  /// Guard bands around buffers (see guarded_buffer.h). Off in the simulator, whose own checker
  /// must see a read past the data as out of bounds.
  bool guardBands = true;
  /// Sees every launch and its arguments (see kernel_args.h); none while grading.
  std::shared_ptr<LaunchObserver> observer;

  explicit Runtime(const DeviceEntry& entry);
};

}  // namespace clgrade
