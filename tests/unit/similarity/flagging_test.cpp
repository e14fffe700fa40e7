// Class-relative flags: a pair is flagged only when far above its own class, never in an all-alike
// class or in one too small for a distribution.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "similarity/flagging.h"

namespace clgrade {
namespace {

std::vector<std::string> names(size_t n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) out.push_back("s" + std::to_string(10 + i));
  return out;
}

/// Every directed pair at `percent`.
std::vector<DirectedPercent> everyPair(size_t n, int percent) {
  std::vector<DirectedPercent> out;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j) out.push_back({i, j, percent});
  return out;
}

TEST(Flagging, AnAllSimilarClassFlagsNobody) {
  TaskSimilarity t;
  scorePairs(names(12), everyPair(12, 96), &t);
  EXPECT_EQ(t.compared, 12);
  EXPECT_EQ(t.pairs, 66);
  EXPECT_EQ(t.flagged, 0);
  EXPECT_DOUBLE_EQ(t.median, 96);
  EXPECT_EQ(t.top.size(), kShownPairs);
  for (const SimilarPair& p : t.top) EXPECT_FALSE(p.flagged);
}

TEST(Flagging, OneOutlierPairIsFlaggedAndListedFirst) {
  std::vector<DirectedPercent> percents;
  for (size_t i = 0; i < 10; ++i)
    for (size_t j = 0; j < 10; ++j)
      if (i != j) percents.push_back({i, j, int(20 + (i + j) % 7)});  // a class between 20 and 26 %
  for (DirectedPercent& d : percents) {
    if (d.from == 3 && d.to == 7) d.percent = 95;
    if (d.from == 7 && d.to == 3) d.percent = 60;  // padded: the larger direction counts
  }
  TaskSimilarity t;
  scorePairs(names(10), percents, &t);
  EXPECT_EQ(t.flagged, 1);
  ASSERT_FALSE(t.top.empty());
  const SimilarPair& p = t.top.front();
  EXPECT_TRUE(p.flagged);
  EXPECT_EQ(p.first, "s13");
  EXPECT_EQ(p.second, "s17");
  EXPECT_EQ(p.firstInSecond, 95);
  EXPECT_EQ(p.secondInFirst, 60);
  EXPECT_DOUBLE_EQ(p.score, 95);
  EXPECT_GT(p.z, 3.5);
  for (size_t i = 1; i < t.top.size(); ++i) EXPECT_FALSE(t.top[i].flagged);
}

TEST(Flagging, AnAllZeroClassFlagsNobodyForAFewPercent) {
  std::vector<DirectedPercent> percents = {{0, 1, 12}, {1, 0, 9}};  // the rest 0 %: below minScore
  TaskSimilarity t;
  scorePairs(names(8), percents, &t);
  EXPECT_DOUBLE_EQ(t.median, 0);
  EXPECT_EQ(t.flagged, 0);
  EXPECT_DOUBLE_EQ(t.top.front().score, 12);
}

TEST(Flagging, ACopyInAnAllZeroClassIsFlagged) {
  TaskSimilarity t;
  scorePairs(names(8), {{2, 5, 88}, {5, 2, 90}}, &t);
  EXPECT_EQ(t.flagged, 1);
  EXPECT_EQ(t.top.front().first, "s12");
  EXPECT_EQ(t.top.front().second, "s15");
}

TEST(Flagging, ATinyClassListsItsPairsAndFlagsNothing) {
  TaskSimilarity t;
  scorePairs(names(3), {{0, 1, 100}, {1, 0, 100}}, &t);
  EXPECT_EQ(t.pairs, 3);
  EXPECT_EQ(t.flagged, 0);
  EXPECT_EQ(t.top.size(), 3u);
  EXPECT_DOUBLE_EQ(t.top.front().score, 100);
  EXPECT_FALSE(t.top.front().flagged);
  EXPECT_NE(t.note.find("too few"), std::string::npos) << t.note;
}

TEST(Flagging, PairsAreNamedInOrderWhateverTheIndexOrder) {
  TaskSimilarity t;
  scorePairs({"zoe", "amy"}, {{0, 1, 40}, {1, 0, 70}}, &t);
  ASSERT_EQ(t.top.size(), 1u);
  EXPECT_EQ(t.top[0].first, "amy");
  EXPECT_EQ(t.top[0].second, "zoe");
  EXPECT_EQ(t.top[0].firstInSecond, 70);
  EXPECT_EQ(t.top[0].secondInFirst, 40);
}

TEST(Flagging, QuartilesInterpolate) {
  EXPECT_DOUBLE_EQ(quantile({0, 10, 20, 30}, 0.5), 15);
  EXPECT_DOUBLE_EQ(quantile({0, 10, 20, 30}, 0.25), 7.5);
  EXPECT_DOUBLE_EQ(quantile({}, 0.5), 0);
}

}  // namespace
}  // namespace clgrade
