// What the end of a task's runner means: the task's status and message when it was stopped or died,
// and the rerun rule (whether a second runner that leaves out what stopped the first keeps something
// for the student, and what it is told: StopInfo). Pure: it decides from how the runner ended and
// where it was (its progress file), without starting a process.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/report.h"
#include "protocol/progress.h"
#include "protocol/stop_info.h"
#include "util/subprocess.h"

namespace clgrade {

/// The limits a runner ran under, as its messages quote them.
struct RunnerLimits {
  double taskTimeoutSeconds = 300;
  double buildTimeoutSeconds = 120;
  uint64_t memoryLimitBytes = 0;
  uint64_t scratchQuotaBytes = 0;
  bool gradeDeadline = false;  ///< the grade has a --time-limit (KeeperSettings::deadline)
};

/// A stopped or dead runner's task: its status, the outcome word of report.json's `process`, and a
/// message that says where it was ("timed out after 30 s while running kernel ConvVertical (case
/// course_box4): a kernel probably never ends ..."). `lastWords` is what it wrote on stderr.
struct RunnerEnd {
  Status status = Status::Error;
  std::string outcome, message;
  /// Not the submission's doing: the runner could not start, or ended with one of the codes it
  /// ends with when the machine fails it (a request it cannot read, no device, no tape; the loader's
  /// 126 and 127) before any code of the task was built or run (its progress file says nowhere).
  bool machineFault = false;
};
/// The outcome of a runner stopped while another process held the lock it waited for
/// (ProcessResult::stoppedWaiting): a machine fault, graded again when the batch resumes.
inline constexpr const char* kWaitedOutcome = "waited for another job's lock";

/// The last line of what a process wrote (at most 300 characters), for a message that quotes it.
std::string lastLine(std::string text);

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

/// Whether a runner was killed by a signal clgrade did not send: clgrade's own stops (time, build
/// time, memory, processes) are recorded as such, so a SIGKILL left is the system's (its
/// out-of-memory killer), and SIGTERM, SIGINT or SIGHUP an administrator's or a shutdown's. Not the
/// kernel's doing: rerunAfterStop does not leave a kernel out for it, and a resumed batch grades the
/// task once more (tasksToRetryOnResume). A crash (SIGSEGV, SIGABRT) is not from outside.
bool killedFromOutside(const ProcessResult& runner);
/// The same, from a task's process.outcome in report.json ("signal SIGKILL").
bool killedFromOutside(const std::string& outcome);

/// The tasks of a completed submission that a resumed batch grades again: killed from outside, or
/// stopped waiting for another job's lock (kWaitedOutcome), on their first grade. A task already retried on resume is
/// not retried again (its outcome says so: retriedOnResumeOutcome, report/text.h).
std::vector<std::string> tasksToRetryOnResume(const GradeReport& report);

}  // namespace clgrade
