// Performance figures as a report keeps them: timings with their spread, per-kernel figures against
// the copy roofline and the reference kernels, and the RESULT_STEPS sweep. Plain data: measuring
// them is harness/perf's.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace clgrade {

/// Statistics of repeated kernel times: what survives noise is the median with its spread.
struct TimingStats {
  int warmups = 0;  ///< launches before the timed ones, not counted
  int runs = 0;     ///< timed launches
  double medianMs = 0, minMs = 0, maxMs = 0, meanMs = 0;
  double cv = 0;  ///< coefficient of variation: standard deviation / mean
  /// The same from the interquartile range (IQR / 1.349 / median): a few late launches (the host
  /// scheduling, another process) inflate the CV of microsecond kernels but not this.
  double robustCv = 0;
  std::vector<double> samplesMs;
};

struct KernelFigure {
  std::string kernel;    ///< "ConvHorizontal", or "copy" for the roofline
  std::string what;      ///< "one channel"
  std::string geometry;  ///< "global 800x576, local 32x16"
  double bytes = 0;      ///< that the launch must move
  double pixels = 0;
  TimingStats time;
  double gbPerS = 0;       ///< bytes / median time
  double gpixPerS = 0;     ///< pixels / median time
  double ofRoofline = 0;   ///< gbPerS / the copy's gbPerS in the same run (0: unknown)
  double vsReference = 0;  ///< the reference kernel's median / this median: 1 = as fast (0: unknown)
  /// The naive kernel's median (no local memory, reference/naive) / this median: the speed-up of
  /// tiling (0: unknown).
  double vsNaive = 0;
  /// Median of an empty kernel launched on the same geometry in the same run (0: not measured): what
  /// the launch alone costs, so a median close to it means the launch, not the kernel, sets the time.
  double launchFloorMs = 0;
  std::string error;      ///< the launch failed (then there is no time)
  std::string untrusted;  ///< why the figure may not be graded (empty: trusted)
  /// The output the timed launches left at this size is wrong (`untrusted` says how): the speed of a
  /// kernel that skips its work at the timing size fails, it is not merely unmeasured.
  bool wrongOutput = false;
  /// Faster than moving its bytes or than an empty launch of its geometry, in the same run (spec 5c,
  /// perf/figures.h refuseImpossible): the kernel cannot have done its work; fails like a wrong output.
  bool impossible = false;
  /// Its roofline is reading its bytes, not copying them (TimedLaunch::readsOnly; not in report.json).
  bool readsOnly = false;
};

/// Everything measured for one task's performance case.
struct PerformanceReport {
  bool measured = false;
  std::string caseId;
  int width = 0, height = 0;
  std::string problem;                  ///< why nothing was measured (the build failed, no such case, ...)
  std::string note;                     ///< what limits the figures as a whole ("CPU device: indicative only")
  std::string device;                   ///< name, driver and clocks, recorded with the figures
  KernelFigure copy;                    ///< the roofline: a plain copy of one plane in the same run
  std::vector<KernelFigure> kernels;    ///< the submission's
  std::vector<KernelFigure> reference;  ///< the reference kernels', same case, same run
  std::vector<KernelFigure> naive;      ///< the naive kernels' (no local memory), same case, same run
  /// When the copy, reference and naive figures were timed for a whole batch (UTC, ISO 8601) rather
  /// than in this run; empty: in this run.
  std::string trustedTimedAt;
  const KernelFigure* find(const std::string& kernel) const;
};

/// How fast some kernels ran against the reference's, when that can be graded.
struct SpeedMeasure {
  bool available = false;
  bool wrongOutput = false;  ///< a kernel's output at the timing size was wrong: the speed fails
  double ratio = 0;          ///< sum of the reference's medians / sum of the submission's: 1 = as fast
  std::string reason;        ///< why not available
  std::string detail;        ///< "ConvHorizontal 41.2 us vs 39.8 us, ConvVertical ..."
};

struct SweepPoint {
  std::string caseId;  ///< "steps4_32x16"
  int steps = 0;
  std::array<int, 2> group{0, 0};
  bool correct = false;
  std::string problem;                ///< the first failing check's message ("horizontal: 1204 values wrong ...")
  std::vector<KernelFigure> figures;  ///< the timed passes (at the timing size)
};

struct SweepReport {
  bool ran = false;
  std::string caseId;         ///< the rubric case swept
  int width = 0, height = 0;  ///< the timing size
  std::string note;           ///< "CPU device: indicative only"
  std::string device;
  KernelFigure copy;  ///< the roofline at the timing size
  std::vector<SweepPoint> points;
  std::string chartSvg, chartPng;  ///< relative to the report folder, once written
  int incorrect() const;
};

/// The median is within 10 % of the launch floor: the launch geometry, not the kernel, sets the time.
bool atLaunchFloor(const KernelFigure& f);

}  // namespace clgrade
