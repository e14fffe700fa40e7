// Performance figures as a report shows them: time, spread, bandwidth, the share of the copy
// roofline and the speed against the reference kernels, each with the reason it may not be trusted.
#pragma once

#include <string>
#include <vector>

#include "cl/device.h"
#include "perf/stats.h"
#include "perf/timer.h"

namespace clgrade {

struct KernelFigure {
  std::string kernel;    ///< "ConvHorizontal", or "copy" for the roofline
  std::string what;      ///< "one channel"
  std::string geometry;  ///< "global 800x576, local 32x16"
  double bytes = 0;      ///< that the launch must move
  double pixels = 0;
  TimingStats time;
  double gbPerS = 0;      ///< bytes / median time
  double gpixPerS = 0;    ///< pixels / median time
  double ofRoofline = 0;  ///< gbPerS / the copy's gbPerS in the same run (0: unknown)
  double vsReference = 0; ///< the reference kernel's median / this median: 1 = as fast (0: unknown)
  /// Median of an empty kernel launched on the same geometry in the same run (0: not measured): what
  /// the launch alone costs, so a median close to it means the launch, not the kernel, sets the time.
  double launchFloorMs = 0;
  std::string error;      ///< the launch failed (then there is no time)
  std::string untrusted;  ///< why the figure may not be graded (empty: trusted)
};

/// Everything measured for one task's performance case.
struct PerformanceReport {
  bool measured = false;
  std::string caseId;
  int width = 0, height = 0;
  std::string problem;  ///< why nothing was measured (the build failed, no such case, ...)
  std::string note;     ///< what limits the figures as a whole ("CPU device: indicative only")
  std::string device;   ///< name, driver and clocks, recorded with the figures
  KernelFigure copy;    ///< the roofline: a plain copy of one plane in the same run
  std::vector<KernelFigure> kernels;    ///< the submission's
  std::vector<KernelFigure> reference;  ///< the reference kernels', same case, same run
  const KernelFigure* find(const std::string& kernel) const;
};

/// How fast some kernels ran against the reference's, when that can be graded.
struct SpeedMeasure {
  bool available = false;
  double ratio = 0;    ///< sum of the reference's medians / sum of the submission's: 1 = as fast
  std::string reason;  ///< why not available
  std::string detail;  ///< "ConvHorizontal 41.2 us vs 39.8 us, ConvVertical ..."
};

/// The median is within 10 % of the launch floor: the launch geometry, not the kernel, sets the time.
bool atLaunchFloor(const KernelFigure& f);

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
