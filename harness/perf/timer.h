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

/// Seconds one set of timed launches may take, past which a slow kernel gets fewer launches
/// (timeLaunch). The course's kernels take 0.01-5 ms a launch at 4096 x 4096 on an H100: 35 of them
/// take 0.2 s at most.
constexpr double kTimedLaunchesBudgetSeconds = 2.0;
/// The fewest timed launches a figure has, whatever its launches take.
constexpr int kMinTimedRuns = 3;

/// Enqueues `launch` warmups + runs times back to back on the profiling queue, waits, and summarizes
/// the END - START times of the timed launches. Where the first warm-ups, timed alone (two at most),
/// show that the rest would not fit `budgetSeconds` (0: no budget), as many timed launches as fit are
/// kept (kMinTimedRuns at least), then warm-ups as fit (TimingStats says how many). Throws cl::Error.
TimingStats timeLaunch(const Runtime& rt, const TimedLaunch& launch, int warmups, int runs,
                       double budgetSeconds = kTimedLaunchesBudgetSeconds);

}  // namespace clgrade
