#include "cl/runtime.h"

#include "cl/host_staging.h"
#include "protocol/tape.h"

namespace clgrade {
namespace {

/// Pinned staging where a copy engine reads the host. Its bound: the largest transfers a task makes
/// (a 4096 x 4096 scene's planes with their guards) a few at once, well under a runner's memory.
void stageOnGpu(Runtime* rt) {
  constexpr size_t kMaxPinnedBytes = size_t(512) << 20;
  // Not a CPU device, whose "device memory" is host memory, nor the simulator.
  if (isHardwareGpu(rt->device.info))
    rt->staging = std::make_shared<HostStaging>(rt->context, rt->queue, kMaxPinnedBytes);
}

}  // namespace

Runtime::Runtime(const DeviceEntry& entry)
    : device(entry), context(entry.device), queue(context, entry.device, CL_QUEUE_PROFILING_ENABLE) {
  const cl_uint alignBits = entry.device.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>();
  if (alignBits >= 8) baseAddrAlignBytes = alignBits / 8;
  stageOnGpu(this);
}

Runtime::Runtime(const DeviceEntry& entry, std::shared_ptr<Tape> recordOrReplay) : device(entry) {
  tape = std::move(recordOrReplay);
  if (!replaying()) {
    context = cl::Context(entry.device);
    queue = cl::CommandQueue(context, entry.device, CL_QUEUE_PROFILING_ENABLE);
    stageOnGpu(this);
  }
  // A query, not a launch: the keeper lays buffers out as the runner did.
  const cl_uint alignBits = entry.device.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>();
  if (alignBits >= 8) baseAddrAlignBytes = alignBits / 8;
}

bool Runtime::replaying() const { return tape && tape->replaying(); }
bool Runtime::recording() const { return tape && !tape->replaying(); }

}  // namespace clgrade
