#include "perf/sweep.h"

#include "perf/measure.h"
#include "perf/roofline.h"
#include "util/trace.h"

namespace clgrade {

CaseSpec sweepPoint(const CaseSpec& base, int steps, const std::array<int, 2>& group) {
  CaseSpec spec = base;
  const std::string g = std::to_string(group[0]) + " " + std::to_string(group[1]);
  spec.id = "steps" + std::to_string(steps) + "_" + std::to_string(group[0]) + "x" + std::to_string(group[1]);
  spec.params["h_steps"] = spec.params["v_steps"] = std::to_string(steps);
  spec.params["h_group"] = spec.params["v_group"] = g;
  return spec;
}

CaseSpec sweepTimingCase(CaseSpec spec, bool gpu, int width, int height) {
  if (gpu && width > 0) spec.params["width"] = std::to_string(width);
  if (gpu && height > 0) spec.params["height"] = std::to_string(height);
  return spec;
}

SweepReport runSweep(const Runtime& rt, const SweepRequest& r, InputCache& inputs, EvidenceWriter& evidence,
                     std::vector<CaseOutcome>* failures) {
  SweepReport report;
  report.ran = true;
  report.caseId = r.base.id;
  report.device = deviceLine(rt.device.info);
  const bool gpu = rt.device.info.type == "gpu";
  if (!gpu) report.note = "measured on a CPU device: times indicative only";
  TaskContext ctx(rt, r.task->info(), r.source, evidence, inputs, r.grade);
  ctx.restrictChecks(r.checks);
  std::vector<SweepPoint> points;
  std::vector<CaseSpec> specs;
  for (int steps : r.steps)
    for (const auto& group : r.groups) {
      points.emplace_back();
      points.back().steps = steps;
      points.back().group = group;
      specs.push_back(sweepPoint(r.base, steps, group));
      points.back().caseId = specs.back().id;
    }
  for (size_t at = 0; at < specs.size(); ++at) {
    const CaseSpec& spec = specs[at];
    SweepPoint& point = points[at];
    const trace::Span pointSpan("sweep point", "work");  // where a point's time goes, on a timeline
    // Correctness at the case's own size: the task's ordinary checks.
    std::map<std::string, CaseOutcome> outcomes;
    {
      const trace::Span span("sweep point's case", "work");
      r.task->runCase(ctx, spec, &outcomes);
    }
    // On a GPU the next point's program compiles while this one is timed (2-3 s of the sweep's 16
    // builds on an H100); on a CPU device the compiler would take the cores the kernels run on. Only
    // now: this point's own build, done, never waits behind it, so its build time limit is its own.
    if (gpu && at + 1 < specs.size())
      for (const std::string& options : r.task->buildOptions(specs[at + 1])) ctx.buildAhead(options);
    point.correct = !outcomes.empty();
    for (auto& [check, o] : outcomes) {
      if (o.status == Status::Passed) continue;
      if (point.correct) point.problem = check + ": " + o.message;
      point.correct = false;
      if (failures) {
        CaseOutcome f = o;
        f.caseId = spec.id + " (" + check + ")";
        failures->push_back(f);
      }
    }
    // Times at the timing size (on a GPU), whatever the correctness: the chart marks wrong points.
    const CaseSpec timed = sweepTimingCase(spec, gpu, r.timingWidth, r.timingHeight);
    const trace::Span timedSpan("sweep point's timing", "work");
    try {
      for (const TimedLaunch& l : r.task->timedLaunches(ctx, timed)) {
        point.figures.push_back(measureLaunch(rt, l, r.settings));
        // Checked at the timing size too: a point whose timed output is wrong is not correct.
        if (point.figures.back().wrongOutput) {
          if (point.correct) point.problem = l.kernel + ": " + point.figures.back().untrusted;
          point.correct = false;
        }
      }
    } catch (const CheckFailure& f) {
      if (point.problem.empty()) point.problem = f.message;
      point.correct = false;
    }
    report.points.push_back(point);
  }
  // The timing size and the roofline at that size.
  CaseSpec timed = r.base;
  const auto size = [&](const char* key, int gpuValue) {
    if (gpu && gpuValue > 0) return gpuValue;
    auto it = timed.params.find(key);
    return it == timed.params.end() ? 0 : std::atoi(it->second.c_str());
  };
  report.width = size("width", r.timingWidth);
  report.height = size("height", r.timingHeight);
  for (const SweepPoint& p : report.points) {
    if (p.figures.empty()) continue;
    try {
      report.copy =
          measureLaunch(rt, copyLaunch(rt, static_cast<size_t>(p.figures.front().pixels) * sizeof(float)), r.settings);
    } catch (const cl::Error& e) {  // building the copy kernel failed
      report.copy.kernel = "copy";
      report.copy.error = e.what();
    }
    break;
  }
  for (SweepPoint& p : report.points)
    for (KernelFigure& f : p.figures) relateToRoofline(f, report.copy);
  return report;
}

}  // namespace clgrade
