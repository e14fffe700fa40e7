#include "grading/grader.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <regex>

#include "grading/analysis.h"
#include "grading/hardware.h"
#include "tasks/task.h"
#include "util/files.h"
#include "util/sha256.h"

#ifndef CLGRADE_VERSION
#define CLGRADE_VERSION "dev"
#endif

namespace clgrade {

std::string clgradeVersion() { return CLGRADE_VERSION; }

std::string refuseSource(const std::string& source) {
  // A directive may hide behind whitespace and comments between '#' and the name.
  static const std::regex include(R"((^|\n)[ \t]*#[ \t]*(/\*[^\n]*?\*/[ \t]*)*include\b)");
  if (std::regex_search(source, include))
    return "the file uses #include; submit self-contained kernels (the course compiles each file alone, "
           "and an include could read files of the grading machine)";
  if (source.find('\0') != std::string::npos) return "the file contains NUL bytes; it is not OpenCL C source";
  return "";
}

namespace {

std::string nowUtc() {
  const std::time_t t = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buffer;
}

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

/// True when a criterion of the task needs check `id`.
bool needed(const TaskRubric& t, const std::string& id) {
  for (const Criterion& c : t.criteria)
    for (const std::string& check : c.checks)
      if (check == id) return true;
  return false;
}

/// One outcome of the simulator run, named after the analysis case.
CaseOutcome analysisOutcome(const TaskRubric& t, const AnalysisRun& run) {
  CaseOutcome o;
  o.caseId = "analysis (" + t.analysis.caseId + " at " + std::to_string(t.analysis.width) + "x" +
             std::to_string(t.analysis.height) + ")";
  o.visible = true;
  if (!run.logPath.empty()) o.evidence.push_back({"simulator log (Oclgrind)", run.logPath});
  return o;
}

/// A data race or out-of-bounds access in a kernel fails (or annotates) the checks it decides.
void applySanitizer(const Task& task, const TaskRubric& t, const Rubric& rubric, const AnalysisRun& run,
                    std::map<std::string, CheckResult>* checks) {
  std::map<std::string, std::vector<const SanitizerFinding*>> byCheck;
  for (const SanitizerFinding& f : run.sanitizer.findings) {
    auto it = task.info().kernelChecks.find(f.kernel);
    if (it == task.info().kernelChecks.end()) continue;
    for (const std::string& check : it->second) byCheck[check].push_back(&f);
  }
  for (const auto& [checkId, findings] : byCheck) {
    CaseOutcome o = analysisOutcome(t, run);
    const bool fail = rubric.settings.sanitizerFindingsFail;
    o.status = fail ? Status::Failed : Status::Passed;
    o.message = findings.front()->explanation();
    if (findings.size() > 1) o.message += " (and " + std::to_string(findings.size() - 1) + " more findings)";
    if (!fail) o.message = "not graded (rubric setting): " + o.message;
    for (const SanitizerFinding* f : findings) {
      o.details.push_back(f->kind + (f->space.empty() ? "" : " (" + f->space + " memory)") + ", " + f->kernel +
                          " line " + std::to_string(f->line) + ": " + f->code +
                          (f->otherLine ? "  /  line " + std::to_string(f->otherLine) + ": " + f->otherCode : "") +
                          " (" + std::to_string(f->count) + " reports)");
    }
    if (run.sanitizer.truncated) o.details.push_back("Oclgrind stopped after its error limit; there may be more");
    (*checks)[checkId].cases.push_back(o);
  }
}

/// Runs the simulator for a task with an <analysis> case: judges the simulated checks a criterion
/// needs and applies the sanitizers' findings to the device checks.
void runSimulator(const Task& task, const TaskRubric& taskRubric, const Rubric& rubric, const GradeOptions& options,
                  std::map<std::string, CheckResult>* checks, std::vector<CounterRow>* rows) {
  std::vector<const CheckInfo*> simulated;
  for (const CheckInfo& ci : task.info().checks)
    if (ci.simulated) simulated.push_back(&ci);
  CaseSpec spec;
  if (!taskRubric.analysisCase(&spec)) {
    for (const CheckInfo* ci : simulated) {
      CaseOutcome o;
      o.caseId = "analysis";
      o.status = Status::NotMeasured;
      o.message = "the rubric has no <analysis> case for this task";
      (*checks)[ci->id].cases = {o};
    }
    return;
  }
  const AnalysisRun run = runAnalysis(options.toolsDir.empty() ? defaultToolsDir() : options.toolsDir,
                                      options.kernelsDir, rubric, taskRubric, options.outDir);
  for (const CheckInfo* ci : simulated) {
    CaseOutcome o = analysisOutcome(taskRubric, run);
    if (!needed(taskRubric, ci->id)) {
      o.status = Status::NotMeasured;
      o.message = "no criterion of the rubric needs it";
    } else if (run.outcome == AnalysisRun::Outcome::Unavailable) {
      o.status = Status::NotMeasured;
      o.message = run.message;
    } else if (run.outcome == AnalysisRun::Outcome::Failed) {
      o.status = Status::Error;
      o.message = run.message;
    } else {
      task.judgeSimulation(ci->id, run.counters, spec, &o);
      o.evidence.push_back({"simulated counters (JSON)", "evidence/" + taskRubric.id + "/counters.json"});
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%.1f", run.seconds);
      o.timings.push_back(std::string("simulator run: ") + seconds + " s");
    }
    (*checks)[ci->id].cases = {o};
  }
  if (run.outcome != AnalysisRun::Outcome::Unavailable) applySanitizer(task, taskRubric, rubric, run, checks);
  if (run.outcome == AnalysisRun::Outcome::Ran) *rows = counterRows(run.counters);
}

/// On an NVIDIA GPU: the hardware counts of the analysis case, next to the simulated ones, and
/// in the simulated checks' details; where the simulator is missing, the tile-load check is judged
/// from them (conflicts per shared store instruction within the rubric's tolerance).
void runHardware(const Runtime& rt, const Task& task, const TaskRubric& taskRubric, const Rubric& rubric,
                 const GradeOptions& options, std::map<std::string, CheckResult>* checks, TaskReport* report) {
  if (!taskRubric.analysis.present) return;
  const HardwareRun run = runHardwareCounters(options.toolsDir.empty() ? defaultToolsDir() : options.toolsDir,
                                              rt.device.info, options.kernelsDir, rubric, taskRubric, options.outDir);
  if (run.outcome == HardwareRun::Outcome::Unavailable && rt.device.info.type != "gpu") return;  // nothing to say
  const std::vector<CounterRow> rows = hardwareRows(run, rt.device.info.name);
  report->counters.insert(report->counters.end(), rows.begin(), rows.end());
  for (const CheckInfo& ci : task.info().checks) {
    if (!ci.simulated) continue;
    for (CaseOutcome& o : (*checks)[ci.id].cases) {
      if (run.outcome != HardwareRun::Outcome::Ran) {
        o.details.push_back("hardware counters: " + run.message);
        continue;
      }
      if (!run.logPath.empty()) o.evidence.push_back({"hardware counters (ncu CSV)", run.logPath});
      for (const HardwareCounts& c : run.counts) {
        char line[256];
        std::snprintf(line, sizeof line,
                      "hardware (ncu, %s): %s: %.0f shared store conflicts in %.0f store instructions, %.0f load "
                      "conflicts in %.0f load instructions",
                      rt.device.info.name.c_str(), c.kernel.c_str(), c.sharedStoreConflicts, c.sharedStoreInstructions,
                      c.sharedLoadConflicts, c.sharedLoadInstructions);
        o.details.push_back(line);
      }
      // No simulator here: shared-memory loads on the GPU show that the discontinuity kernels use
      // local memory.
      if (ci.id == "discontinuity_local_memory" && o.status == Status::NotMeasured) {
        std::string without;
        int seen = 0;
        for (const HardwareCounts& c : run.counts) {
          if (c.kernel != "DiscontinuityHorizontal" && c.kernel != "DiscontinuityVertical") continue;
          ++seen;
          if (c.sharedLoadInstructions == 0) without += (without.empty() ? "" : ", ") + c.kernel;
        }
        if (seen == 2) {
          o.status = without.empty() ? Status::Passed : Status::Failed;
          o.message = without.empty() ? "both discontinuity kernels load from shared (local) memory on the GPU"
                                      : without + " load nothing from shared (local) memory on the GPU";
        }
      }
      // No simulator here: the hardware decides the tile-load check, with a tolerance for its noise.
      if (ci.id == "bank_conflicts" && o.status == Status::NotMeasured) {
        for (const HardwareCounts& c : run.counts) {
          if (c.kernel != "Convolution") continue;
          const double perStore = c.sharedStoreInstructions > 0 ? c.sharedStoreConflicts / c.sharedStoreInstructions : 0;
          char message[200];
          if (c.sharedStoreInstructions == 0) {
            o.status = Status::Failed;
            o.message = "Convolution stores nothing into shared (local) memory on the GPU";
          } else {
            std::snprintf(message, sizeof message, "%.3f bank conflicts per shared store instruction on the GPU (tolerance %.3f)",
                          perStore, rubric.settings.hardwareConflictTolerance);
            o.status = perStore <= rubric.settings.hardwareConflictTolerance ? Status::Passed : Status::Failed;
            o.message = message;
          }
        }
      }
    }
  }
}

TaskReport gradeTask(const Runtime& rt, const Rubric& rubric, const TaskRubric& taskRubric, const Task& task,
                     const GradeOptions& options, InputCache& inputs, EvidenceWriter& evidence) {
  const TaskInfo& info = task.info();
  TaskReport report;
  report.id = info.id;
  report.title = info.title;
  report.file = info.file;
  report.max = taskRubric.maxPoints();

  const std::string path = (std::filesystem::path(options.kernelsDir) / info.file).string();
  std::string source, err;
  if (!readFile(path, &source, &err, size_t(1) << 20)) {
    report.problem = std::filesystem::exists(path) ? err : info.file + " is missing from the kernels folder";
    failEverything(task, taskRubric, report.problem, &report);
  } else {
    report.present = true;
    report.sha256 = sha256Hex(source);
    report.problem = refuseSource(source);
    if (!report.problem.empty()) failEverything(task, taskRubric, report.problem, &report);
  }

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
      std::map<std::string, CaseOutcome> outcomes;
      task.runCase(ctx, spec, &outcomes);
      for (auto& [id, outcome] : outcomes) checks[id].cases.push_back(outcome);
    }
    runSimulator(task, taskRubric, rubric, options, &checks, &report.counters);
    runHardware(rt, task, taskRubric, rubric, options, &checks, &report);
    for (const CheckInfo& ci : info.checks) {
      CheckResult& c = checks[ci.id];
      if (ci.simulated) {
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
    report.criteria.push_back(scoreCriterion(criterion, byId));
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
    const Task* task = findTask(taskRubric.id);  // the rubric was validated: it exists
    if (options.onTaskStart) options.onTaskStart(taskRubric.id);
    report.tasks.push_back(gradeTask(rt, rubric, taskRubric, *task, options, inputs, evidence));
    report.total += report.tasks.back().points;
    report.max += report.tasks.back().max;
  }
  report.inputs = inputs.records();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace clgrade
