// The locks one GPU's exclusive work takes turns on (batch --timing-lock, or a grade whose tasks run
// side by side): every set of timed launches holds the timing lock while it runs, so no two timings
// overlap; the hardware counter runs of a profiler hold the profiler lock (one ncu or CUPTI session
// at a time: they do not touch the clocks, `--clock-control none`, so they may run beside a timing).
// Correctness launches, builds, input generation and the replay's own PTX counters (no profiler,
// counters/nvidia/ptx_accesses.h) take neither. Waiting for either does not count towards a task's time
// limit (util/lock_waiters.h).
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <optional>
#include <string>

#include "util/trace.h"

namespace clgrade {

/// Holds an exclusive flock on a file while timing or profiling, so parallel grading jobs on one GPU take
/// their timings one at a time (no lock file: nothing to wait for).
class TimingLock {
 public:
  explicit TimingLock(const std::string& path) {
    if (path.empty()) return;
    // Read-only is enough for flock, and all a sandboxed runner may do with the keeper's file.
    fd_ = ::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) return;
    const char* what =
        path.size() > 9 && path.compare(path.size() - 9, 9, ".profiler") == 0 ? "profiler lock" : "timing lock";
    {
      const trace::Span waiting(std::string("waiting for the ") + what, "lock");
      ::flock(fd_, LOCK_EX);
    }
    held_.emplace(std::string("holding the ") + what, "lock");
  }
  ~TimingLock() {
    held_.reset();
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  TimingLock(const TimingLock&) = delete;
  TimingLock& operator=(const TimingLock&) = delete;

 private:
  int fd_ = -1;
  std::optional<trace::Span> held_;  ///< on the timeline, when one is written
};

/// The profiler lock that belongs to a timing lock: a file beside it (none without one).
inline std::string profilerLockFor(const std::string& timingLock) {
  return timingLock.empty() ? "" : timingLock + ".profiler";
}

}  // namespace clgrade
