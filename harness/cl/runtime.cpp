#include "cl/runtime.h"

#include "protocol/tape.h"

namespace clgrade {

Runtime::Runtime(const DeviceEntry& entry)
    : device(entry), context(entry.device), queue(context, entry.device, CL_QUEUE_PROFILING_ENABLE) {
  const cl_uint alignBits = entry.device.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>();
  if (alignBits >= 8) baseAddrAlignBytes = alignBits / 8;
}

Runtime::Runtime(const DeviceEntry& entry, std::shared_ptr<Tape> recordOrReplay) : device(entry) {
  tape = std::move(recordOrReplay);
  if (!replaying()) {
    context = cl::Context(entry.device);
    queue = cl::CommandQueue(context, entry.device, CL_QUEUE_PROFILING_ENABLE);
  }
  // A query, not a launch: the keeper lays buffers out as the runner did.
  const cl_uint alignBits = entry.device.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>();
  if (alignBits >= 8) baseAddrAlignBytes = alignBits / 8;
}

bool Runtime::replaying() const { return tape && tape->replaying(); }
bool Runtime::recording() const { return tape && !tape->replaying(); }

}  // namespace clgrade
