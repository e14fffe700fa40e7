// Statistics of repeated kernel times: what survives noise is the median with its spread.
#pragma once

#include <vector>

#include "model/figures.h"

namespace clgrade {

/// Median, min, max, mean and coefficient of variation of `samplesMs` (empty: all 0).
TimingStats summarizeTimes(std::vector<double> samplesMs, int warmups);

}  // namespace clgrade
