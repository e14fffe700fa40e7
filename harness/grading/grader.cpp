#include "grading/grader.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <future>
#include <system_error>
#include <map>
#include <set>

#include "grading/analysis.h"
#include "grading/hardware.h"
#include "grading/performance.h"
#include "grading/phase_clock.h"
#include "intake/kernel_sources.h"
#include "intake/source_policy.h"
#include "intake/source_quotes.h"
#include "protocol/progress.h"
#include "rubric/scoring.h"
#include "tasks/task.h"
#include "util/files.h"
#include "util/install_layout.h"
#include "util/sha256.h"
#include "util/utc_time.h"

#ifndef CLGRADE_VERSION
#define CLGRADE_VERSION "dev"
#endif

namespace clgrade {

std::string clgradeVersion() { return CLGRADE_VERSION; }

namespace {

/// The checks that launch a stopped kernel (TaskInfo::kernelChecks), each with why it is not run.
std::map<std::string, const StoppedKernel*> skippedChecks(const TaskInfo& info,
                                                          const std::vector<StoppedKernel>& stopped) {
  std::map<std::string, const StoppedKernel*> skipped;
  for (const StoppedKernel& k : stopped) {
    const auto it = info.kernelChecks.find(k.kernel);
    if (it == info.kernelChecks.end()) continue;
    for (const std::string& id : it->second) skipped.emplace(id, &k);
  }
  return skipped;
}

/// The outcome a skipped check keeps: what stopped the first process, in the case it stopped in.
CaseOutcome stoppedOutcome(const StoppedKernel& k, const TaskRubric& taskRubric) {
  CaseOutcome o;
  o.caseId = k.caseId;
  for (const CaseSpec& spec : taskRubric.cases)
    if (spec.id == k.caseId) o.visible = spec.visible;
  o.status = k.status;
  o.message = k.message;
  o.details.push_back("not run again: the task was graded once more without launching " + k.kernel +
                      ", so that its other checks keep their results");
  return o;
}

/// The simulator's checks: run on the analysis case, or not measured with the reason when a
/// stopped kernel must not be launched again (`notRun`).
void simulatorPhase(const Runtime& rt, const Task& task, const TaskRubric& taskRubric, const Rubric& rubric,
                    const AnalysisFolders& folders, const TaskContext& ctx, const std::string& notRun,
                    const std::map<std::string, const StoppedKernel*>& skipped, PhaseClock& clock,
                    std::map<std::string, CheckResult>* checksOut, TaskReport* report) {
  const TaskInfo& info = task.info();
  std::map<std::string, CheckResult>& checks = *checksOut;
  if (notRun.empty()) {
    progress::note(progress::Step::Simulator, "");
    clock.timeHere("simulator",
                   [&] { judgeWithSimulator(rt, task, taskRubric, rubric, folders, &checks, &report->counters); });
    // A file that never compiled cannot run in the simulator either: say that, not "never ran".
    const std::vector<BuildRecord>& builds = ctx.builds();
    if (!builds.empty() && std::none_of(builds.begin(), builds.end(), [](const BuildRecord& b) { return b.ok; }))
      for (const CheckInfo& ci : info.checks)
        if (ci.simulated)
          for (CaseOutcome& o : checks[ci.id].cases)
            if (o.status == Status::Failed || o.status == Status::Error) {
              o.details.insert(o.details.begin(), o.message);
              o.status = Status::Failed;
              o.message = "not judged: " + info.file + " does not compile (" + builds.front().error +
                          "), so its kernels cannot run in the simulator either; see the build log";
            }
  } else {
    for (const CheckInfo& ci : info.checks)
      if (ci.simulated && !skipped.count(ci.id)) {
        CaseOutcome o;
        o.caseId = "analysis";
        o.status = Status::NotMeasured;
        o.message = notRun + ", so the analysis case was not run";
        checks[ci.id].cases.push_back(o);
      }
  }
}

/// The swept checks and the performance figures when the performance phase is left out: stopped
/// in an earlier runner (its status and reason), or a stopped kernel that must not run again.
void performanceLeftOut(const TaskInfo& info, const TaskRubric& taskRubric, const StopInfo& stopped,
                        const std::string& notRun, std::map<std::string, CheckResult>* checks, TaskReport* report) {
  const bool fromTiming = notRun.empty();
  const std::string why = fromTiming ? stopped.performanceStopped : notRun;
  if (taskRubric.performance.present) report->performance.problem = fromTiming ? "not measured: " + why : why;
  for (const CheckInfo& ci : info.checks) {
    if (!ci.swept) continue;
    CheckResult& c = (*checks)[ci.id];
    c.id = ci.id;
    c.title = ci.title;
    c.status = fromTiming ? stopped.performanceStatus : Status::NotMeasured;
    c.message = !taskRubric.sweep.present                       ? "the rubric has no <sweep> for this task"
                : fromTiming && c.status == Status::NotMeasured ? "not measured: " + why
                                                                : why;
    if (fromTiming && taskRubric.sweep.present) {
      CaseOutcome o;
      o.caseId = taskRubric.sweep.caseId;
      o.status = c.status;
      o.message = c.message;
      o.evidence = stopped.evidence;
      c.cases.push_back(o);
    }
  }
}

/// Each check's result from its cases, in the task's order (or not measured, with why).
void summarizeChecks(const TaskInfo& info, bool anyCase, std::map<std::string, CheckResult>* checks,
                     TaskReport* report) {
  for (const CheckInfo& ci : info.checks) {
    CheckResult& c = (*checks)[ci.id];
    if (ci.swept) {
      // judged by the sweep (or not_measured with its reason)
    } else if (ci.simulated) {
      summarize(&c);
    } else if (!ci.notMeasuredReason.empty()) {
      c.status = Status::NotMeasured;
      c.message = ci.notMeasuredReason;
    } else if (!anyCase) {
      c.status = Status::NotMeasured;
      c.message = "the rubric has no visible case for this task";
    } else {
      summarize(&c);
    }
    report->checks.push_back(c);
  }
}

/// The rubric's criteria scored from the checks and the speed figures; the task's points.
void scoreCriteria(const TaskRubric& taskRubric, TaskReport* report) {
  std::map<std::string, CheckResult> byId;
  for (const CheckResult& c : report->checks) byId[c.id] = c;
  for (const Criterion& criterion : taskRubric.criteria) {
    const SpeedMeasure speed = speedFor(criterion, *report);
    report->criteria.push_back(scoreCriterion(criterion, byId, &speed));
    report->criteria.back().visibility = criterion.visibility.empty() ? taskRubric.visibility : criterion.visibility;
  }
  report->sumPoints();
}

TaskReport gradeTask(const Runtime& rt, const Rubric& rubric, const TaskRubric& taskRubric, const Task& task,
                     const GradeOptions& options, const KernelSources& sources, InputCache& inputs,
                     EvidenceWriter& evidence) {
  const TaskInfo& info = task.info();
  TaskReport report;
  report.id = info.id;
  report.title = info.title;
  report.file = info.file;
  report.max = taskRubric.maxPoints();

  // The source policy: a regular file of the kernels folder, size-limited, its #include files
  // (of the same folder only) expanded here so the compiler never opens a file.
  const KernelSource& loaded = sources.file(info.file);
  const std::string& source = loaded.text;
  report.present = loaded.present;
  if (loaded.present) report.sha256 = sha256Hex(loaded.fileBytes);
  for (size_t i = 0; i < loaded.included.size() && i < loaded.includedSha256.size(); ++i)
    report.includedFiles.emplace_back(loaded.included[i], loaded.includedSha256[i]);
  if (!loaded.problem.empty()) return unfinishedTask(taskRubric, sources, Status::Failed, loaded.problem);

  GradeSettings settings = rubric.settings;
  settings.evidenceCasesPerCheck = options.evidenceCasesPerCheck;
  TaskContext ctx(rt, info, source, evidence, inputs, settings);
  std::map<std::string, CheckResult> checks;
  for (const CheckInfo& ci : info.checks) {
    checks[ci.id].id = ci.id;
    checks[ci.id].title = ci.title;
  }
  const std::map<std::string, const StoppedKernel*> skipped = skippedChecks(info, options.stopped.kernels);
  std::set<std::string> skippedIds;
  for (const auto& [id, why] : skipped) skippedIds.insert(id);
  ctx.skipChecks(skippedIds);
  // The inputs of the task's timed launches (the grade's largest: 4096 x 4096 on a GPU) are read or
  // made on a thread of their own while the cases run: the runner launches on them only after its
  // cases (on an H200 the separable runner's first sweep point waited 0.4 s for its stored input),
  // and the keeper, which follows its runner mostly waiting, judges their outputs only then. On a
  // CPU device they are the cases' own sizes, made once whoever asks first. The future waits for it
  // before the task's report is done.
  std::future<void> preparing;
  try {
    preparing = std::async(std::launch::async,
                           [&] { prepareTimedInputs(rt.device.info, task, taskRubric, options.visibleOnly, inputs); });
  } catch (const std::system_error&) {  // no thread for it: each input is made where it is used
  }
  bool anyCase = false;
  PhaseClock clock(rt);
  clock.time("cases", [&] {
    for (const CaseSpec& spec : taskRubric.cases) {
      if (options.visibleOnly && !spec.visible) continue;
      anyCase = true;
      progress::enterCase(spec.id);
      ctx.runningCase(spec.visible);
      std::map<std::string, CaseOutcome> outcomes;
      task.runCase(ctx, spec, &outcomes);
      for (auto& [id, outcome] : outcomes) checks[id].cases.push_back(outcome);
    }
  });
  for (const auto& [id, why] : skipped) {
    checks[id].cases.push_back(stoppedOutcome(*why, taskRubric));
    checks[id].cases.back().evidence = options.stopped.evidence;
  }
  // What else would launch the stopped kernel again (the analysis case, the timing) is left out.
  std::string notRun;
  if (!skipped.empty())
    notRun = "not measured: " + skipped.begin()->second->kernel + " stopped the first grading process";
  // A replayed record that no longer fits (its runner was stopped mid-way) is thrown away whatever
  // follows (keeper/task_keeper.cpp): the simulator and the timings are not run for it.
  if (rt.replaying() && !rt.tape->broken().empty()) return report;
  AnalysisFolders folders;
  folders.tools = options.toolsDir.empty() ? toolsFolder() : options.toolsDir;
  folders.kernels = options.kernelsDir;
  folders.source = source;
  folders.report = options.outDir;
  if (!options.visibleOnly) folders.hiddenSeeds = inputs.seeds();  // a check runs no hidden case on the device
  simulatorPhase(rt, task, taskRubric, rubric, folders, ctx, notRun, skipped, clock, &checks, &report);
  if (notRun.empty() && options.stopped.performanceStopped.empty()) {
    progress::note(progress::Step::Performance, "");
    judgePerformance(rt, task, taskRubric, rubric, options, source, settings, inputs, evidence, &checks, &report,
                     clock);
  } else {
    performanceLeftOut(info, taskRubric, options.stopped, notRun, &checks, &report);
  }
  // The hardware counters come last: they wait for the GPU's one profiler session (the keeper's),
  // which the sweep and the timings need not do,
  // and a replay gets the session's counts only here (the keeper's future), so it follows its
  // runner's record up to this point while the session still runs.
  if (notRun.empty()) {
    progress::note(progress::Step::Hardware, "");
    clock.time("counters", [&] {
      // Each ncu run takes the profiler lock while it runs (grading/hardware.cpp).
      HardwareRun counted;
      // A task without an analysis case has nothing counted: it does not wait for the session.
      if (options.hardwareElsewhere && options.hardware && taskRubric.analysis.present) counted = options.hardware();
      judgeWithHardware(rt, task, taskRubric, rubric, folders, &checks, &report.counters,
                        options.hardwareElsewhere ? &counted : nullptr);
    });
  }
  summarizeChecks(info, anyCase, &checks, &report);
  report.builds = ctx.builds();
  report.phases = clock.phases();
  report.sourceQuotes = quoteSource(loaded, report);

  scoreCriteria(taskRubric, &report);
  return report;
}

}  // namespace

GradeReport reportHeader(const Rubric& rubric, const DeviceInfo& device, const std::string& kernelsDir,
                         bool visibleOnly) {
  GradeReport report;
  report.version = clgradeVersion();
  report.mode = visibleOnly ? "check" : "grade";
  report.kernelsDir = kernelsDir;
  report.startedAt = nowUtc();
  report.rubricId = rubric.id;
  report.rubricTitle = rubric.title;
  report.rubricPath = rubric.path;
  report.rubricSha256 = rubric.sha256;
  report.settings = rubric.settings;
  report.device = device;
  return report;
}

TaskReport unfinishedTask(const TaskRubric& taskRubric, const KernelSources& sources, Status status,
                          const std::string& message, const std::string& caseId,
                          const std::vector<Evidence>& evidence) {
  const Task* task = findTask(taskRubric.id);
  TaskReport report;
  report.id = taskRubric.id;
  report.max = taskRubric.maxPoints();
  report.problem = message;
  if (task) {
    report.title = task->info().title;
    report.file = task->info().file;
    const KernelSource& source = sources.file(report.file);
    report.present = source.present;
    if (source.present) report.sha256 = sha256Hex(source.fileBytes);
    for (size_t i = 0; i < source.included.size() && i < source.includedSha256.size(); ++i)
      report.includedFiles.emplace_back(source.included[i], source.includedSha256[i]);
    for (const CheckInfo& info : task->info().checks) {
      // A check judged from what the others saw (the stray writes) has nothing to judge: no deduction.
      const Status own = info.fromOtherChecks ? Status::NotMeasured : status;
      const std::string why = info.fromOtherChecks ? "no kernel ran, so nothing was audited: " + message : message;
      CheckResult check;
      check.id = info.id;
      check.title = info.title;
      check.status = own;
      check.message = why;
      CaseOutcome o;
      o.caseId = caseId.empty() ? "(task)" : caseId;
      // A task stopped in a hidden case: the case stays hidden (report/audience.h redacts it).
      for (const CaseSpec& spec : taskRubric.cases)
        if (spec.id == caseId) o.visible = spec.visible;
      o.status = own;
      o.message = why;
      o.evidence = evidence;
      check.cases.push_back(o);
      report.checks.push_back(check);
    }
  }
  std::map<std::string, CheckResult> byId;
  for (const CheckResult& c : report.checks) byId[c.id] = c;
  for (const Criterion& criterion : taskRubric.criteria) {
    report.criteria.push_back(scoreCriterion(criterion, byId));
    report.criteria.back().visibility = criterion.visibility.empty() ? taskRubric.visibility : criterion.visibility;
  }
  report.sumPoints();
  return report;
}

GradeReport gradeSubmission(const Runtime& runtime, const Rubric& rubric, const GradeOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  Runtime rt = runtime;  // shares the device's objects; its timed launches take turns on the lock
  if (!rt.replaying()) rt.timingLock = options.timingLock;
  GradeReport report = reportHeader(rubric, rt.device.info, options.kernelsDir, options.visibleOnly);
  makeDirectories(options.outDir, nullptr);
  EvidencePolicy policy;
  policy.pfm = options.pfmEvidence;
  policy.imageBudgetBytes = rubric.tasks.empty() ? 0 : options.imageBudgetBytes / rubric.tasks.size();
  std::optional<InputCache> own;  // a runner's from the keeper's derived seeds, else from the run's seed
  if (options.hiddenSeeds)
    own.emplace(*options.hiddenSeeds);
  else
    own.emplace(options.hiddenSeed);
  own->useStore(options.store);
  InputCache& inputs = options.inputs ? *options.inputs : *own;
  const KernelSources folder(options.kernelsDir);  // read here when the grade was not given its files
  const KernelSources& sources = options.sources ? *options.sources : folder;
  // The seed is the instructor's record of the hidden inputs; a check runs none.
  if (!options.visibleOnly) report.hiddenSeed = inputs.runSeed();
  for (const TaskRubric& taskRubric : rubric.tasks) {
    if (!options.onlyTasks.empty() &&
        std::find(options.onlyTasks.begin(), options.onlyTasks.end(), taskRubric.id) == options.onlyTasks.end())
      continue;
    const Task* task = findTask(taskRubric.id);  // the rubric was validated: it exists
    if (options.onTaskStart) options.onTaskStart(taskRubric.id);
    progress::note(progress::Step::Task, taskRubric.id);
    EvidenceWriter evidence =
        options.discardEvidence ? EvidenceWriter::discarding() : EvidenceWriter(options.outDir, policy);
    report.tasks.push_back(gradeTask(rt, rubric, taskRubric, *task, options, sources, inputs, evidence));
  }
  report.sumPoints();
  // A runner's report is thrown away (the keeper's replay writes the real one): no hashes there.
  if (!rt.recording()) {
    report.inputs = inputs.records();
    sortInputsByName(&report.inputs);
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace clgrade
