#include "keeper/replay.h"

#include <algorithm>
#include <filesystem>
#include <memory>

#include "protocol/tape.h"

namespace fs = std::filesystem;

namespace clgrade {

ReplayResult replayTape(const Rubric& rubric, const DeviceEntry& device, const GradeOptions& options,
                        const std::string& path, std::function<bool()> writing) {
  ReplayResult r;
  const std::shared_ptr<Tape> tape = Tape::player(path, &r.problem, std::move(writing));
  if (!tape) return r;
  try {
    r.graded = gradeSubmission(Runtime(device, tape), rubric, options);
  } catch (const std::exception& e) {
    r.problem = e.what();
    return r;
  }
  if (!tape->finished())
    r.problem = "the runner's record does not fit the grading (" + tape->broken() + ")";
  else if (r.graded.tasks.size() != 1)
    r.problem = "the replay graded no task";
  return r;
}

void moveStagedEvidence(const std::string& staged, const std::string& outDir) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(staged, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const fs::path to = fs::path(outDir) / fs::relative(it->path(), staged, ec);
    fs::create_directories(to.parent_path(), ec);
    fs::rename(it->path(), to, ec);
  }
  fs::remove_all(staged, ec);
}

void Replays::keep(size_t slot, const TaskRubric* task, std::shared_future<ReplayResult> result, std::string staged) {
  const std::lock_guard<std::mutex> hold(mutex_);
  kept_.push_back(Pending{slot, task, std::move(result), std::chrono::steady_clock::now(), std::move(staged)});
}

void Replays::discard(std::shared_future<ReplayResult> result) {
  const std::lock_guard<std::mutex> hold(mutex_);
  discarded_.push_back(std::move(result));
}

std::vector<GradeReport> Replays::judgeInto(std::vector<TaskReport>* tasks, std::vector<TaskRun>* runs,
                                            const KernelSources& sources, const std::string& outDir) {
  const std::lock_guard<std::mutex> hold(mutex_);
  std::sort(kept_.begin(), kept_.end(), [](const Pending& a, const Pending& b) { return a.slot < b.slot; });
  std::vector<GradeReport> judgedReports;
  std::error_code ec;
  for (Pending& pending : kept_) {
    ReplayResult r = pending.result.get();
    TaskReport& slot = (*tasks)[pending.slot];
    TaskRun& run = (*runs)[pending.slot];
    TaskReport judged;
    slot.process.replaySeconds = std::max(0.0, std::chrono::duration<double>(r.ended - pending.runnerEnded).count());
    if (!pending.staged.empty()) {
      if (r.problem.empty())
        moveStagedEvidence(pending.staged, outDir);
      else
        fs::remove_all(pending.staged, ec);
    }
    if (r.problem.empty()) {
      judged = std::move(r.graded.tasks.front());
      judgedReports.push_back(std::move(r.graded));
    } else {
      run.ok = false;
      run.outcome = "no record";
      run.message = "the grading process finished, but what it handed back cannot be graded: " + r.problem;
      judged = unfinishedTask(*pending.task, sources, Status::Error, run.message);
      slot.process.outcome = run.outcome;
    }
    judged.process = slot.process;
    judged.rerun = slot.rerun;
    slot = std::move(judged);
  }
  for (const std::shared_future<ReplayResult>& f : discarded_) f.wait();
  return judgedReports;
}

}  // namespace clgrade
