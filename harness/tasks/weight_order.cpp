#include "tasks/weight_order.h"

#include <algorithm>

namespace clgrade {

std::vector<float> reversed(const std::vector<float>& w) { return std::vector<float>(w.rbegin(), w.rend()); }

bool symmetric(const std::vector<float>& w) { return w == reversed(w); }

namespace {
const char* const kConvolution = "k[R-k] (convolution order)";
const char* const kCorrelation = "k[R+k] (correlation order)";
}  // namespace

std::vector<WeightOrder> passOrders(const std::vector<float>& w, const Image& reference,
                                    std::function<Image(const std::vector<float>&)> run) {
  std::vector<WeightOrder> orders{{kConvolution, [reference] { return reference; }}};
  if (!symmetric(w)) orders.push_back({kCorrelation, [w, run] { return run(reversed(w)); }});
  return orders;
}

std::vector<WeightOrder> pipelineOrders(
    const std::vector<float>& h, const std::vector<float>& v, const Image& reference,
    std::function<Image(const std::vector<float>&, const std::vector<float>&)> run) {
  auto name = [](bool hReversed, bool vReversed) {
    return std::string("ConvHorizontal ") + (hReversed ? kCorrelation : kConvolution) + ", ConvVertical " +
           (vReversed ? kCorrelation : kConvolution);
  };
  std::vector<WeightOrder> orders{{name(false, false), [reference] { return reference; }}};
  for (const bool hReversed : {false, true})
    for (const bool vReversed : {false, true}) {
      if ((!hReversed && !vReversed) || (hReversed && symmetric(h)) || (vReversed && symmetric(v))) continue;
      orders.push_back(
          {name(hReversed, vReversed), [=] { return run(hReversed ? reversed(h) : h, vReversed ? reversed(v) : v); }});
    }
  return orders;
}

void judgeWeightOrders(TaskContext& ctx, CaseOutcome& o, const std::string& stem,
                       const std::vector<WeightOrder>& orders, const Image& actual, const RegionModel& regions) {
  const CompareRule& rule = ctx.settings().rule;
  const Image reference = orders.front().expected();
  const Comparison first = compareImages(reference, actual, rule, regions);
  if (!first.passed) {
    for (size_t i = 1; i < orders.size(); ++i) {
      const Image other = orders[i].expected();
      const Comparison c = compareImages(other, actual, rule, regions);
      if (!c.passed) continue;
      if (ctx.settings().eitherWeightOrder) {
        ctx.judge(o, stem, c, other, actual);
        o.details.insert(o.details.begin(), "weights applied as " + orders[i].name +
                                                ": accepted (the reference applies " + orders.front().name +
                                                "; either order is accepted for each pass)");
      } else {
        ctx.judge(o, stem, first, reference, actual);
        o.message = "the output is right with the weights applied as " + orders[i].name + ", but this rubric demands " +
                    orders.front().name + " (the course's CPU reference): " + o.message;
        // What to fix is the order, wherever the values are.
        o.finding = "the output is right with the weights applied as " + orders[i].name + ", but this rubric demands " +
                    orders.front().name;
      }
      return;
    }
  }
  ctx.judge(o, stem, first, reference, actual);
}

}  // namespace clgrade
