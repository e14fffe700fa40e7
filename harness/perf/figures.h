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

/// "NVIDIA H200, driver 580.159.04, 132 CUs, max 1980 MHz" plus current clocks when the vendor tells them.
std::string deviceLine(const DeviceInfo& device);

}  // namespace clgrade
