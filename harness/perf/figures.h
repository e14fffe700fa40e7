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

/// "NVIDIA H200, driver 580.159.04, 132 CUs, max 1980 MHz" plus current clocks when the vendor tells them.
std::string deviceLine(const DeviceInfo& device);

}  // namespace clgrade
