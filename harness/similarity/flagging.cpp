#include "similarity/flagging.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace clgrade {

double pairScore(int firstInSecond, int secondInFirst) { return std::max(firstInSecond, secondInFirst); }

double quantile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double at = p * double(sorted.size() - 1);
  const size_t low = static_cast<size_t>(std::floor(at));
  const size_t high = std::min(sorted.size() - 1, low + 1);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - double(low));
}

void scorePairs(const std::vector<std::string>& names, const std::vector<DirectedPercent>& percents,
                TaskSimilarity* task, const FlagRule& rule) {
  const size_t n = names.size();
  std::map<std::pair<size_t, size_t>, int> directed;
  for (const DirectedPercent& d : percents)
    if (d.from < n && d.to < n && d.from != d.to) directed[{d.from, d.to}] = d.percent;
  auto percent = [&](size_t a, size_t b) {
    const auto it = directed.find({a, b});
    return it == directed.end() ? 0 : it->second;
  };
  std::vector<SimilarPair> pairs;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      const bool swap = names[j] < names[i];
      const size_t a = swap ? j : i, b = swap ? i : j;
      SimilarPair p;
      p.first = names[a];
      p.second = names[b];
      p.firstInSecond = percent(a, b);
      p.secondInFirst = percent(b, a);
      p.score = pairScore(p.firstInSecond, p.secondInFirst);
      pairs.push_back(p);
    }
  task->compared = static_cast<int>(n);
  task->pairs = static_cast<int>(pairs.size());
  std::vector<double> scores;
  for (const SimilarPair& p : pairs) scores.push_back(p.score);
  std::sort(scores.begin(), scores.end());
  task->median = quantile(scores, 0.5);
  task->q1 = quantile(scores, 0.25);
  task->q3 = quantile(scores, 0.75);
  task->highest = scores.empty() ? 0 : scores.back();
  std::vector<double> deviations;
  for (double s : scores) deviations.push_back(std::fabs(s - task->median));
  std::sort(deviations.begin(), deviations.end());
  task->mad = quantile(deviations, 0.5);
  const double scale = std::max(1.4826 * task->mad, rule.minScale);
  const bool tooFew = static_cast<int>(n) < rule.minSubmissions;
  task->flagged = 0;
  for (SimilarPair& p : pairs) {
    p.z = (p.score - task->median) / scale;
    p.flagged = !tooFew && p.z >= rule.minZ && p.score >= rule.minScore;
    task->flagged += p.flagged;
  }
  if (tooFew && n >= 2)
    task->note = std::to_string(n) + " submissions with the file: too few for a class distribution, nothing flagged";
  std::stable_sort(pairs.begin(), pairs.end(), [](const SimilarPair& a, const SimilarPair& b) {
    if (a.flagged != b.flagged) return a.flagged;
    if (a.score != b.score) return a.score > b.score;
    return std::min(a.firstInSecond, a.secondInFirst) > std::min(b.firstInSecond, b.secondInFirst);
  });
  const size_t shown = std::max<size_t>(static_cast<size_t>(task->flagged), kShownPairs);
  if (pairs.size() > shown) pairs.resize(shown);
  task->top = std::move(pairs);
}

}  // namespace clgrade
