#include "keeper/keeper.h"

#include <algorithm>
#include <filesystem>

#include "grading/drawn_analysis.h"
#include "keeper/replay.h"
#include "keeper/runner_process.h"
#include "keeper/submission_keeper.h"
#include "tasks/task.h"
#include "util/subprocess.h"

namespace fs = std::filesystem;

namespace clgrade {

uint64_t defaultTaskMemoryBytes(int jobs) {
  const uint64_t physical = physicalMemoryBytes();
  const uint64_t gib = uint64_t(1) << 30;
  uint64_t share = physical ? physical / 4 * 3 / uint64_t(std::max(1, jobs)) : 8 * gib;
  return std::clamp(share, gib, 8 * gib);
}

double runnerTimeoutSeconds(const KeeperSettings& s) {
  if (!s.deadline) return s.taskTimeoutSeconds;
  const double left =
      std::max(1.0, std::chrono::duration<double>(*s.deadline - std::chrono::steady_clock::now()).count());
  return s.taskTimeoutSeconds > 0 ? std::min(s.taskTimeoutSeconds, left) : left;
}

int runnersAtOnce(int taskJobs) { return std::clamp(taskJobs, 1, static_cast<int>(allTasks().size())); }

uint64_t addressSpaceLimitFor(uint64_t memoryLimitBytes) { return 2 * memoryLimitBytes + (uint64_t(4) << 30); }

SubmissionResult keepSubmission(const Rubric& rubric, const DeviceEntry& device, const std::string& kernelsDir,
                                const std::string& outDir, const std::vector<std::string>& onlyTasks,
                                const KeeperSettings& settings, const std::string& kernelsProblem) {
  // A grade judges the technique at a case drawn from its hidden seed too (spec 5c): every party (the
  // runners, the simulator, the replays) reads the rubric with that case in it.
  const Rubric graded = settings.visibleOnly ? rubric : withDrawnAnalysis(rubric, hiddenSeedsOf(settings.hiddenSeed));
  SubmissionKeeper keeper(graded, device, kernelsDir, outDir, settings, kernelsProblem);
  RunnerProcess runners(keeper.place());
  const TapeJudge judge = [&graded, &device](const GradeOptions& options, const std::string& tape,
                                             std::function<bool()> writing) {
    return replayTape(graded, device, options, tape, std::move(writing));
  };
  return keeper.grade(onlyTasks, runners, judge);
}

}  // namespace clgrade
