// What the end of a task's runner means: the task's status and message when it was stopped or died,
// and the rerun rule (whether a second runner that leaves out what stopped the first keeps something
// for the student, and what it is told: StopInfo). Pure: it decides from how the runner ended and
// where it was (its progress file), without starting a process.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "grading/stop_info.h"
#include "util/progress.h"
#include "util/subprocess.h"

namespace clgrade {

/// The limits a runner ran under, as its messages quote them.
struct RunnerLimits {
  double taskTimeoutSeconds = 300;
  double buildTimeoutSeconds = 120;
  uint64_t memoryLimitBytes = 0;
};

/// A stopped or dead runner's task: its status, the outcome word of report.json's `process`, and a
/// message that says where it was ("timed out after 30 s while running kernel ConvVertical (case
/// course_box4): a kernel probably never ends ..."). `lastWords` is what it wrote on stderr.
struct RunnerEnd {
  Status status = Status::Error;
  std::string outcome, message;
};
RunnerEnd judgeRunnerEnd(const ProcessResult& runner, const progress::Position& at, const RunnerLimits& limits,
                         const std::string& lastWords);

/// Stopped in the performance phase: the rerun leaves that phase out (its swept checks take the
/// stop's `status` when a kernel or a build of the sweep stopped it, not_measured when only the
/// timing did). Stopped in a kernel during a case: it leaves that kernel's checks out, when the task
/// has other checks to keep. Anything else (a build, the simulator, a runner that finished or never
/// started): no rerun.
std::optional<StopInfo> rerunAfterStop(const std::string& taskId, const ProcessResult& first,
                                       const progress::Position& at, Status status, const std::string& message);

/// What the rerun left out, for people: "the performance phase", "kernel ConvVertical".
std::string leftOut(const StopInfo& info);

}  // namespace clgrade
