// The weight order of a separable pass (spec sections 2 and 3): the course's CPU reference applies
// the weights as k[R-k] (true convolution), but every filter the course ships is symmetric and task 1
// is written in correlation order, so real solutions use both. A pass is accepted in either order,
// the same for each of its taps, unless the rubric demands the reference order
// (<settings weight_order="reference">); either way the report says which order the kernel uses.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "checks/comparison.h"
#include "tasks/task_context.h"

namespace clgrade {

/// One way the kernel may apply its weights, and the CPU's result for it (made only when needed).
struct WeightOrder {
  std::string name;  ///< "ConvHorizontal k[R+k] (correlation order)"
  std::function<Image()> expected;
};

/// Called in a judging step (TaskContext::judging): the CPU's results are made here.
/// Judges `actual` like TaskContext::judge against the first order (the reference's); when that
/// fails and another order's result passes, the outcome passes (the rubric accepts either order) or
/// fails with a message naming the order the kernel uses (it demands the reference order).
void judgeWeightOrders(TaskContext& ctx, CaseOutcome& outcome, const std::string& stem,
                       const std::vector<WeightOrder>& orders, const Image& actual, const RegionModel& regions);

/// One pass's orders: `reference` (the CPU's result with k[R-k]) first, then k[R+k] when `w` is not
/// symmetric, computed by `run` on the reversed weights.
std::vector<WeightOrder> passOrders(const std::vector<float>& w, const Image& reference,
                                    std::function<Image(const std::vector<float>&)> run);

/// Two chained passes' orders: the reference's pair first, then every other pair that differs;
/// `run(h, v)` computes the CPU's result with those weights.
std::vector<WeightOrder> pipelineOrders(const std::vector<float>& h, const std::vector<float>& v,
                                        const Image& reference,
                                        std::function<Image(const std::vector<float>&, const std::vector<float>&)> run);

/// `w` reversed: a pass applying w[R+k] computes what the reference's w[R-k] does with this.
std::vector<float> reversed(const std::vector<float>& w);

/// Whether a weight vector reads the same both ways (its order cannot be told from the output).
bool symmetric(const std::vector<float>& w);

}  // namespace clgrade
