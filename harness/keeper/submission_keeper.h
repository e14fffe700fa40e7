// The keeper of one submission (keeper/keeper.h says what it does): its settings applied, its
// control folder, the tasks kept side by side (keeper/task_keeper.h), the profiler session beside
// them, the replays judged into one report. The runners are started through a RunnerLauncher and the
// tapes judged through a TapeJudge, so that tests script both (tests/keeper).
#pragma once

#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cl/device.h"
#include "intake/kernel_sources.h"
#include "keeper/control_folder.h"
#include "keeper/keeper.h"
#include "keeper/replay.h"
#include "keeper/runner_launcher.h"
#include "keeper/runner_process.h"
#include "keeper/task_keeper.h"
#include "rubric/rubric.h"

namespace clgrade {

/// How long a GPU grade waits for its own trusted timings before its runners start (grade()); a
/// grade with a deadline waits at most a quarter of the time it has left.
constexpr int kQuietTrustedWaitSeconds = 60;

class SubmissionKeeper {
 public:
  /// Applies the settings (the memory limit, a timing lock of its own when tasks run side by side),
  /// asks for the batch's trusted figures, makes the control folder and decides whether the whole
  /// submission is refused (`kernelsProblem`, or no sandbox where one is needed).
  SubmissionKeeper(const Rubric& rubric, const DeviceEntry& device, std::string kernelsDir, std::string outDir,
                   const KeeperSettings& settings, const std::string& kernelsProblem = "");
  /// Where its runners run, with the settings as applied (for RunnerProcess).
  RunnerPlace place() const { return RunnerPlace{&settings_, kernelsDir_}; }
  /// Keeps every task of `onlyTasks` (empty: the rubric's), its runners started by `launcher`, their
  /// tapes judged by `judge`; returns the merged report (not yet written).
  SubmissionResult grade(const std::vector<std::string>& onlyTasks, RunnerLauncher& launcher, const TapeJudge& judge);

 private:
  /// The tasks' first runners in one process (KeeperSettings::tasksTogether), as they go.
  struct Together {
    std::future<void> runner;  ///< the runner of several tasks, until it has ended (invalid: none)
    /// Per slot, how its part ended (invalid: not in it).
    std::vector<std::shared_future<PartEnd>> parts;
    std::vector<bool> announced;  ///< the slots whose start onTask was told
  };
  /// Starts the first runners of the tasks the policy lets run in one process
  /// (RunnerLauncher::runTogether), where the settings say so and there are two or more.
  /// `session` (may be null): the counters session, run by that process after the tasks' parts.
  Together startTogether(const std::vector<std::unique_ptr<TaskKeeper>>& keepers, RunnerLauncher& launcher,
                         std::vector<TaskReport>* places, std::vector<TaskRun>* runs,
                         std::shared_ptr<SessionLaunch> session);
  /// The counters session beside the runners; where the tasks run in one process and no profiler
  /// counts (the PTX counters), `together` gets the session for that process to run after the
  /// parts (its own process runs it where that one does not).
  std::shared_future<std::map<std::string, HardwareRun>> startHardwareSession(
      const std::vector<const TaskRubric*>& selected, std::shared_ptr<SessionLaunch>* together);
  /// The trusted kernels' figures of the tasks the batch brought none for, timed by a process that
  /// runs no student code (keeper/trusted_child.h): on a GPU before the runners start, on a CPU device
  /// beside them (grade()); invalid when none is needed.
  std::shared_future<TrustedChildResult> timeTrustedBeside(const std::vector<const TaskRubric*>& selected,
                                                           RunnerLauncher& launcher);
  /// The tasks of `selected` whose performance case a runner times (a check: a visible one).
  std::vector<std::string> timedTasks(const std::vector<const TaskRubric*>& selected) const;
  /// Figures kept on the machine by an earlier grade for exactly `tasks` (keeper/trusted_cache.h),
  /// taken as the batch's; sets `reuseKey_` where this grade's figures are to be kept instead.
  void reuseKeptFigures(const std::vector<std::string>& tasks);
  /// A speed criterion left unmeasured because the trusted process failed is the machine's fault, not
  /// the student's (a GPU grade: its tasks are not graded, and a batch grades them again).
  void markUntimedReference(const TrustedChildResult& timed, GradeReport* report) const;
  /// Keeps the figures timed beside this grade when they cover `tasks` and all are fit to serve.
  void keepFigures(const TrustedChildResult& timed, const std::vector<std::string>& tasks) const;
  void refuse(const TaskRubric& task, TaskReport* place, TaskRun* run) const;
  GradeReport mergedReport(std::vector<GradeReport> judged, std::vector<TaskReport> tasks) const;

  const Rubric& rubric_;
  const DeviceEntry& device_;
  std::string kernelsDir_, outDir_;
  KeeperSettings settings_;
  std::string kernelsProblem_, refused_;
  std::string machineFault_;  ///< the sandbox probe's finding: no task is graded
  /// The batch's figures as served, held until this keeper ends: its GPU is not re-timed meanwhile.
  ServedFigures served_;
  std::shared_ptr<const TrustedTimings> batchFigures_;
  std::string reuseKey_;  ///< where this grade's trusted figures are kept ("" none)
  std::chrono::steady_clock::time_point start_;
  std::string startedAt_;
  KernelSources sources_;  ///< the submission's files, read once
  ControlFolder folders_;
};

}  // namespace clgrade
