// The check of what a timed launch leaves at the timing size (spec section 5b: every size a kernel
// is analysed, timed or graded at is also checked for correct output), for TimedLaunch::verify.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "checks/comparison.h"
#include "tasks/device_plane.h"
#include "tasks/task_context.h"

namespace clgrade {

/// "" when `plane` holds what one of `expected` computes (either weight order, say), else the
/// comparison's summary against the first. A recording runner only reads the plane back: the
/// keeper, replaying, computes the CPU's results and compares.
std::string timedOutputProblem(const Runtime& rt, const DevicePlane<float>& plane,
                               const std::vector<std::function<Image()>>& expected, const CompareRule& rule,
                               int width, int height);

/// The same for integer flags that must match exactly.
std::string timedFlagsProblem(const Runtime& rt, const DevicePlane<int32_t>& plane,
                              const std::function<std::vector<int32_t>()>& expected, bool skipLastRow, int width,
                              int height);

/// The candidates of a separable pass in either order (the reference's k[R-k] first), or the
/// reference's only when the rubric demands it.
std::vector<std::function<Image()>> orderCandidates(const std::vector<float>& w, bool either,
                                                    const std::function<Image(const std::vector<float>&)>& run);

}  // namespace clgrade
