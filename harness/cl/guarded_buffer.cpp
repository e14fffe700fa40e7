#include "cl/guarded_buffer.h"

#include "cl/device_step.h"

namespace clgrade {
namespace {
size_t roundUp(size_t n, size_t m) { return (n + m - 1) / m * m; }
}  // namespace

GuardedBuffer::GuardedBuffer(const Runtime& rt, size_t dataBytes, size_t minGuardBytes) {
  const size_t align = std::max<size_t>(rt.baseAddrAlignBytes, 64);
  if (!rt.guardBands) minGuardBytes = 0;
  front_ = minGuardBytes ? roundUp(minGuardBytes, align) : 0;
  data_ = dataBytes;
  // The back guard starts right after the data (no alignment gap a kernel could write unseen).
  total_ = minGuardBytes ? roundUp(front_ + data_ + minGuardBytes, 16) : data_;
  deviceAction(rt, "buffer", [&] {
    whole_ = cl::Buffer(rt.context, CL_MEM_READ_WRITE, total_);
    cl_buffer_region region{front_, data_};
    view_ = whole_.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
  });
}

}  // namespace clgrade
