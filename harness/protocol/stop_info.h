// What an earlier runner of a task was stopped by, so that the next one leaves it out: the rerun
// protocol between the keeper and a task's runner, one record instead of a handful of options.
#pragma once

#include <string>
#include <vector>

#include "model/status.h"

namespace clgrade {

/// A kernel that stopped an earlier grading process of the task (it hung, or the driver crashed on
/// it): the task is graded again without launching it, so that its other checks keep their results.
struct StoppedKernel {
  std::string kernel;  ///< "compute_histogram_local_memory"
  std::string caseId;  ///< the case it stopped in
  Status status = Status::Failed;
  std::string message;  ///< what stopped it, as the first process's report said
};

struct StopInfo {
  std::vector<StoppedKernel> kernels;  ///< not launched again (see StoppedKernel)
  /// Not empty: an earlier process of the task was stopped in its performance phase (why); the task
  /// is graded again without it. The swept checks get `performanceStatus`: failed or error when a
  /// kernel or a build of the sweep stopped it (the sweep checks correctness), not_measured when
  /// only the timing did.
  std::string performanceStopped;
  Status performanceStatus = Status::NotMeasured;
  /// Files of the stopped process (its messages, what its kernels printed), for the checks it stopped.
  std::vector<Evidence> evidence;

  bool empty() const { return kernels.empty() && performanceStopped.empty(); }
};

/// The record as JSON text, and back (false with the reason for anything else).
std::string stopInfoJson(const StopInfo& info);
bool readStopInfo(const std::string& text, StopInfo* info, std::string* err);

}  // namespace clgrade
