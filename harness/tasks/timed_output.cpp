#include "tasks/timed_output.h"

#include <cmath>

#include "tasks/weight_order.h"

namespace clgrade {

std::string timedOutputProblem(const Runtime& rt, const DevicePlane<float>& plane,
                               const std::vector<std::function<Image()>>& expected, const CompareRule& rule,
                               int width, int height) {
  Image actual(width, height, 1);
  actual.pixels = plane.download(rt, floatSentinel(), nullptr);
  if (rt.recording() || expected.empty()) return "";
  std::string first;
  for (const auto& make : expected) {
    const Image want = make();
    const Comparison c = compareImages(want, actual, rule, RegionModel{0, 0, 0, 0});
    if (c.passed) return "";
    if (first.empty()) first = c.summary();
  }
  return first;
}

std::string timedFlagsProblem(const Runtime& rt, const DevicePlane<int32_t>& plane,
                              const std::function<std::vector<int32_t>()>& expected, bool skipLastRow, int width,
                              int height) {
  const std::vector<int32_t> actual = plane.download(rt, kIntSentinel, nullptr);
  if (rt.recording()) return "";
  const Comparison c = compareExact(expected(), actual, width, height, skipLastRow, RegionModel{0, 0, 0, 0});
  return c.passed ? "" : c.summary();
}

std::vector<std::function<Image()>> orderCandidates(const std::vector<float>& w, bool either,
                                                    const std::function<Image(const std::vector<float>&)>& run) {
  std::vector<std::function<Image()>> c{[w, run] { return run(w); }};
  if (either && !symmetric(w)) c.push_back([w, run] { return run(reversed(w)); });
  return c;
}

}  // namespace clgrade
