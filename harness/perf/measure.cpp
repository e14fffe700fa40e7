#include "perf/measure.h"

#include "perf/roofline.h"

namespace clgrade {
namespace {

bool onCpu(const Runtime& rt) { return rt.device.info.type != "gpu"; }

}  // namespace

double LaunchFloors::of(const Geometry& geometry) {
  const std::string key = geometry.str();
  auto it = byGeometry_.find(key);
  if (it != byGeometry_.end()) return it->second;
  double ms = 0;
  try {
    const bool cpu = onCpu(rt_);
    ms = timeLaunch(rt_, emptyLaunch(rt_, geometry), cpu ? settings_.cpuWarmups : settings_.warmups,
                    cpu ? settings_.cpuRuns : settings_.runs)
             .medianMs;
  } catch (const cl::Error&) {
    // A local size the empty kernel cannot take, say: the figure simply has no floor.
  }
  return byGeometry_[key] = ms;
}

KernelFigure measureLaunch(const Runtime& rt, const TimedLaunch& launch, const PerfSettings& s, LaunchFloors* floors) {
  const bool cpu = onCpu(rt);
  const int warmups = cpu ? s.cpuWarmups : s.warmups;
  const int runs = cpu ? s.cpuRuns : s.runs;
  KernelFigure f;
  try {
    TimingStats t = timeLaunch(rt, launch, warmups, runs);
    if (!cpu && t.robustCv > s.maxCv) t = timeLaunch(rt, launch, warmups, 3 * runs);
    f = figureOf(launch, t);
    f.untrusted = untrustedReason(rt.device.info, t, s);
    if (floors) f.launchFloorMs = floors->of(launch.geometry);
    if (launch.verify) {
      // Reading the output back is a device step; judging it is the keeper's: a task's runner records
      // the bytes and leaves the comparison out (the keeper makes it when it replays the tape).
      const Judgement judge = launch.verify();
      const std::string problem = rt.recording() ? "" : judge();
      if (!problem.empty()) {
        f.wrongOutput = true;
        f.untrusted =
            "its output at the timing size (" + launch.geometry.str() + ") is wrong: " + problem + "; not graded";
      }
    }
  } catch (const cl::Error& e) {
    f = figureOf(launch, TimingStats{});
    f.error = std::string("the launch failed: ") + e.what() + " (" + std::to_string(e.err()) + ")";
  }
  return f;
}

namespace {

/// The launches of `source` timed; throws CheckFailure when it does not build. `verify`: check the
/// outputs they leave (the submission's; the reference kernels are trusted).
std::vector<KernelFigure> measureSource(const Runtime& rt, const PerfRequest& r, const std::string& source,
                                        InputCache& inputs, EvidenceWriter& evidence, LaunchFloors& floors,
                                        bool verify) {
  TaskContext ctx(rt, r.task->info(), source, evidence, inputs, r.grade);
  std::vector<KernelFigure> figures;
  for (TimedLaunch& launch : r.task->timedLaunches(ctx, r.spec)) {
    if (!verify) launch.verify = nullptr;
    figures.push_back(measureLaunch(rt, launch, r.settings, &floors));
  }
  return figures;
}

std::string caseSize(const CaseSpec& spec, const char* key) {
  for (const auto& [k, v] : spec.params)
    if (k == key) return v;
  return "";
}

}  // namespace

namespace {

/// The copy roofline at one plane of `pixels` floats (every timed launch of a case has one size).
void timeCopy(const Runtime& rt, const PerfRequest& r, double pixels, LaunchFloors& floors, PerformanceReport* report) {
  const size_t planeBytes = static_cast<size_t>(pixels) * sizeof(float);
  try {
    report->copy = measureLaunch(rt, copyLaunch(rt, planeBytes), r.settings, &floors);
  } catch (const cl::Error& e) {
    report->copy.kernel = "copy";
    report->copy.error = std::string("the copy kernel failed: ") + e.what();
  }
}

/// Trusted kernels timed on the same case (their outputs are checked by the tests, not here): the
/// reference's, and the naive ones (every tap read from global memory) for the speed-up of tiling.
void timeReferenceAndNaive(const Runtime& rt, const PerfRequest& r, InputCache& inputs, EvidenceWriter& evidence,
                           LaunchFloors& floors, PerformanceReport* report) {
  auto timeTrusted = [&](const std::string& source, const std::string& note, const std::string& what,
                         std::vector<KernelFigure>* figures) {
    std::string problem = note;
    if (!source.empty()) {
      try {
        *figures = measureSource(rt, r, source, inputs, evidence, floors, false);
      } catch (const CheckFailure& f) {
        problem = "the " + what + " kernels failed: " + f.message;
      } catch (const std::exception& e) {  // never throws (measure.h), whatever the trusted kernels do
        problem = "the " + what + " kernels failed: " + e.what();
      }
    }
    if (!problem.empty()) report->note += (report->note.empty() ? "" : "; ") + problem;
  };
  timeTrusted(r.referenceSource, r.referenceNote, "reference", &report->reference);
  timeTrusted(r.naiveSource, r.naiveNote, "naive", &report->naive);
}

/// The reference's and naive kernels' figures of the keeper's trusted process (PerfRequest::trustedBeside),
/// when they are of this case; otherwise the note says why there are none.
void takeTrustedFigures(const PerfRequest& r, PerformanceReport* report) {
  std::string problem;
  const std::optional<PerformanceReport> figures = r.trustedBeside(&problem);
  const double pixels = report->kernels.empty() ? 0 : report->kernels.front().pixels;
  const KernelFigure* sized = !figures                       ? nullptr
                              : !figures->reference.empty() ? &figures->reference.front()
                              : !figures->naive.empty()     ? &figures->naive.front()
                                                            : nullptr;
  if (figures && figures->caseId == r.spec.id && sized && sized->pixels == pixels) {
    report->reference = figures->reference;
    report->naive = figures->naive;
    if (!figures->note.empty()) report->note += (report->note.empty() ? "" : "; ") + figures->note;
    return;
  }
  if (problem.empty()) problem = figures ? "they were timed at another case or size" : "none were timed";
  report->note += (report->note.empty() ? "" : "; ") + ("no figures of the reference kernels: " + problem);
}

PerformanceReport reportHead(const Runtime& rt, const PerfRequest& r) {
  PerformanceReport report;
  report.caseId = r.spec.id;
  report.width = std::atoi(caseSize(r.spec, "width").c_str());
  report.height = std::atoi(caseSize(r.spec, "height").c_str());
  report.device = deviceLine(rt.device.info);
  if (onCpu(rt))
    report.note = "measured on a CPU device with " + std::to_string(r.settings.cpuRuns) +
                  " timed launches: indicative only, never graded";
  return report;
}

}  // namespace

PerformanceReport measureTrusted(const Runtime& rt, const PerfRequest& r, InputCache& inputs,
                                 EvidenceWriter& evidence) {
  PerformanceReport report = reportHead(rt, r);
  report.note.clear();  // a grade's own head says what the device's figures are worth
  LaunchFloors floors(rt, r.settings);
  timeReferenceAndNaive(rt, r, inputs, evidence, floors, &report);
  const std::vector<KernelFigure>& sized = report.reference.empty() ? report.naive : report.reference;
  if (!sized.empty()) timeCopy(rt, r, sized.front().pixels, floors, &report);
  if (report.copy.gbPerS > 0) report.copy.ofRoofline = 1;
  for (KernelFigure& f : report.reference) relateToRoofline(f, report.copy);
  for (KernelFigure& f : report.naive) relateToRoofline(f, report.copy);
  report.measured = true;
  return report;
}

PerformanceReport measurePerformance(const Runtime& rt, const PerfRequest& r, InputCache& inputs,
                                     EvidenceWriter& evidence) {
  PerformanceReport report = reportHead(rt, r);
  LaunchFloors floors(rt, r.settings);
  try {
    report.kernels = measureSource(rt, r, r.source, inputs, evidence, floors, true);
  } catch (const CheckFailure& f) {
    report.problem = "not measured: " + f.message;
    return report;
  } catch (const std::exception& e) {
    report.problem = std::string("not measured: ") + e.what();
    return report;
  }
  report.measured = true;
  // The batch's figures when they are of this case (its id, one plane of the same pixels); otherwise
  // timed here. The runner and the keeper's replay decide this on the same figures.
  const PerformanceReport* batchFigures = r.trusted;
  if (batchFigures && (batchFigures->caseId != r.spec.id ||
                       (!report.kernels.empty() && batchFigures->copy.pixels != report.kernels.front().pixels)))
    batchFigures = nullptr;
  if (batchFigures) {
    report.copy = batchFigures->copy;
    report.reference = batchFigures->reference;
    report.naive = batchFigures->naive;
    report.trustedTimedAt = batchFigures->trustedTimedAt;
    if (!batchFigures->note.empty()) report.note += (report.note.empty() ? "" : "; ") + batchFigures->note;
  } else {
    if (!report.kernels.empty()) timeCopy(rt, r, report.kernels.front().pixels, floors, &report);
    if (r.trustedBeside)
      takeTrustedFigures(r, &report);
    else
      timeReferenceAndNaive(rt, r, inputs, evidence, floors, &report);
  }
  auto relate = [&](KernelFigure& f) { relateToRoofline(f, report.copy); };
  auto ratio = [](const std::vector<KernelFigure>& others, const KernelFigure& f) {
    for (const KernelFigure& o : others)
      if (o.kernel == f.kernel && f.time.medianMs > 0 && o.time.medianMs > 0 && o.error.empty() && f.error.empty())
        return o.time.medianMs / f.time.medianMs;
    return 0.0;
  };
  if (report.copy.gbPerS > 0) report.copy.ofRoofline = 1;
  for (KernelFigure& f : report.reference) relate(f);
  for (KernelFigure& f : report.naive) relate(f);
  // The read roofline of this run for kernels that only read (timed here: the batch's figures hold
  // the copy only).
  KernelFigure read;
  for (const KernelFigure& f : report.kernels)
    if (f.readsOnly && read.kernel.empty() && !onCpu(rt)) {  // a CPU's figures are never graded
      read.kernel = "read";
      try {
        read = measureLaunch(rt, readLaunch(rt, static_cast<size_t>(f.pixels) * sizeof(float)), r.settings);
      } catch (const cl::Error&) {
        read.gbPerS = 0;  // no read roofline: the launch floor alone bounds it
      }
    }
  for (KernelFigure& f : report.kernels) {
    refuseImpossible(f, f.readsOnly ? read : report.copy);  // before relate's looser "implausible"
    relate(f);
    f.vsReference = ratio(report.reference, f);
    f.vsNaive = ratio(report.naive, f);
  }
  return report;
}

}  // namespace clgrade
