#include "grading/performance.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <system_error>

#include "perf/measure.h"
#include "perf/sweep.h"
#include "util/files.h"
#include "util/install_layout.h"
#include "util/trace.h"
#include "util/utc_time.h"

namespace clgrade {
namespace {

std::string pointLine(const SweepPoint& p) {
  std::string line;
  char text[160];
  for (const KernelFigure& f : p.figures) {
    std::snprintf(text, sizeof text, "%s%s %.3f ms (%.1f GB/s)", line.empty() ? "" : ", ", f.kernel.c_str(),
                  f.time.medianMs, f.gbPerS);
    line += text;
  }
  return line;
}

/// The swept check from a sweep: one case per point.
CheckResult sweptCheck(const CheckInfo& info, const SweepReport& sweep, const std::vector<CaseOutcome>& failures,
                       bool visible) {
  CheckResult c;
  c.id = info.id;
  c.title = info.title;
  for (const SweepPoint& p : sweep.points) {
    CaseOutcome o;
    o.caseId = p.caseId;
    o.visible = visible;
    o.status = p.correct ? Status::Passed : Status::Failed;
    o.message = p.correct ? "correct" : p.problem;
    for (const CaseOutcome& f : failures)
      if (f.caseId.rfind(p.caseId + " ", 0) == 0) {
        // The point's message already says its first failure: each is said once.
        if (o.message.find(f.message) == std::string::npos) o.details.push_back(f.caseId + ": " + f.message);
        // "horizontal: <its finding>": the same at every point that fails the same way.
        const size_t at =
            o.message.size() >= f.message.size() ? o.message.size() - f.message.size() : std::string::npos;
        if (o.finding.empty() && !f.finding.empty() && at != std::string::npos &&
            o.message.compare(at, std::string::npos, f.message) == 0)
          o.finding = o.message.substr(0, at) + f.finding;
        o.details.insert(o.details.end(), f.details.begin(), f.details.end());
        o.evidence.insert(o.evidence.end(), f.evidence.begin(), f.evidence.end());
      }
    if (!p.figures.empty()) o.timings.push_back(pointLine(p));
    c.cases.push_back(o);
  }
  summarize(&c);
  if (c.status == Status::Passed)
    c.message = "correct at all " + std::to_string(sweep.points.size()) + " points of the sweep";
  else
    c.message = "wrong at " + std::to_string(sweep.incorrect()) + " of " + std::to_string(sweep.points.size()) +
                " points of the sweep; first: " + c.message;
  return c;
}

void runTaskSweep(const Runtime& rt, const Task& task, const TaskRubric& t, const Rubric& rubric,
                  const GradeOptions& options, const std::string& source, const GradeSettings& settings,
                  InputCache& inputs, EvidenceWriter& evidence, std::map<std::string, CheckResult>* checks,
                  TaskReport* report) {
  const CaseSpec* base = t.findCase(t.sweep.caseId);
  for (const CheckInfo& ci : task.info().checks) {
    if (!ci.swept) continue;
    CheckResult& c = (*checks)[ci.id];
    c.id = ci.id;
    c.title = ci.title;
    if (!t.sweep.present || !base) {
      c.status = Status::NotMeasured;
      c.message = "the rubric has no <sweep> for this task";
      continue;
    }
    if (options.visibleOnly && !base->visible) {
      c.status = Status::NotMeasured;
      c.message = "the sweep's case is hidden: graded later";
      continue;
    }
    // A point is correct when the other checks of the criteria that use the sweep pass there
    // (separable: each pass alone), so a kernel that only works for the default steps is found out.
    std::set<std::string> decide;
    for (const Criterion& criterion : t.criteria)
      if (std::find(criterion.checks.begin(), criterion.checks.end(), ci.id) != criterion.checks.end())
        for (const std::string& other : criterion.checks)
          if (other != ci.id) decide.insert(other);
    SweepRequest request{&task,          *base,  t.sweep.steps, t.sweep.groups, t.sweep.width,
                         t.sweep.height, source, decide,        rubric.perf,    settings};
    std::vector<CaseOutcome> failures;
    report->sweep = runSweep(rt, request, inputs, evidence, &failures);  // each point's timing takes turns
    const std::string stem = "evidence/" + task.info().id + "/sweep";
    std::string err;
    if (evidence.discards()) {
      // A runner draws no chart: the keeper draws it when it replays the record.
    } else if (const trace::Span drawing("sweep chart", "work");
               writeSweepChart(report->sweep, evidence.reportDir(), stem, &err)) {
      report->sweep.chartSvg = stem + ".svg";
      report->sweep.chartPng = stem + ".png";
    } else {
      report->sweep.note += (report->sweep.note.empty() ? "" : "; ") + ("the chart could not be written: " + err);
    }
    c = sweptCheck(ci, report->sweep, failures, base->visible);
    if (!report->sweep.chartSvg.empty()) c.message += "; chart: " + report->sweep.chartSvg;
  }
}

}  // namespace

std::string defaultReferenceKernelsDir() { return dataPath("reference/kernels"); }

std::string defaultNaiveKernelsDir() { return dataPath("reference/naive"); }

namespace {

/// The request of the task's performance case on this device, without the submission's source;
/// false when the rubric times none here. `trustedSources`: with the reference and naive kernel files
/// (never past the sandbox wall: GradeOptions::trustedElsewhere).
bool performanceRequest(const Runtime& rt, const Task& task, const TaskRubric& t, const Rubric& rubric,
                        const std::string& referenceKernelsDir, const GradeSettings& settings, bool trustedSources,
                        PerfRequest* request) {
  if (!t.performance.present) return false;
  request->task = &task;
  if (!t.performanceCase(rt.device.info.type == "gpu", &request->spec)) return false;
  request->settings = rubric.perf;
  request->grade = settings;
  if (!trustedSources) {
    request->referenceNote = request->naiveNote = "the reference and naive kernels are timed outside the sandbox";
    return true;
  }
  const std::string dir = referenceKernelsDir.empty() ? defaultReferenceKernelsDir() : referenceKernelsDir;
  const std::string path = (std::filesystem::path(dir) / task.info().file).string();
  std::string err;
  if (!readFile(path, &request->referenceSource, &err, size_t(1) << 20))
    request->referenceNote = "no reference kernels (" + err + "): no ratio to the reference";
  const std::string naivePath = (std::filesystem::path(defaultNaiveKernelsDir()) / task.info().file).string();
  if (!readFile(naivePath, &request->naiveSource, &err, size_t(1) << 20))
    request->naiveNote = "no naive kernels (" + err + "): no speed-up of tiling";
  return true;
}

}  // namespace

std::string unfitForBatch(const DeviceInfo& device, const PerformanceReport& figures) {
  if (figures.reference.empty()) return "no reference figures (" + figures.note + ")";
  std::vector<const KernelFigure*> all{&figures.copy};
  for (const KernelFigure& f : figures.reference) all.push_back(&f);
  for (const KernelFigure* f : all) {
    if (!f->error.empty()) return f->kernel + ": " + f->error;
    // On a CPU device every figure is indicative only, in a grade as in the batch.
    if (device.type == "gpu" && !f->untrusted.empty()) return f->kernel + ": " + f->untrusted;
  }
  return "";
}

namespace {

/// The inputs of case `s` read or made ahead of their use (a span of `what`): one that cannot be is
/// asked for again where it is used, which says what is wrong.
void prepareAhead(const Task& task, const CaseSpec& s, InputCache& inputs, const char* what) {
  try {
    const trace::Span span(what, "work");
    task.prepareInputs(inputs, s);
  } catch (const std::exception&) {
  }
}

}  // namespace

void prepareTimedInputs(const DeviceInfo& device, const Task& task, const TaskRubric& t, bool visibleOnly,
                        InputCache& inputs) {
  const bool gpu = device.type == "gpu";
  std::vector<CaseSpec> timed;
  CaseSpec spec;
  const CaseSpec* own = t.findCase(t.performance.caseId);
  if (t.performance.present && t.performanceCase(gpu, &spec) && !(visibleOnly && own && !own->visible))
    timed.push_back(spec);
  // The sweep times every point on its base case's input at the timing size (perf/sweep.cpp).
  const CaseSpec* base = t.findCase(t.sweep.caseId);
  if (t.sweep.present && base && !(visibleOnly && !base->visible))
    timed.push_back(sweepTimingCase(*base, gpu, t.sweep.width, t.sweep.height));
  for (const CaseSpec& s : timed) prepareAhead(task, s, inputs, "timed inputs ahead");
}

void judgePerformance(const Runtime& rt, const Task& task, const TaskRubric& t, const Rubric& rubric,
                      const GradeOptions& options, const std::string& source, const GradeSettings& settings,
                      InputCache& inputs, EvidenceWriter& evidence, std::map<std::string, CheckResult>* checks,
                      TaskReport* report, PhaseClock& clock) {
  clock.time("sweep",
             [&] { runTaskSweep(rt, task, t, rubric, options, source, settings, inputs, evidence, checks, report); });
  PerfRequest request;
  const bool walled = options.trustedElsewhere || options.trustedBeside;
  if (!performanceRequest(rt, task, t, rubric, options.referenceKernelsDir, settings, !walled, &request)) return;
  if (options.trustedBeside)
    request.trustedBeside = [beside = options.trustedBeside, id = task.info().id](std::string* problem) {
      const std::shared_ptr<const TrustedTimings> timings = beside(problem);
      std::optional<PerformanceReport> figures;
      if (!timings) return figures;
      if (const auto it = timings->byTask.find(id); it != timings->byTask.end())
        figures = it->second;
      else if (const auto left = timings->left.find(id); left != timings->left.end())
        *problem = left->second;
      return figures;
    };
  const CaseSpec* own = t.findCase(t.performance.caseId);
  if (options.visibleOnly && own && !own->visible) return;
  request.source = source;
  if (options.trustedTimings)
    if (const auto given = options.trustedTimings->byTask.find(task.info().id);
        given != options.trustedTimings->byTask.end())
      request.trusted = &given->second;
  // Builds and inputs here run beside other tasks' work; each set of timed launches takes turns (perf/timer.cpp).
  clock.time("timing", [&] { report->performance = measurePerformance(rt, request, inputs, evidence); });
}

namespace {

bool chosen(const std::vector<std::string>& onlyTasks, const std::string& id) {
  return onlyTasks.empty() || std::find(onlyTasks.begin(), onlyTasks.end(), id) != onlyTasks.end();
}

}  // namespace

std::vector<std::future<void>> prepareTrustedInputs(const DeviceInfo& device, const Rubric& rubric,
                                                    const std::vector<std::string>& onlyTasks, InputCache& inputs) {
  std::vector<std::future<void>> preparing;
  for (const TaskRubric& t : rubric.tasks) {
    const Task* task = findTask(t.id);
    CaseSpec spec;
    if (!task || !chosen(onlyTasks, t.id) || !t.performance.present || !t.performanceCase(device.type == "gpu", &spec))
      continue;
    try {
      preparing.push_back(std::async(
          std::launch::async, [task, spec, &inputs] { prepareAhead(*task, spec, inputs, "trusted inputs ahead"); }));
    } catch (const std::system_error&) {
      break;  // no thread for it: the rest are made where they are used
    }
  }
  return preparing;
}

TrustedTimings timeTrustedKernels(const Runtime& rt, const Rubric& rubric, const std::vector<std::string>& onlyTasks,
                                  const std::string& referenceKernelsDir, InputCache& inputs, bool forOneGrade) {
  TrustedTimings timings;
  timings.takenAt = nowUtc();
  timings.device = deviceLine(rt.device.info);
  EvidenceWriter evidence = EvidenceWriter::discarding();
  for (const TaskRubric& t : rubric.tasks) {
    if (!chosen(onlyTasks, t.id)) continue;
    const Task* task = findTask(t.id);
    PerfRequest request;
    if (!task || !performanceRequest(rt, *task, t, rubric, referenceKernelsDir, rubric.settings, true, &request))
      continue;
    PerformanceReport figures = measureTrusted(rt, request, inputs, evidence);
    // Figures a grade could not be scored against (a spread above the limit, a failed launch) are not
    // handed to a whole batch (each of that task's grades has them timed for itself); one grade's
    // figures are its own, judged as they are (a spread above the limit is its reason).
    const std::string unfit = forOneGrade ? "" : unfitForBatch(rt.device.info, figures);
    if (!unfit.empty()) {
      timings.left[t.id] = unfit;
      continue;
    }
    timings.byTask[t.id] = figures;
  }
  return timings;
}

SpeedMeasure speedFor(const Criterion& criterion, const TaskReport& report) {
  return speedOf(report.performance, criterion.kernels);
}

}  // namespace clgrade
