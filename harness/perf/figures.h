// Performance figures as a report shows them: time, spread, bandwidth, the share of the copy
// roofline and the speed against the reference kernels, each with the reason it may not be trusted.
#pragma once

#include <string>
#include <vector>

#include "cl/device.h"
#include "model/figures.h"
#include "perf/stats.h"
#include "perf/timer.h"

namespace clgrade {

/// The speed of `kernels` together against the reference's, from a performance report.
SpeedMeasure speedOf(const PerformanceReport& report, const std::vector<std::string>& kernels);

/// Figures of one timed launch (bandwidth and pixel rate from the median).
KernelFigure figureOf(const TimedLaunch& launch, const TimingStats& time);

/// Why `time` cannot be graded on `device` (empty: trusted): a CPU device, a spread above
/// settings.maxCv, or a median too close to the profiling timer's resolution.
std::string untrustedReason(const DeviceInfo& device, const TimingStats& time, const PerfSettings& settings);

/// A kernel cannot move the bytes it must move faster than a plain copy moves them: a figure above
/// this multiple of the copy roofline skipped its work at the timing size (or the copy was not a
/// ceiling there), and is not graded.
constexpr double kImplausibleRoofline = 2.0;

/// Relates `f` to the copy roofline of the same run (ofRoofline) and, for a kernel the rubric may
/// grade, marks an implausible figure untrusted with the reason.
void relateToRoofline(KernelFigure& f, const KernelFigure& copy);

/// The least share of a limit a figure may fall below it for noise (spec 5c): honest kernels reach
/// 99 % of the copy roofline on an H100 (docs/performance.md), and the refill before each launch
/// leaves part of the output in the cache.
constexpr double kImpossibleMargin = 0.10;

/// Spec 5c, "nothing is faster than moving its bytes": a figure below max(its bytes at the
/// roofline's bandwidth in this run, the empty launch of its geometry), less the noise of both
/// (three robust CVs, at least kImpossibleMargin), cannot come from a kernel that did its work: it
/// is marked `impossible` and untrusted with the reason. `roofline`: the copy, or the read for a
/// kernel that only reads (the histogram). Figures already untrusted are left as they are.
void refuseImpossible(KernelFigure& f, const KernelFigure& roofline);

/// "NVIDIA H200, driver 580.159.04, 132 CUs, max 1980 MHz" plus current clocks when the vendor tells them.
std::string deviceLine(const DeviceInfo& device);

}  // namespace clgrade
