// The keeper's verdicts: a runner's tape replayed through the same grading code (grading/grader.h)
// on a runtime that never touches the device. A replay may follow the tape while the runner writes
// it; its evidence then goes aside ("staged") until the runner is known to have ended well. Replays
// land in the report in the rubric's order, whichever runner ended first.
#pragma once

#include <chrono>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <vector>

#include "cl/device.h"
#include "grading/grader.h"
#include "keeper/keeper.h"
#include "model/report.h"
#include "rubric/rubric.h"

namespace clgrade {

/// A runner's tape graded by the keeper: the task's report, or why the tape cannot be graded.
struct ReplayResult {
  GradeReport graded;
  std::string problem;
  std::chrono::steady_clock::time_point ended;
};

/// Grades `options`' one task from the tape at `tape`; with `writing`, following the tape while the
/// runner writes it (Tape::player). The keeper's is replayTape; tests script their own.
using TapeJudge =
    std::function<ReplayResult(const GradeOptions& options, const std::string& tape, std::function<bool()> writing)>;

/// The real judge: the tape replayed on a runtime that describes `device` and never touches it. A
/// tape that ends early or does not fit the grading is a problem, never a verdict.
ReplayResult replayTape(const Rubric& rubric, const DeviceEntry& device, const GradeOptions& options,
                        const std::string& tape, std::function<bool()> writing = {});

/// Moves every file under `staged` to the same place under `outDir`, then removes `staged`.
void moveStagedEvidence(const std::string& staged, const std::string& outDir);

/// The replays of one submission's tasks: kept (their runner ended well) or discarded (it did not:
/// what they wrote aside is not evidence). Thread-safe.
class Replays {
 public:
  /// A replay whose verdicts fill the task's place `slot`; `staged`: where it wrote its evidence
  /// ("" for the report folder itself).
  void keep(size_t slot, const TaskRubric* task, std::shared_future<ReplayResult> result, std::string staged);
  void discard(std::shared_future<ReplayResult> result);
  /// Each kept replay's verdicts into its task's place, in the rubric's order; a tape that cannot be
  /// graded makes the task an error. Returns the graded reports, the first one's header heading the
  /// merged report. Then waits for the discarded ones.
  std::vector<GradeReport> judgeInto(std::vector<TaskReport>* tasks, std::vector<TaskRun>* runs,
                                     const KernelSources& sources, const std::string& outDir);

 private:
  struct Pending {
    size_t slot = 0;
    const TaskRubric* task = nullptr;
    std::shared_future<ReplayResult> result;
    std::chrono::steady_clock::time_point runnerEnded;  ///< what the replay took after it is the keeper's tail
    std::string staged;
  };
  std::mutex mutex_;
  std::vector<Pending> kept_;
  std::vector<std::shared_future<ReplayResult>> discarded_;
};

}  // namespace clgrade
