#include "keeper/submission_keeper.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>

#include "grading/grader.h"
#include "grading/hardware.h"
#include "grading/performance.h"
#include "intake/source_policy.h"
#include "keeper/hardware_session.h"
#include "keeper/sandbox_probe.h"
#include "keeper/task_keeper.h"
#include "keeper/trusted_cache.h"
#include "model/device_info.h"
#include "sandbox/sandbox.h"
#include "tasks/task.h"
#include "util/files.h"
#include "util/side_by_side.h"
#include "util/trace.h"
#include "util/utc_time.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

/// The batch's trusted figures before the clock starts: waiting while another job's grade has them
/// timed is not this submission's time.
ServedFigures askFigures(const KeeperSettings& s, const std::string& kernelsProblem) {
  if (kernelsProblem.empty() && s.trustedTimings && (!s.sandbox || sandboxSupport().available)) {
    const trace::Span span("the batch's trusted figures", "wait");
    return s.trustedTimings();
  }
  return {};
}

/// At the latest when a grade ends (an exception included), the counters session that a process of
/// several tasks was to run is told it did not: its first end counts, so this is a no-op after one,
/// and without it the session's thread would wait for ever.
struct SessionEndsAtTheLatest {
  const std::shared_ptr<SessionLaunch>& session;
  ~SessionEndsAtTheLatest() {
    if (session) session->runsAlone();
  }
};

KeeperSettings applied(KeeperSettings s) {
  if (!s.memoryLimitBytes) s.memoryLimitBytes = defaultTaskMemoryBytes(runnersAtOnce(s.taskJobs));
  return s;
}

}  // namespace

SubmissionKeeper::SubmissionKeeper(const Rubric& rubric, const DeviceEntry& device, std::string kernelsDir,
                                   std::string outDir, const KeeperSettings& settings,
                                   const std::string& kernelsProblem)
    : rubric_(rubric),
      device_(device),
      kernelsDir_(std::move(kernelsDir)),
      outDir_(std::move(outDir)),
      settings_(applied(settings)),
      kernelsProblem_(kernelsProblem),
      refused_(kernelsProblem),
      served_(askFigures(settings, kernelsProblem)),
      batchFigures_(served_.figures),
      start_(std::chrono::steady_clock::now()),
      startedAt_(nowUtc()),
      sources_(kernelsDir_),
      folders_(outDir_, settings.sandbox) {
  if (refused_.empty() && settings_.sandbox && !sandboxSupport().available)
    refused_ =
        "not graded: student code runs only inside a sandbox, and none can be made here: " + sandboxSupport().reason +
        ". An instructor who accepts the risk can pass --no-sandbox";
  if (settings_.taskJobs > 1 && settings_.timingLock.empty() && refused_.empty())
    settings_.timingLock = folders_.ownTimingLock();  // the tasks' timings take turns
}

SubmissionResult SubmissionKeeper::grade(const std::vector<std::string>& onlyTasks, RunnerLauncher& launcher,
                                         const TapeJudge& judge) {
  std::vector<const TaskRubric*> selected;
  for (const TaskRubric& tr : rubric_.tasks)
    if (onlyTasks.empty() || std::find(onlyTasks.begin(), onlyTasks.end(), tr.id) != onlyTasks.end())
      selected.push_back(&tr);
  // Each task has its place from the start: the runners may finish in any order.
  SubmissionResult result;
  std::vector<TaskReport> tasks(selected.size());
  result.runs.resize(selected.size());
  // Nothing is graded where the tasks' sandbox cannot see the device or reach what runners need.
  if (refused_.empty() && !settings_.sandboxProbed && !selected.empty()) {
    machineFault_ = probeRunnerSandbox(rubric_, device_.info, settings_, folders_, launcher);
    refused_ = machineFault_;
  }
  const std::vector<std::string> timed = timedTasks(selected);
  if (refused_.empty()) reuseKeptFigures(timed);
  InputCache inputs(settings_.hiddenSeed);  // made once for the replays of every task of this submission
  inputs.hashAhead();
  inputs.useStore(settings_.store);
  inputs.useBatchShare(settings_.batchShare);
  SubmissionContext c;
  // After the context and inputs its replays read: should anything below throw, the replays are
  // waited for (their futures' end) before those go.
  Replays replays;
  c.rubric = &rubric_;
  c.kernelsDir = kernelsDir_;
  c.outDir = outDir_;
  c.sources = &sources_;
  c.settings = settings_;
  c.deviceIdentity = deviceIdentity(device_.info);
  c.folders = &folders_;
  c.launcher = &launcher;
  c.judge = judge;
  c.replays = &replays;
  c.inputs = &inputs;
  // The batch's trusted figures as of this grade's start: the runners get them as text, the replays
  // read the same text (both must skip the same timings).
  if (refused_.empty() && batchFigures_) {
    auto read = std::make_shared<TrustedTimings>();
    c.trustedText = trustedTimingsJson(*batchFigures_);
    if (readTrustedTimings(c.trustedText, read.get(), nullptr))
      c.trusted = read;
    else
      c.trustedText.clear();
  }
  // The trusted kernels' figures the batch did not bring, timed by a process of the keeper's; the
  // replays wait.
  std::shared_future<TrustedChildResult> besideFigures;
  if (refused_.empty()) besideFigures = timeTrustedBeside(selected, launcher);
  // Spec 5c: on a GPU they are timed before this grade's runners and counters session start, not
  // beside them: a kernel that kept the GPU busy would slow the reference it is scored against. Only
  // a grade without figures kept from an earlier one waits (about 3 s on an H200); on a CPU device,
  // where speed is never graded, they still overlap. The wait is bounded: a trusted process that
  // hangs must not take the runners' time (a --time-limit grade's above all); past the bound they
  // start beside it, as they did before.
  if (besideFigures.valid() && isHardwareGpu(device_.info)) {
    std::chrono::steady_clock::duration bound = std::chrono::seconds(kQuietTrustedWaitSeconds);
    if (settings_.deadline) bound = std::min(bound, (*settings_.deadline - std::chrono::steady_clock::now()) / 4);
    besideFigures.wait_for(bound);
  }
  if (besideFigures.valid())
    c.trustedBeside = [besideFigures](std::string* problem) {
      const TrustedChildResult& r = besideFigures.get();
      if (!r.timings) *problem = r.problem;
      return std::shared_ptr<const TrustedTimings>(r.timings);
    };
  // Every task's bank-conflict counters from one session beside the runners, who start none.
  std::shared_ptr<SessionLaunch> session;
  const SessionEndsAtTheLatest sessionEnds{session};
  if (refused_.empty()) c.hardware = startHardwareSession(selected, &session);
  std::vector<std::unique_ptr<TaskKeeper>> keepers;
  if (refused_.empty())
    for (size_t slot = 0; slot < selected.size(); ++slot)
      keepers.push_back(std::make_unique<TaskKeeper>(c, slot, *selected[slot]));
  // The tasks' first runners in one process where the settings say so: each task waits for its part.
  Together together = startTogether(keepers, launcher, &tasks, &result.runs, session);
  forEachSideBySide(selected.size(), settings_.taskJobs, [&](size_t slot) {
    if (settings_.onTask && !together.announced[slot]) settings_.onTask(selected[slot]->id, nullptr);
    if (!refused_.empty()) {
      refuse(*selected[slot], &tasks[slot], &result.runs[slot]);
    } else {
      const PartEnd part = together.parts[slot].valid() ? together.parts[slot].get() : PartEnd{};
      keepers[slot]->keep(&tasks[slot], &result.runs[slot], part.ended ? &*part.ended : nullptr, part.alone);
    }
    if (settings_.onTask) settings_.onTask(selected[slot]->id, &result.runs[slot]);
  });
  if (together.runner.valid()) together.runner.get();
  if (c.hardware.valid()) c.hardware.wait();  // it writes into the scratch and report folders
  if (besideFigures.valid()) {
    besideFigures.wait();  // ... and this one into the control folder
    keepFigures(besideFigures.get(), timed);
  }
  std::vector<GradeReport> judged = replays.judgeInto(&tasks, &result.runs, sources_, outDir_);
  folders_.removeAll();
  std::error_code ec;
  // Evidence folders of tasks that left nothing.
  for (const TaskRun& r : result.runs) fs::remove(fs::path(outDir_) / "evidence" / r.task, ec);  // only when empty
  fs::remove(fs::path(outDir_) / "evidence", ec);
  result.report = mergedReport(std::move(judged), std::move(tasks));
  if (besideFigures.valid()) markUntimedReference(besideFigures.get(), &result.report);
  if (c.hardware.valid()) markUncountedTechnique(rubric_, c.hardware.get(), &result.report);
  return result;
}

SubmissionKeeper::Together SubmissionKeeper::startTogether(const std::vector<std::unique_ptr<TaskKeeper>>& keepers,
                                                           RunnerLauncher& launcher, std::vector<TaskReport>* places,
                                                           std::vector<TaskRun>* runs,
                                                           std::shared_ptr<SessionLaunch> session) {
  Together t;
  t.announced.assign(runs->size(), false);
  t.parts.resize(runs->size());
  // Where no process of several tasks runs, the counters session runs in its own.
  if (!settings_.tasksTogether || keepers.size() < 2) {
    if (session) session->runsAlone();
    return t;
  }
  std::vector<size_t> slots;
  std::vector<RunnerLaunch> launches;
  for (size_t slot = 0; slot < keepers.size(); ++slot)
    if (keepers[slot]->prepare(&(*places)[slot], &(*runs)[slot])) {  // a file the policy refuses starts nothing
      slots.push_back(slot);
      launches.push_back(keepers[slot]->firstLaunch());
    }
  if (launches.size() < 2) {
    if (session) session->runsAlone();
    return t;
  }
  auto promises = std::make_shared<std::vector<std::promise<PartEnd>>>(launches.size());
  for (size_t i = 0; i < slots.size(); ++i) {
    t.parts[slots[i]] = (*promises)[i].get_future().share();
    if (settings_.onTask) settings_.onTask(launches[i].request.task, nullptr);
    t.announced[slots[i]] = true;
  }
  const std::string scratch = folders_.scratchFor("tasks"), requests = folders_.path() + "/tasks";
  t.runner = std::async(std::launch::async, [&launcher, launches, scratch, requests, promises, session] {
    std::vector<bool> said(launches.size(), false);
    try {
      launcher.runTogether(
          launches, scratch, requests,
          [&](size_t i, PartEnd end) {
            if (i >= said.size() || said[i]) return;
            said[i] = true;
            (*promises)[i].set_value(std::move(end));
          },
          session.get());
    } catch (...) {  // whatever went wrong, no task waits for ever: it runs alone
    }
    for (size_t i = 0; i < said.size(); ++i)
      if (!said[i]) (*promises)[i].set_value(PartEnd{});
    if (session) session->runsAlone();  // the session too, unless it has ended there
  });
  return t;
}

void SubmissionKeeper::markUntimedReference(const TrustedChildResult& timed, GradeReport* report) const {
  // On a CPU device speed is never graded: nothing is lost there.
  if (timed.timings || device_.info.type != "gpu") return;
  for (TaskReport& t : report->tasks) {
    const auto tr = std::find_if(rubric_.tasks.begin(), rubric_.tasks.end(),
                                 [&t](const TaskRubric& r) { return r.id == t.id; });
    if (tr == rubric_.tasks.end() || !t.machineFault.empty()) continue;
    for (const Criterion& c : tr->criteria) {
      if (c.kernels.empty()) continue;  // not a speed criterion
      for (const CriterionResult& r : t.criteria)
        if (r.id == c.id && r.status == Status::NotMeasured && !r.overridden)
          t.machineFault = "its speed could not be judged: the reference kernels, timed by clgrade outside the "
                           "sandbox, could not be timed on this machine (" + timed.problem + ")";
    }
  }
}

std::vector<std::string> SubmissionKeeper::timedTasks(const std::vector<const TaskRubric*>& selected) const {
  std::vector<std::string> tasks;
  for (const TaskRubric* tr : selected) {
    const CaseSpec* timed = tr->findCase(tr->performance.caseId);
    if (tr->performance.present && findTask(tr->id) && !(settings_.visibleOnly && timed && !timed->visible))
      tasks.push_back(tr->id);
  }
  return tasks;
}

void SubmissionKeeper::reuseKeptFigures(const std::vector<std::string>& tasks) {
  if (batchFigures_ || !settings_.reuseTrustedFigures || tasks.empty()) return;
  const std::string key = trustedFiguresKey(rubric_, tasks, device_.info, settings_.hiddenSeed);
  std::shared_ptr<const TrustedTimings> kept = keptTrustedFigures(key);
  bool all = kept != nullptr;
  for (const std::string& t : tasks) all = all && kept->byTask.count(t);
  if (all)
    batchFigures_ = kept;
  else
    reuseKey_ = key;
}

void SubmissionKeeper::keepFigures(const TrustedChildResult& timed, const std::vector<std::string>& tasks) const {
  if (reuseKey_.empty() || !timed.timings) return;
  for (const std::string& t : tasks) {
    const auto it = timed.timings->byTask.find(t);
    // Figures that could not serve a batch (a spread above the limit) serve no later grade either.
    if (it == timed.timings->byTask.end() || !unfitForBatch(device_.info, it->second).empty()) return;
  }
  keepTrustedFigures(reuseKey_, *timed.timings);
}

std::shared_future<TrustedChildResult> SubmissionKeeper::timeTrustedBeside(
    const std::vector<const TaskRubric*>& selected, RunnerLauncher& launcher) {
  TrustedTimingRequest r;
  r.visibleGpus = settings_.visibleGpus;
  for (const std::string& id : timedTasks(selected)) {
    const Task* task = findTask(id);
    const KernelSource& file = sources_.file(task->info().file);
    // Only what a runner will time (a file that can be built), unless the figures are to be kept for
    // the grades after this one.
    if (reuseKey_.empty() && (!file.exists || !file.problem.empty())) continue;
    if (batchFigures_ && batchFigures_->byTask.count(id)) continue;
    r.tasks.push_back(id);
  }
  if (r.tasks.empty()) return {};
  const std::string dir = folders_.path() + "/trusted";
  std::string err;
  r.rubric = dir + "/rubric.xml";
  r.out = dir + "/figures.json";
  if (!makeDirectories(dir, &err) || !writeFileAtomically(r.rubric, rubricForTasks(rubric_, r.tasks), &err, false)) {
    std::promise<TrustedChildResult> failed;
    failed.set_value({nullptr, "timing the reference kernels: " + err});
    return failed.get_future().share();
  }
  r.device = settings_.device;
  r.timingLock = settings_.timingLock.empty() ? "" : absolutePath(settings_.timingLock);
  r.storeRoot = settings_.store ? settings_.store.root : "none";
  r.seed = settings_.hiddenSeed;
  r.besideProfiler = true;  // this grade's figures, timed as its runners' are
  return std::async(std::launch::async, [&launcher, r, log = dir + "/time-trusted.log"] {
           const trace::Span span("time trusted kernels", "trusted");
           return launcher.timeTrusted(r, log);
         })
      .share();
}

void SubmissionKeeper::refuse(const TaskRubric& task, TaskReport* place, TaskRun* run) const {
  run->task = task.id;
  run->outcome = machineFault_.empty() ? "refused" : "not started";
  run->message = refused_;
  *place = unfinishedTask(task, sources_, kernelsProblem_.empty() ? Status::Error : Status::Failed, refused_);
  place->machineFault = machineFault_;
  place->process.recorded = true;
  place->process.outcome = run->outcome;
}

std::shared_future<std::map<std::string, HardwareRun>> SubmissionKeeper::startHardwareSession(
    const std::vector<const TaskRubric*>& selected, std::shared_ptr<SessionLaunch>* together) {
  std::string why;
  SessionRequest r;
  r.ncu = ncuFor(device_.info, &why);
  r.counters = sessionCounters();
  // Nothing to count with: the runners do as they always did. The PTX counters need an NVIDIA GPU
  // (and its CUDA driver) but no ncu; ncu and CUPTI need ncu (CUPTI falls back on it).
  if (!isNvidiaGpu(device_.info) || (r.ncu.empty() && r.counters != "ptx")) return {};
  // Only files that a runner will run: a missing or refused one has nothing to profile. Only the
  // counters a rule reads (issue 29: the profiled launches are most of a session, which one GPU's
  // submissions take in turns): a task whose rules read none is not profiled, one whose only
  // hardware rule is on atomics is replayed for them alone.
  r.profiled.emplace();
  for (const TaskRubric* tr : selected)
    if (const Task* task = findTask(tr->id);
        tr->analysis.present && task && sources_.file(task->info().file).problem.empty()) {
      std::vector<std::string> read;
      const bool profiled = countersReadBy(*task, *tr, &read);
      const std::vector<std::string> atomics = atomicsKernelsToCount(*task, *tr);
      if (!profiled && atomics.empty()) continue;
      r.tasks.push_back(tr->id);
      if (profiled) (*r.profiled)[tr->id] = read;
      if (!atomics.empty()) r.atomics[tr->id] = atomics;
    }
  if (r.tasks.empty()) return {};
  // What it profiles, as the keeper read it: its tasks' files (includes expanded) and their part of
  // the rubric, written where its sandbox sees them read-only; never the kernels folder nor the rubric.
  const std::string inputs = folders_.scratchFor("hardware-input");
  std::error_code ec;
  fs::remove_all(inputs, ec);
  std::string err;
  bool written = makeDirectories(inputs + "/kernels", &err) &&
                 writeFileAtomically(inputs + "/rubric.xml", rubricForTasks(rubric_, r.tasks), &err, false);
  for (const std::string& id : r.tasks) {
    const std::string& file = findTask(id)->info().file;
    written = written && writeFileAtomically(inputs + "/kernels/" + file, sources_.file(file).text, &err, false);
  }
  if (!written) {
    std::cerr << "clgrade: no hardware counters for this submission: its profiler session's inputs cannot be "
                 "written: "
              << err << "\n";
    return {};
  }
  r.clgrade = absolutePath(settings_.clgrade);
  r.kernelsDir = inputs + "/kernels";
  r.rubricPath = inputs + "/rubric.xml";
  r.workDir = folders_.scratchFor("hardware");
  r.logDir = folders_.path();
  r.reportDir = outDir_;
  r.timeoutSeconds = settings_.taskTimeoutSeconds;
  if (!settings_.visibleOnly) r.seeds = hiddenSeedsOf(settings_.hiddenSeed);  // the drawn cases too
  ProfiledRunner own = profiledRunner(place(), r.workDir, inputs);
  // With the tasks in one process, that process counts too, after the tasks' parts: one GPU process
  // a submission. Not a profiler's session (ncu, CUPTI), which takes turns on the GPU in its own.
  if (settings_.tasksTogether && r.counters == "ptx") {
    auto served =
        std::make_shared<ServedSession>(sessionArgv(r, r.tasks), r.workDir, folders_.path() + "/session.output");
    auto launch = std::make_shared<SessionLaunch>();
    launch->argv = served->argv();
    launch->workDir = r.workDir;
    launch->inputs = inputs;
    launch->outputPath = served->outputPath();
    launch->timeoutSeconds = r.timeoutSeconds;
    launch->ended = [served](std::optional<ProcessResult> p, const std::string& files) {
      served->end(std::move(p), files);
    };
    *together = launch;
    own = servedFirst(served, std::move(own));
  }
  return clgrade::startHardwareSession(r, std::move(own), settings_.timingLock);
}

GradeReport SubmissionKeeper::mergedReport(std::vector<GradeReport> judged, std::vector<TaskReport> tasks) const {
  // The top level of the first task the keeper judged (its device as the runner described it,
  // settings as applied), else one made here; the inputs of every replay.
  GradeReport report =
      judged.empty() ? reportHeader(rubric_, device_.info, kernelsDir_, settings_.visibleOnly) : judged.front();
  report.tasks = std::move(tasks);
  report.sumPoints();
  report.inputs.clear();
  std::set<std::string> seen;
  for (const GradeReport& g : judged)
    for (const InputRecord& in : g.inputs)
      if (seen.insert(in.name + "\n" + in.sha256).second) report.inputs.push_back(in);
  sortInputsByName(&report.inputs);  // the tasks' replays end in an order that changes
  report.hiddenSeed.reset();
  if (!settings_.visibleOnly) report.hiddenSeed = settings_.hiddenSeed;
  report.startedAt = startedAt_;
  report.sandbox = sandboxDescription(settings_.sandbox);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return report;
}

}  // namespace clgrade
