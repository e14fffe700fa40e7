// A context and a profiling queue on one chosen device.
#pragma once

#include <memory>

#include "cl/device.h"
#include "cl/opencl.h"

namespace clgrade {

class HostStaging;
class LaunchObserver;
class Tape;

/// The OpenCL objects one grading run shares. Copies share the same objects (CLHPP refcounts).
struct Runtime {
  DeviceEntry device;
  cl::Context context;
  cl::CommandQueue queue;           ///< in-order, CL_QUEUE_PROFILING_ENABLE
  size_t baseAddrAlignBytes = 128;  ///< CL_DEVICE_MEM_BASE_ADDR_ALIGN / 8, for sub-buffer origins
  /// Guard bands around buffers (see guarded_buffer.h). Off in the simulator, whose own checker
  /// must see a read past the data as out of bounds.
  bool guardBands = true;
  /// Sees every launch and its arguments (see kernel_args.h); none while grading.
  std::shared_ptr<LaunchObserver> observer;
  /// The record of every device step (cl/device_step.h): written by a sandboxed runner, replayed by
  /// the keeper. A replaying runtime has no context and no queue: it never touches the device.
  std::shared_ptr<Tape> tape;
  /// The file every set of timed launches flocks while it runs (util/timing_lock.h): other tasks and
  /// jobs on this GPU build, check and profile meanwhile, but never time at once. Empty: nothing else
  /// times on this device. A replay times nothing and takes no lock.
  std::string timingLock;
  /// Pinned host memory for whole-buffer uploads and read-backs (cl/host_staging.h): on a GPU that
  /// runs its steps, none elsewhere (a replay, a CPU device), where ordinary memory serves.
  std::shared_ptr<HostStaging> staging;

  explicit Runtime(const DeviceEntry& entry);
  /// With a tape: a recording runtime opens the device as usual, a replaying one does not.
  Runtime(const DeviceEntry& entry, std::shared_ptr<Tape> tape);
  bool replaying() const;
  /// A sandboxed runner writing the tape: it hands bytes back, the keeper judges them.
  bool recording() const;
};

}  // namespace clgrade
