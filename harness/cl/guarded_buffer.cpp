#include "cl/guarded_buffer.h"

namespace clgrade {
namespace {
size_t roundUp(size_t n, size_t m) { return (n + m - 1) / m * m; }
}  // namespace

GuardedBuffer::GuardedBuffer(const Runtime& rt, size_t dataBytes, size_t minGuardBytes) {
  const size_t align = std::max<size_t>(rt.baseAddrAlignBytes, 64);
  front_ = roundUp(std::max<size_t>(minGuardBytes, 1), align);
  data_ = dataBytes;
  // The back guard starts right after the data (no alignment gap a kernel could write unseen).
  total_ = roundUp(front_ + data_ + std::max<size_t>(minGuardBytes, 1), 16);
  whole_ = cl::Buffer(rt.context, CL_MEM_READ_WRITE, total_);
  cl_buffer_region region{front_, data_};
  view_ = whole_.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
}

}  // namespace clgrade
