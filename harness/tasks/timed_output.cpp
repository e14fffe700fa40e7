#include "tasks/timed_output.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "tasks/weight_order.h"

namespace clgrade {

std::vector<int> sampleRows(int height, uint64_t seed, bool skipLastRow, int count) {
  const int graded = std::max(1, skipLastRow ? height - 1 : height);
  std::set<int> rows{0};
  uint64_t s = seed ^ 0x9e3779b97f4a7c15ull;
  for (int i = 0; int(rows.size()) < std::min(count, graded) && i < 16 * count; ++i) {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;  // xorshift64*
    rows.insert(int((s * 0x2545F4914F6CDD1Dull >> 33) % uint64_t(graded)));
  }
  return std::vector<int>(rows.begin(), rows.end());
}

namespace {

/// Rows `rows` of `image` as an image of their own.
Image rowsOf(const Image& image, const std::vector<int>& rows) {
  Image out(image.width, int(rows.size()), 1);
  for (size_t i = 0; i < rows.size(); ++i)
    std::copy(image.pixels.begin() + size_t(rows[i]) * image.width,
              image.pixels.begin() + size_t(rows[i] + 1) * image.width, out.pixels.begin() + i * image.width);
  return out;
}

std::string rowsNote(const std::vector<int>& rows) { return " (in " + std::to_string(rows.size()) + " sampled rows)"; }

}  // namespace

Judgement timedOutputCheck(const Runtime& rt, const DevicePlane<float>& plane, const std::vector<int>& rows,
                           const std::vector<ExpectedImage>& expected, const CompareRule& rule) {
  std::vector<float> values = plane.downloadRows(rt, rows);
  return [values = std::move(values), rows, expected, rule]() -> std::string {
    if (expected.empty()) return "";
    CompareRule sampled = rule;
    sampled.skipLastRow = false;  // the sample holds only rows the rule grades
    std::string first;
    for (const ExpectedImage& make : expected) {
      const std::shared_ptr<const Image> want = make();
      Image actual(want->width, int(rows.size()), 1);
      actual.pixels = values;
      const Comparison c = compareImages(rowsOf(*want, rows), actual, sampled, RegionModel{0, 0, 0, 0});
      if (c.passed) return "";
      if (first.empty()) first = c.summary() + rowsNote(rows);
    }
    return first;
  };
}

Judgement timedFlagsCheck(const Runtime& rt, const DevicePlane<int32_t>& plane, const std::vector<int>& rows,
                          const std::function<std::shared_ptr<const std::vector<int32_t>>()>& expected, int width) {
  std::vector<int32_t> actual = plane.downloadRows(rt, rows);
  return [actual = std::move(actual), rows, expected, width]() -> std::string {
    const std::shared_ptr<const std::vector<int32_t>> all = expected();
    long wrong = 0;
    for (size_t i = 0; i < rows.size(); ++i)
      for (int x = 0; x < width; ++x) wrong += actual[i * width + x] != (*all)[size_t(rows[i]) * width + x];
    if (wrong == 0) return "";
    return std::to_string(wrong) + " of " + std::to_string(rows.size() * size_t(width)) + " flags wrong" +
           rowsNote(rows);
  };
}

std::string weightsKey(const std::vector<float>& weights) {
  std::string k;
  char text[32];
  for (float v : weights) {
    std::snprintf(text, sizeof text, " %.9g", v);
    k += text;
  }
  return k;
}

std::vector<ExpectedImage> orderCandidates(TaskContext* ctx, const ResultKey& key, const std::vector<float>& w,
                                           bool either, const std::function<Image(const std::vector<float>&)>& run) {
  auto candidate = [ctx, key, run](const std::vector<float>& weights) -> ExpectedImage {
    const ResultKey k = key + weightsKey(weights);
    return [ctx, k, run, weights] { return ctx->memo(k, [&] { return run(weights); }); };
  };
  std::vector<ExpectedImage> c{candidate(w)};
  if (either && !symmetric(w)) c.push_back(candidate(reversed(w)));
  return c;
}

}  // namespace clgrade
