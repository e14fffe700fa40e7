#include "grading/grader.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "grading/analysis.h"
#include "grading/hardware.h"
#include "grading/performance.h"
#include "grading/source_policy.h"
#include "tasks/task.h"
#include "util/files.h"
#include "util/progress.h"
#include "util/sha256.h"
#include "util/utc_time.h"

#ifndef CLGRADE_VERSION
#define CLGRADE_VERSION "dev"
#endif

namespace clgrade {

std::string clgradeVersion() { return CLGRADE_VERSION; }

namespace {

/// Every check of the task fails with one message (missing file, refused source).
void failEverything(const Task& task, const TaskRubric& rubric, const std::string& message, TaskReport* report) {
  for (const CheckInfo& info : task.info().checks) {
    CheckResult check;
    check.id = info.id;
    check.title = info.title;
    check.status = Status::Failed;
    check.message = message;
    report->checks.push_back(check);
  }
  (void)rubric;
}

TaskReport gradeTask(const Runtime& rt, const Rubric& rubric, const TaskRubric& taskRubric, const Task& task,
                     const GradeOptions& options, InputCache& inputs, EvidenceWriter& evidence) {
  const TaskInfo& info = task.info();
  TaskReport report;
  report.id = info.id;
  report.title = info.title;
  report.file = info.file;
  report.max = taskRubric.maxPoints();

  // The source policy: a regular file of the kernels folder, size-limited, its #include files
  // (of the same folder only) expanded here so the compiler never opens a file.
  const KernelSource loaded = loadKernelSource(options.kernelsDir, info.file);
  const std::string& source = loaded.text;
  report.present = loaded.present;
  if (loaded.present) report.sha256 = sha256Hex(loaded.fileBytes);
  report.problem = loaded.problem;
  if (!report.problem.empty()) failEverything(task, taskRubric, report.problem, &report);

  if (report.problem.empty()) {
    GradeSettings settings = rubric.settings;
    settings.evidenceCasesPerCheck = options.evidenceCasesPerCheck;
    TaskContext ctx(rt, info, source, evidence, inputs, settings);
    std::map<std::string, CheckResult> checks;
    for (const CheckInfo& ci : info.checks) {
      checks[ci.id].id = ci.id;
      checks[ci.id].title = ci.title;
    }
    bool anyCase = false;
    for (const CaseSpec& spec : taskRubric.cases) {
      if (options.visibleOnly && !spec.visible) continue;
      anyCase = true;
      progress::enterCase(spec.id);
      std::map<std::string, CaseOutcome> outcomes;
      task.runCase(ctx, spec, &outcomes);
      for (auto& [id, outcome] : outcomes) checks[id].cases.push_back(outcome);
    }
    const AnalysisFolders folders{options.toolsDir.empty() ? defaultToolsDir() : options.toolsDir, options.kernelsDir,
                                  options.outDir};
    progress::note(progress::Step::Simulator, "");
    judgeWithSimulator(task, taskRubric, rubric, folders, &checks, &report.counters);
    progress::note(progress::Step::Hardware, "");
    judgeWithHardware(rt, task, taskRubric, rubric, folders, &checks, &report.counters);
    progress::note(progress::Step::Performance, "");
    judgePerformance(rt, task, taskRubric, rubric, options, source, settings, inputs, evidence, &checks, &report);
    for (const CheckInfo& ci : info.checks) {
      CheckResult& c = checks[ci.id];
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
      report.checks.push_back(c);
    }
    report.builds = ctx.builds();
  }

  std::map<std::string, CheckResult> byId;
  for (const CheckResult& c : report.checks) byId[c.id] = c;
  for (const Criterion& criterion : taskRubric.criteria) {
    const SpeedMeasure speed = speedFor(criterion, report);
    report.criteria.push_back(scoreCriterion(criterion, byId, &speed));
    report.points += report.criteria.back().points;
  }
  return report;
}

}  // namespace

GradeReport gradeSubmission(const Runtime& rt, const Rubric& rubric, const GradeOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  GradeReport report;
  report.version = clgradeVersion();
  report.mode = options.visibleOnly ? "check" : "grade";
  report.kernelsDir = options.kernelsDir;
  report.startedAt = nowUtc();
  report.rubricId = rubric.id;
  report.rubricTitle = rubric.title;
  report.rubricPath = rubric.path;
  report.rubricSha256 = rubric.sha256;
  report.settings = rubric.settings;
  report.device = rt.device.info;
  makeDirectories(options.outDir, nullptr);
  EvidenceWriter evidence(options.outDir);
  InputCache inputs;
  for (const TaskRubric& taskRubric : rubric.tasks) {
    if (!options.onlyTasks.empty() &&
        std::find(options.onlyTasks.begin(), options.onlyTasks.end(), taskRubric.id) == options.onlyTasks.end())
      continue;
    const Task* task = findTask(taskRubric.id);  // the rubric was validated: it exists
    if (options.onTaskStart) options.onTaskStart(taskRubric.id);
    progress::note(progress::Step::Task, taskRubric.id);
    report.tasks.push_back(gradeTask(rt, rubric, taskRubric, *task, options, inputs, evidence));
    report.total += report.tasks.back().points;
    report.max += report.tasks.back().max;
  }
  report.inputs = inputs.records();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace clgrade
