// One task of a submission, kept: the source policy first (a refused file starts no runner), then
// its runner, the replay that follows the runner's tape, and, when the runner was stopped in one
// kernel or in the performance phase, one rerun without it (keeper/runner_end.h). What the runner
// left when it was stopped (its messages, what the kernels printed) becomes the task's evidence.
#pragma once

#include <future>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cl/device.h"
#include "grading/hardware.h"
#include "intake/kernel_sources.h"
#include "keeper/control_folder.h"
#include "keeper/keeper.h"
#include "keeper/replay.h"
#include "keeper/runner_launcher.h"
#include "protocol/stop_info.h"
#include "rubric/rubric.h"
#include "tasks/inputs.h"

namespace clgrade {

/// What the tasks of one submission's grade share.
struct SubmissionContext {
  const Rubric* rubric = nullptr;
  std::string kernelsDir, outDir;
  const KernelSources* sources = nullptr;  ///< the submission's files, read once by the keeper
  KeeperSettings settings;                 ///< as applied: the memory limit and timing lock filled in
  std::string deviceIdentity;              ///< the keeper's device: every runner must see this one
  ControlFolder* folders = nullptr;
  RunnerLauncher* launcher = nullptr;
  TapeJudge judge;
  Replays* replays = nullptr;
  InputCache* inputs = nullptr;  ///< made once for the replays of every task
  /// The submission's profiler session's counts per task (invalid: none, the runners count nothing).
  std::shared_future<std::map<std::string, HardwareRun>> hardware;
  std::string trustedText;                        ///< the batch's trusted figures, as the runners get them
  std::shared_ptr<const TrustedTimings> trusted;  ///< ... and as the replays read them
  /// The trusted figures the batch did not bring, timed for this grade: the replays wait for them
  /// (GradeOptions::trustedBeside); null when none are timed.
  std::function<std::shared_ptr<const TrustedTimings>(std::string* problem)> trustedBeside;
};

class TaskKeeper {
 public:
  TaskKeeper(const SubmissionContext& context, size_t slot, const TaskRubric& task);
  /// Its folders and files; false where the source policy refuses the task's file (`place` and
  /// `run` then say so, and no runner starts). keep() prepares a task not prepared yet.
  bool prepare(TaskReport* place, TaskRun* run);
  /// Its first runner's launch, for a runner of several tasks (RunnerLauncher::runTogether).
  RunnerLaunch firstLaunch() const { return launchOf(StopInfo()); }
  /// Runs the task; `place` gets what the runner's end decided (a replay fills it later when the
  /// runner ended well), `run` how it ended. `together`: how its part of a runner of several tasks
  /// ended, which stands for its first runner (null: it runs one of its own; `alone`: why, when it
  /// was to run in that runner, which the report keeps).
  void keep(TaskReport* place, TaskRun* run, const RunnerEnded* together = nullptr, const std::string& alone = "");

 private:
  bool refusedByPolicy(TaskReport* place, TaskRun* run);
  RunnerLaunch launchOf(const StopInfo& stopped, std::function<void()> starting = {}) const;
  RunnerEnded launch(const StopInfo& stopped, std::function<void()> starting = {});
  std::shared_future<ReplayResult> replay(const StopInfo& stopped, const std::string& tape,
                                          std::function<bool()> writing, const std::string& evidenceDir);
  /// The stopped runner's files, kept under names a rerun does not write.
  std::vector<Evidence> keepStoppedFiles(const ProcessResult& p, std::string* outputShown);
  /// One more runner that leaves out what stopped the first; false when it did not end well either.
  bool rerun(StopInfo stop, const std::string& firstOutcome, ProcessResult* p, TaskRun* run,
             std::vector<Evidence>* evidence, RerunRecord* record, std::string* outputShown);
  std::string lastWords() const;

  const SubmissionContext& c_;
  size_t slot_;
  const TaskRubric& task_;
  bool prepared_ = false, refused_ = false;
  std::string scratch_, tapePath_, progressPath_, stderrPath_, outputRel_, outputPath_, requestPath_, rubricText_;
};

}  // namespace clgrade
