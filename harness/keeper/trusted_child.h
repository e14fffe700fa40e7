// The trusted kernels (the reference's, the naive ones, the copy roofline) are timed by a process of
// their own, `clgrade time-trusted`, which runs no student code: nothing that runs student code holds
// the reference kernels (spec section 5c). A batch starts it for many grades (batch/trusted_timer.h);
// a grade whose figures the batch lacks (`grade`, `check`, a task the batch's figures left out) starts
// one beside its runners, and its replays wait for the figures when they judge the speed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/trusted_timings.h"

namespace clgrade {

/// What `clgrade time-trusted` is asked.
struct TrustedTimingRequest {
  std::string rubric, device = "auto", out, timingLock, storeRoot;
  std::vector<std::string> tasks;  ///< empty: every task of the rubric
  uint64_t seed = 0;               ///< the grades' hidden seed: the same inputs as theirs
  /// Figures for one grade, timed beside its profiler session as its runners' timings are; a batch's
  /// (false) hold the profiler session off while they are taken, since they serve many grades.
  bool besideProfiler = false;
  std::string visibleGpus;  ///< CUDA_VISIBLE_DEVICES of the child (KeeperSettings::visibleGpus); "": inherited
};

/// The figures a `time-trusted` child wrote, or why there are none.
struct TrustedChildResult {
  std::shared_ptr<TrustedTimings> timings;  ///< null when the child failed
  std::string problem;
};

/// Runs `clgrade time-trusted` (the executable `clgrade`) for `request` within `timeoutSeconds`, its
/// messages into `logPath`, and reads what it wrote into request.out.
TrustedChildResult timeTrustedInChildProcess(const std::string& clgrade, const TrustedTimingRequest& request,
                                             double timeoutSeconds, const std::string& logPath);

}  // namespace clgrade
