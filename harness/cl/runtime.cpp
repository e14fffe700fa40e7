#include "cl/runtime.h"

namespace clgrade {

Runtime::Runtime(const DeviceEntry& entry)
    : device(entry),
      context(entry.device),
      queue(context, entry.device, CL_QUEUE_PROFILING_ENABLE) {
  const cl_uint alignBits = entry.device.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>();
  if (alignBits >= 8) baseAddrAlignBytes = alignBits / 8;
}

}  // namespace clgrade
