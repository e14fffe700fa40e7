#include "cl/host_staging.h"

namespace clgrade {
namespace {
constexpr size_t kAreaGrain = size_t(1) << 20;  // areas in whole MiB, so near sizes share one
}  // namespace

HostStaging::HostStaging(cl::Context context, cl::CommandQueue queue, size_t maxPinnedBytes)
    : context_(std::move(context)), queue_(std::move(queue)), maxPinned_(maxPinnedBytes) {}

HostStaging::~HostStaging() {
  // No lease outlives the pool (a Runtime's copies hold it while they transfer).
  for (Area& a : areas_) {
    try {
      queue_.enqueueUnmapMemObject(a.buffer, a.host);
    } catch (const cl::Error&) {  // the buffer is released below either way
    }
  }
  try {
    queue_.finish();
  } catch (const cl::Error&) {
  }
}

HostStaging::Lease::Lease(Lease&& other) noexcept : pool_(other.pool_), area_(other.area_), data_(other.data_) {
  other.pool_ = nullptr;
  other.data_ = nullptr;
}

HostStaging::Lease::~Lease() {
  if (pool_) pool_->giveBack(area_);
}

HostStaging::Lease HostStaging::lease(size_t bytes) {
  Lease out;
  const size_t size = (bytes + kAreaGrain - 1) / kAreaGrain * kAreaGrain;
  {
    const std::lock_guard<std::mutex> hold(mutex_);
    size_t best = areas_.size();
    for (size_t i = 0; i < areas_.size(); ++i)
      if (!areas_[i].busy && areas_[i].bytes >= size && (best == areas_.size() || areas_[i].bytes < areas_[best].bytes))
        best = i;
    if (best < areas_.size()) {
      areas_[best].busy = true;
      out.pool_ = this;
      out.area_ = best;
      out.data_ = areas_[best].host;
      return out;
    }
    if (refused_ || pinned_ + size > maxPinned_) return out;
    pinned_ += size;  // reserved while it is made, outside the lock
  }
  Area made;
  made.bytes = size;
  try {
    made.buffer = cl::Buffer(context_, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size);
    made.host = static_cast<char*>(queue_.enqueueMapBuffer(made.buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, size));
  } catch (const cl::Error&) {
    made.host = nullptr;
  }
  const std::lock_guard<std::mutex> hold(mutex_);
  if (!made.host) {
    pinned_ -= size;
    refused_ = true;
    return out;
  }
  made.busy = true;
  areas_.push_back(std::move(made));
  out.pool_ = this;
  out.area_ = areas_.size() - 1;
  out.data_ = areas_.back().host;
  return out;
}

void HostStaging::giveBack(size_t area) {
  const std::lock_guard<std::mutex> hold(mutex_);
  areas_[area].busy = false;
}

size_t HostStaging::pinnedBytes() const {
  const std::lock_guard<std::mutex> hold(mutex_);
  return pinned_;
}

}  // namespace clgrade
