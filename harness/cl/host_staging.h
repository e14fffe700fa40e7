// Page-locked host memory for a runner's whole-buffer uploads and read-backs on a GPU.
//
// NVIDIA's driver copies a transfer from ordinary (pageable) memory through a pinned buffer of its
// own: a CPU copy at about 9 GB/s for one process, and the host's memory bandwidth shared by every
// process of a batch. From memory that is pinned already the copy engine reads the host directly.
// The way to such memory in OpenCL is a buffer made with CL_MEM_ALLOC_HOST_PTR and mapped (NVIDIA's
// OpenCL best practices, "pinned memory"): its host pointer, given to clEnqueueWrite/ReadBuffer, is
// what the transfer reads or fills. 64 MB writes on H100s (docs/performance.md): 8.8 ms pageable,
// 1.2 ms pinned from one process; from eight processes over two GPUs, 614 a second pageable (no
// more than eight on one GPU: the host's limit) against 1586 pinned.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "cl/opencl.h"

namespace clgrade {

class HostStaging {
 public:
  /// Areas on `queue`'s context, at most `maxPinnedBytes` of them together.
  HostStaging(cl::Context context, cl::CommandQueue queue, size_t maxPinnedBytes);
  ~HostStaging();
  HostStaging(const HostStaging&) = delete;
  HostStaging& operator=(const HostStaging&) = delete;

  /// An area of at least `bytes` for one transfer, the caller's alone until the lease ends. data()
  /// is nullptr when none can be had (the limit reached, the driver refused): the caller then uses
  /// ordinary memory, as it would without a pool.
  class Lease {
   public:
    Lease() = default;
    Lease(Lease&& other) noexcept;
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    char* data() const { return data_; }

   private:
    friend class HostStaging;
    HostStaging* pool_ = nullptr;
    size_t area_ = 0;
    char* data_ = nullptr;
  };
  Lease lease(size_t bytes);

  /// Bytes pinned now (what the tests and a runner's memory figures read).
  size_t pinnedBytes() const;

 private:
  struct Area {
    cl::Buffer buffer;
    char* host = nullptr;
    size_t bytes = 0;
    bool busy = false;
  };
  void giveBack(size_t area);

  cl::Context context_;
  cl::CommandQueue queue_;
  const size_t maxPinned_;
  mutable std::mutex mutex_;
  std::vector<Area> areas_;
  size_t pinned_ = 0;
  bool refused_ = false;  ///< the driver failed once: not asked again
};

}  // namespace clgrade
