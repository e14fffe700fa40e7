#include "perf/figures.h"

#include <algorithm>
#include <cmath>

#include <cstdio>

#include "perf/vendor_clocks.h"

namespace clgrade {

KernelFigure figureOf(const TimedLaunch& launch, const TimingStats& time) {
  KernelFigure f;
  f.kernel = launch.kernel;
  f.what = launch.what;
  f.geometry = launch.geometry.str();
  f.bytes = launch.bytes;
  f.pixels = launch.pixels;
  f.readsOnly = launch.readsOnly;
  f.time = time;
  if (time.medianMs > 0) {
    f.gbPerS = launch.bytes / (time.medianMs * 1e-3) / 1e9;
    f.gpixPerS = launch.pixels / (time.medianMs * 1e-3) / 1e9;
  }
  return f;
}

SpeedMeasure speedOf(const PerformanceReport& report, const std::vector<std::string>& kernels) {
  SpeedMeasure m;
  if (!report.measured) {
    m.reason = report.problem.empty() ? "the task's performance was not measured" : report.problem;
    return m;
  }
  double mine = 0, theirs = 0;
  char text[160];
  for (const std::string& k : kernels) {
    const KernelFigure* f = report.find(k);
    const KernelFigure* r = nullptr;
    for (const KernelFigure& x : report.reference)
      if (x.kernel == k) r = &x;
    if (!f)
      m.reason = k + " was not timed";
    else if (!f->error.empty())
      m.reason = k + ": " + f->error;
    else if (!f->untrusted.empty())
      m.reason = k + ": " + f->untrusted;
    else if (!r || r->time.medianMs <= 0)
      m.reason = "no reference time for " + k + (report.note.empty() ? "" : " (" + report.note + ")");
    else if (!r->untrusted.empty())
      m.reason = "the reference's " + k + ": " + r->untrusted;
    if (!m.reason.empty()) {
      m.wrongOutput = f && (f->wrongOutput || f->impossible);
      return m;
    }
    mine += f->time.medianMs;
    theirs += r->time.medianMs;
    std::snprintf(text, sizeof text, "%s%s %.1f us (reference %.1f us)", m.detail.empty() ? "" : ", ", k.c_str(),
                  f->time.medianMs * 1e3, r->time.medianMs * 1e3);
    m.detail += text;
  }
  // Said wherever the message goes (Gradescope, PrairieLearn): the reference was not timed in this grade.
  if (!report.trustedTimedAt.empty()) m.detail += "; the reference timed for the batch at " + report.trustedTimedAt;
  m.available = mine > 0;
  m.ratio = mine > 0 ? theirs / mine : 0;
  if (!m.available) m.reason = "no kernel time";
  return m;
}

void relateToRoofline(KernelFigure& f, const KernelFigure& copy) {
  if (copy.gbPerS <= 0 || f.gbPerS <= 0) return;
  f.ofRoofline = f.gbPerS / copy.gbPerS;
  if (f.ofRoofline > kImplausibleRoofline && f.untrusted.empty()) {
    char text[240];
    std::snprintf(text, sizeof text,
                  "implausible: %.0f %% of the copy roofline, faster than a plain copy of the same bytes (does the "
                  "kernel skip its work at this size?); not graded",
                  100 * f.ofRoofline);
    f.untrusted = text;
  }
}

void refuseImpossible(KernelFigure& f, const KernelFigure& roofline) {
  if (!f.untrusted.empty() || !f.error.empty() || f.time.medianMs <= 0) return;
  const double movingMs = roofline.gbPerS > 0 ? f.bytes / (roofline.gbPerS * 1e6) : 0;
  const double limitMs = std::max(movingMs, f.launchFloorMs);
  if (limitMs <= 0) return;
  const double noise = std::max(kImpossibleMargin, 3 * std::sqrt(f.time.robustCv * f.time.robustCv +
                                                                 roofline.time.robustCv * roofline.time.robustCv));
  if (f.time.medianMs >= limitMs * (1 - noise)) return;
  char text[400];
  std::snprintf(text, sizeof text,
                "impossible: %.1f us is faster than %s (%.1f us in this run, less %.0f %% for noise): it cannot "
                "have done its work; not graded",
                f.time.medianMs * 1e3,
                movingMs >= f.launchFloorMs ? (f.readsOnly ? "reading its bytes" : "moving its bytes with a plain copy")
                                            : "an empty kernel launched on its geometry",
                limitMs * 1e3, 100 * noise);
  f.impossible = true;
  f.untrusted = text;
}

std::string untrustedReason(const DeviceInfo& device, const TimingStats& time, const PerfSettings& settings) {
  char text[200];
  if (device.type != "gpu")
    return "measured on a " + device.type + " device (" + device.name + "): indicative only, not graded";
  if (time.runs == 0 || time.medianMs <= 0) return "no timed launch";
  if (time.robustCv > settings.maxCv) {
    std::snprintf(text, sizeof text, "the times spread too much: robust CV %.1f %% > %.1f %% over %d launches",
                  100 * time.robustCv, 100 * settings.maxCv, time.runs);
    return text;
  }
  const double resolutionMs = device.timerResolutionNs * 1e-6;
  if (time.medianMs < settings.minTimerMultiple * resolutionMs) {
    std::snprintf(text, sizeof text, "%.1f us is under %.0f x the timer resolution (%zu ns): use a larger case",
                  time.medianMs * 1e3, settings.minTimerMultiple, device.timerResolutionNs);
    return text;
  }
  return "";
}

std::string deviceLine(const DeviceInfo& device) {
  std::string line = device.name + ", driver " + device.driver + ", " + std::to_string(device.computeUnits) +
                     " compute units, rated " + std::to_string(device.maxClockMHz) + " MHz";
  const std::string clocks = currentClocks(device);
  if (!clocks.empty()) line += ", " + clocks;
  return line;
}

}  // namespace clgrade
