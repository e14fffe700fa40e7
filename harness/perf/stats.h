// Statistics of repeated kernel times: what survives noise is the median with its spread.
#pragma once

#include <vector>

namespace clgrade {

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

/// Median, min, max, mean and coefficient of variation of `samplesMs` (empty: all 0).
TimingStats summarizeTimes(std::vector<double> samplesMs, int warmups);

}  // namespace clgrade
