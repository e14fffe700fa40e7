#include "perf/stats.h"

#include <algorithm>
#include <cmath>

namespace clgrade {

TimingStats summarizeTimes(std::vector<double> samplesMs, int warmups) {
  TimingStats s;
  s.warmups = warmups;
  s.runs = static_cast<int>(samplesMs.size());
  s.samplesMs = samplesMs;
  if (samplesMs.empty()) return s;
  std::sort(samplesMs.begin(), samplesMs.end());
  const size_t n = samplesMs.size();
  s.medianMs = n % 2 ? samplesMs[n / 2] : (samplesMs[n / 2 - 1] + samplesMs[n / 2]) / 2;
  s.minMs = samplesMs.front();
  s.maxMs = samplesMs.back();
  // Quartiles by linear interpolation between the sorted samples.
  auto quantile = [&](double q) {
    const double pos = q * (n - 1);
    const size_t lo = static_cast<size_t>(pos);
    const size_t hi = std::min(lo + 1, n - 1);
    return samplesMs[lo] + (pos - lo) * (samplesMs[hi] - samplesMs[lo]);
  };
  if (s.medianMs > 0) s.robustCv = (quantile(0.75) - quantile(0.25)) / 1.349 / s.medianMs;
  double sum = 0;
  for (double v : samplesMs) sum += v;
  s.meanMs = sum / n;
  double sq = 0;
  for (double v : samplesMs) sq += (v - s.meanMs) * (v - s.meanMs);
  // The sample standard deviation; one sample has no spread.
  const double sd = n > 1 ? std::sqrt(sq / (n - 1)) : 0;
  s.cv = s.meanMs > 0 ? sd / s.meanMs : 0;
  return s;
}

}  // namespace clgrade
