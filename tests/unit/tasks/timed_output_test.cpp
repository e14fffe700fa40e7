// The rows a check at the timing size reads: drawn from the run's hidden seed, so a kernel (which
// runs before they are chosen) cannot know them.
#include <gtest/gtest.h>

#include "tasks/timed_output.h"

namespace clgrade {
namespace {

TEST(TimedOutput, SampledRowsFollowTheSeedAndTheLastRowRule) {
  const std::vector<int> a = sampleRows(4096, 1, true);
  EXPECT_EQ(a, sampleRows(4096, 1, true));  // reproducible with the seed
  EXPECT_NE(a, sampleRows(4096, 2, true));
  EXPECT_EQ(a.size(), 32u);
  EXPECT_EQ(a.front(), 0);
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
  for (int y : a) EXPECT_LT(y, 4095);  // the last row is not graded
  EXPECT_EQ(sampleRows(3, 7, true), (std::vector<int>{0, 1}));
  EXPECT_EQ(sampleRows(3, 7, false), (std::vector<int>{0, 1, 2}));
}

}  // namespace
}  // namespace clgrade
