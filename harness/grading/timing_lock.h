// The lock one GPU's exclusive work takes turns on (batch --timing-lock): timings, and the hardware
// counter runs, whose profiler locks the clocks and replays kernels (a timing beside it would be
// wrong). Correctness launches do not take it. Waiting for it does not count towards a task's time
// limit (util/lock_waiters.h).
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <string>

namespace clgrade {

/// Holds an exclusive flock on a file while timing or profiling, so parallel grading jobs on one GPU take
/// their timings one at a time (no lock file: nothing to wait for).
class TimingLock {
 public:
  explicit TimingLock(const std::string& path) {
    if (path.empty()) return;
    // Read-only is enough for flock, and all a sandboxed runner may do with the keeper's file.
    fd_ = ::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ >= 0) ::flock(fd_, LOCK_EX);
  }
  ~TimingLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  TimingLock(const TimingLock&) = delete;
  TimingLock& operator=(const TimingLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace clgrade
