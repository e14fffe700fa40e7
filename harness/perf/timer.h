// Timing a prepared launch with profiling events: warm-ups, then N timed launches.
#pragma once

#include <string>

#include "perf/stats.h"
#include "tasks/task.h"

namespace clgrade {

/// How kernels are timed and when a figure is trusted enough to be graded (rubric <settings>).
struct PerfSettings {
  int warmups = 5;
  int runs = 30;
  double maxCv = 0.05;  ///< a larger robust CV: not trusted (timed once more with 3x the runs first)
  /// The median must be at least this many times the device's profiling-timer resolution.
  double minTimerMultiple = 20;
  /// On a CPU device the figures are indicative only: fewer launches keep CI fast.
  int cpuWarmups = 1;
  int cpuRuns = 3;
};

/// Enqueues `launch` settings.warmups + runs times back to back on the profiling queue, waits,
/// and summarizes the END - START times of the timed launches. Throws cl::Error.
TimingStats timeLaunch(const Runtime& rt, const TimedLaunch& launch, int warmups, int runs);

}  // namespace clgrade
