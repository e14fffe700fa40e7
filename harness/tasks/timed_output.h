// The check of what a timed launch leaves at the timing size (spec section 5b: every size a kernel
// is analysed, timed or graded at is also checked for correct output), for TimedLaunch::verify.
// At 4096 x 4096 a whole plane is 64 MiB and a sweep times 16 points, so the check reads a sample
// of rows drawn from the run's hidden seed: a kernel runs before the rows are chosen and cannot
// know them, and one that skips its work anywhere at that size is found in the rows read.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "checks/comparison.h"
#include "tasks/device_plane.h"
#include "tasks/task.h"
#include "tasks/task_context.h"

namespace clgrade {

/// A CPU result, made only when a keeper compares (and then once per key: see TaskContext::memo).
using ExpectedImage = std::function<std::shared_ptr<const Image>()>;

/// `count` rows of an image of `height` rows drawn from `seed`, sorted, the first row among them;
/// the last row only when the rule grades it.
std::vector<int> sampleRows(int height, uint64_t seed, bool skipLastRow, int count = 32);

/// Reads rows `rows` of `plane` back, and returns the judging step: "" when they hold what one of
/// `expected` computes there (either weight order, say), else the comparison's summary against the
/// first. The CPU's results are made only when the judging step runs (TimedLaunch::verify).
Judgement timedOutputCheck(const Runtime& rt, const DevicePlane<float>& plane, const std::vector<int>& rows,
                           const std::vector<ExpectedImage>& expected, const CompareRule& rule);

/// The same for integer flags that must match exactly.
Judgement timedFlagsCheck(const Runtime& rt, const DevicePlane<int32_t>& plane, const std::vector<int>& rows,
                          const std::function<std::shared_ptr<const std::vector<int32_t>>()>& expected, int width);

/// The weights as they go into a key of the CPU's results (" 0.25 0.5 0.25", every digit a float has).
std::string weightsKey(const std::vector<float>& weights);

/// The candidates of a pass in either order (the reference's k[R-k] first, then k[R+k] when `w` is
/// not symmetric and the rubric accepts it); `run(w)` computes the CPU's result, memoised for the
/// submission's grade (InputCache::reference) under `key` and the weights: `key` names everything
/// else the result depends on.
std::vector<ExpectedImage> orderCandidates(TaskContext* ctx, const ResultKey& key, const std::vector<float>& w,
                                           bool either, const std::function<Image(const std::vector<float>&)>& run);

}  // namespace clgrade
