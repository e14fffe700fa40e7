#include "keeper/runner_end.h"

#include <algorithm>
#include <csignal>
#include <cstdio>

#include "protocol/channels.h"
#include "tasks/task.h"
#include "util/byte_size.h"

namespace clgrade {
namespace {

std::string seconds(double s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.0f", s);
  return buffer;
}

/// Printed by a stopped runner's kernels, past which printing is named as the likely cause of the
/// stop: a kernel printing from every work-item of a course-sized case prints 10-30 MB a launch.
constexpr uint64_t kPrintedALot = uint64_t(1) << 20;

}  // namespace

std::string lastLine(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  const size_t nl = text.rfind('\n');
  std::string line = nl == std::string::npos ? text : text.substr(nl + 1);
  if (line.size() > 300) line = line.substr(0, 297) + "...";
  return line;
}

RunnerEnd judgeRunnerEnd(const ProcessResult& p, const progress::Position& position, const RunnerLimits& s,
                         const std::string& lastWords) {
  RunnerEnd end;
  const std::string where = progress::describe(position);
  const std::string at = where.empty() ? "" : " " + where;
  const bool building = progress::isBuild(position);
  if (p.timedOut && p.stoppedWaiting) {
    // Another process held a lock it waited for (another batch's or grade's timed launches on this
    // GPU, or anyone who can open the lock file) for ten of its time limits: the machine's fault.
    end.status = Status::Error;
    end.outcome = kWaitedOutcome;
    end.message = "stopped after waiting " + seconds(p.waitedSeconds) +
                  " s for other grading jobs' timed launches on this GPU" + at +
                  " (another process held the GPU's timing lock that long): not the submission's doing; "
                  "grade it again";
    end.machineFault = true;
  } else if (p.timedOut) {
    end.status = Status::Failed;
    end.outcome = "timed out";
    std::string why = ": the task was stopped";
    if (building)
      why = ": the compiler did not finish (a macro or loop-unrolling bomb?); the task was stopped";
    else if (position.step == progress::Step::Kernel && p.stdoutBytes >= kPrintedALot)
      why = ": its kernels had printed " + mib(p.stdoutBytes) +
            " by then; a printf in every work-item makes each launch take minutes on some drivers (NVIDIA's "
            "printed about 0.1 MB a second on an H200): print from one work-item, or not at all; the task was "
            "stopped";
    else if (position.step == progress::Step::Kernel && position.phase == progress::Step::Case)
      why =
          ": a kernel probably never ends (an endless loop, or a barrier that not every work-item reaches; "
          "drivers such as PoCL also compile a kernel at its first launch); the task was stopped";
    else if (position.phase == progress::Step::Performance && position.step == progress::Step::Kernel)
      why =
          ": a kernel did not finish in the performance phase (the RESULT_STEPS sweep runs the kernels with other "
          "steps and group sizes); the task was stopped";
    else if (position.phase == progress::Step::Performance)
      why = ": the task was stopped (its kernels ran their cases, but timing them took longer than the limit)";
    // Stopped well before its own limit: the grade's --time-limit was reached (keeper.h's deadline).
    const double counted = p.seconds - p.waitedSeconds;
    const bool atDeadline = s.gradeDeadline && (s.taskTimeoutSeconds <= 0 || counted + 2 < s.taskTimeoutSeconds);
    end.message = (atDeadline ? "stopped after " + seconds(counted) + " s, at the grade's --time-limit"
                              : "timed out after " + seconds(s.taskTimeoutSeconds) + " s") +
                  at + why;
  } else if (p.stoppedBy == "build") {
    end.status = Status::Failed;
    end.outcome = "build time";
    end.message = "the compiler ran longer than " + seconds(s.buildTimeoutSeconds) + " s" + at +
                  ": the task was stopped (a macro or loop-unrolling bomb?)";
  } else if (p.stoppedBy == "disk") {
    // Only native code writes files on a CPU device (PoCL): the kernel's own, not the grading's.
    end.status = Status::Failed;
    end.outcome = "disk";
    end.message = "wrote more than " + std::to_string(s.scratchQuotaBytes >> 20) + " MiB into its scratch folder and compiler cache" + at +
                  " (a grading run writes far less: the kernel's own code wrote files): the task was stopped";
  } else if (p.tooManyProcesses) {
    end.status = Status::Failed;
    end.outcome = "processes";
    end.message = "started too many processes" + at +
                  " (a kernel that forks? kernels run no host code): the task was "
                  "stopped";
  } else if (p.memoryExceeded) {
    end.status = Status::Failed;
    end.outcome = "memory";
    end.message =
        "used more than " + std::to_string(s.memoryLimitBytes >> 20) + " MiB of memory" + at + ": the task was stopped";
  } else if (p.signal) {
    end.status = Status::Error;
    end.outcome = "signal " + signalName(p.signal);
    // A signal while the student's code ran (a kernel on PoCL is native code in this process) may be
    // its own: it can raise any signal, SIGKILL included. Said as such, never as the machine's alone.
    const bool studentCode = building || position.step == progress::Step::Kernel;
    if (p.signal == SIGKILL)
      end.message = "the grading process was killed (SIGKILL)" + at +
                    (studentCode ? ", by the kernel's own code or by the system's out-of-memory killer"
                                 : ", perhaps by the system's out-of-memory killer") +
                    "; the task could not be graded";
    else
      end.message = "the grading process died with " + signalName(p.signal) + at +
                    (building ? ": the OpenCL compiler crashed on this file, or the file's own code raised it"
                     : position.step == progress::Step::Kernel
                         ? ": raised by the kernel's own code, or the OpenCL driver crashed on this kernel"
                         : ": the task could not be graded");
  } else if (!p.started) {
    end.status = Status::Error;
    end.outcome = "not started";
    end.message = "the grading process could not start: " + p.error;
    end.machineFault = true;
  } else if (!position.valid &&
             (p.exitCode == kRunnerBadRequest || p.exitCode == kRunnerNoDevice || p.exitCode == kRunnerCannotRecord ||
              p.exitCode == kRunnerCannotReach || p.exitCode == 126 || p.exitCode == 127)) {
    // Before the task's code was built: nothing of the submission had run. Its own words are the
    // machine's here (the loader's, the OpenCL loader's), quoted as the grading process's.
    end.status = Status::Error;
    end.outcome = "exit " + std::to_string(p.exitCode);
    const std::string last = lastLine(lastWords);
    end.message = "the grading process could not get ready on this machine (exit code " + std::to_string(p.exitCode) +
                  (p.exitCode == kRunnerNoDevice      ? ": it did not find the grade's OpenCL device in its sandbox"
                   : p.exitCode == kRunnerCannotReach ? ": a path it needs cannot be reached in its sandbox"
                   : p.exitCode == 127                ? ": a program or shared library it needs was not found"
                                                      : "") +
                  ")" + (last.empty() ? "" : "; it said: " + last);
    end.machineFault = true;
  } else {
    end.status = Status::Error;
    end.outcome = "exit " + std::to_string(p.exitCode);
    const std::string last = lastLine(lastWords);
    // After the task's code was built, what the process wrote last may be the kernel's own (native
    // code on PoCL writes where it likes): quoted as such, never as clgrade's words.
    end.message = "the grading process ended with exit code " + std::to_string(p.exitCode) + at + " without a report" +
                  (last.empty() ? "" : "; the last line of its messages, which the kernel's own code can write: \"" +
                                           last + "\"");
  }
  return end;
}

std::optional<StopInfo> rerunAfterStop(const std::string& taskId, const ProcessResult& p, const progress::Position& at,
                                       Status status, const std::string& message) {
  // Killed from outside in a kernel: the kernel did nothing to lose its checks for (a resume retries the task).
  if (p.ok() || !p.started || !at.valid || killedFromOutside(p) || p.stoppedWaiting) return std::nullopt;
  const Status stopStatus = status == Status::Error ? Status::Error : Status::Failed;
  StopInfo info;
  if (at.phase == progress::Step::Performance) {
    const bool sweepStopped = at.step == progress::Step::Kernel || at.step == progress::Step::Build;
    info.performanceStopped = message;
    info.performanceStatus = sweepStopped ? stopStatus : Status::NotMeasured;
    return info;
  }
  if (at.step != progress::Step::Kernel || at.phase != progress::Step::Case) return std::nullopt;
  const Task* task = findTask(taskId);
  if (!task) return std::nullopt;
  const TaskInfo& taskInfo = task->info();
  const auto launches = taskInfo.kernelChecks.find(at.what);
  if (launches == taskInfo.kernelChecks.end()) return std::nullopt;
  const std::vector<std::string>& lost = launches->second;
  const bool othersLeft = std::any_of(taskInfo.checks.begin(), taskInfo.checks.end(), [&](const CheckInfo& ci) {
    return !ci.simulated && !ci.swept && !ci.fromOtherChecks &&
           std::find(lost.begin(), lost.end(), ci.id) == lost.end();
  });
  if (!othersLeft) return std::nullopt;
  info.kernels.push_back({at.what, at.caseId, stopStatus, message});
  return info;
}

std::string leftOut(const StopInfo& info) {
  if (!info.performanceStopped.empty()) return "the performance phase";
  return info.kernels.empty() ? "nothing" : "kernel " + info.kernels.front().kernel;
}

namespace {

/// Signals only something outside clgrade sends to a runner.
constexpr int kOutsideSignals[] = {SIGKILL, SIGTERM, SIGINT, SIGHUP};

}  // namespace

bool killedFromOutside(const ProcessResult& p) {
  if (!p.started || p.timedOut || p.memoryExceeded || p.tooManyProcesses || !p.stoppedBy.empty()) return false;
  return std::find(std::begin(kOutsideSignals), std::end(kOutsideSignals), p.signal) != std::end(kOutsideSignals);
}

bool killedFromOutside(const std::string& outcome) {
  // judgeRunnerEnd's outcome for a signal it did not send itself.
  return std::any_of(std::begin(kOutsideSignals), std::end(kOutsideSignals),
                     [&](int signal) { return outcome == "signal " + signalName(signal); });
}

std::vector<std::string> tasksToRetryOnResume(const GradeReport& report) {
  std::vector<std::string> ids;
  for (const TaskReport& t : report.tasks)
    if (t.process.recorded && (killedFromOutside(t.process.outcome) || t.process.outcome == kWaitedOutcome))
      ids.push_back(t.id);
  return ids;
}

}  // namespace clgrade
