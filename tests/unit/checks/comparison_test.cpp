// The course rule: |diff| < 1e-4 per value, mean squared error < 1e-10, NaN fails, the last row
// skipped but reported; errors located at the border, tile edges or inside.
#include <gtest/gtest.h>

#include <stdexcept>

#include <cmath>

#include "checks/comparison.h"

namespace clgrade {
namespace {

Image ramp(int w, int h, int c = 1) {
  Image img(w, h, c);
  for (size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = static_cast<float>(i % 97) / 97.0f;
  return img;
}

const RegionModel kTiles{1, 1, 8, 4};

TEST(Comparison, IdenticalImagesPass) {
  const Image a = ramp(20, 10);
  const Comparison c = compareImages(a, a, CompareRule{}, kTiles);
  EXPECT_TRUE(c.passed);
  EXPECT_EQ(c.compared, 20 * 9);  // last row skipped by default
  EXPECT_EQ(c.bad, 0);
}

// Issue 11: an output shifted by one pixel is a common bug whose "N of M values wrong" says nothing.
TEST(Comparison, AShiftByOnePixelIsNamed) {
  Image expected(30, 12, 2);
  for (size_t i = 0; i < expected.pixels.size(); ++i)
    expected.pixels[i] = static_cast<float>((i * 7919) % 1009) / 1009.0f;
  Image actual = expected;
  for (int c = 0; c < 2; ++c)
    for (int y = 0; y < 12; ++y)
      for (int x = 0; x < 30; ++x) actual.at(c, x, y) = x + 1 < 30 ? expected.at(c, x + 1, y) : 0.0f;
  const std::string hint = shiftHint(expected, actual, CompareRule{});
  EXPECT_NE(hint.find("(x, y) holds the expected value of (x + 1, y)"), std::string::npos) << hint;
  EXPECT_EQ(shiftHint(expected, expected, CompareRule{}), "");
  Image noise = expected;  // wrong, but not a shift
  for (float& v : noise.pixels) v = 1.0f - v;
  EXPECT_EQ(shiftHint(expected, noise, CompareRule{}), "");
}

TEST(Comparison, SmallDifferencesPassLargeOnesFail) {
  const Image a = ramp(20, 10);
  Image b = a;
  b.at(0, 5, 5) += 5e-5f;  // squared 2.5e-9 < 1e-8; mean stays below 1e-10
  EXPECT_TRUE(compareImages(a, b, CompareRule{}, kTiles).passed);
  b.at(0, 5, 5) += 1e-3f;
  const Comparison c = compareImages(a, b, CompareRule{}, kTiles);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.bad, 1);
  ASSERT_EQ(c.firstBad.size(), 1u);
  EXPECT_EQ(c.firstBad[0].x, 5);
  EXPECT_EQ(c.firstBad[0].y, 5);
}

// A keeper's output of another size never reaches the comparison (a download has the case's size);
// if one did, it is the harness's bug, said as such, not values read past the image.
TEST(Comparison, ImagesOfDifferentSizesAreAHarnessError) {
  EXPECT_THROW(compareImages(ramp(20, 10), ramp(20, 9), CompareRule{}, kTiles), std::logic_error);
  EXPECT_THROW(compareImages(ramp(20, 10), ramp(10, 20), CompareRule{}, kTiles), std::logic_error);
}

TEST(Comparison, MeanRuleCatchesManySmallErrors) {
  const Image a = ramp(20, 10);
  Image b = a;
  for (float& v : b.pixels) v += 5e-5f;  // each 2.5e-9: below the max, mean above 1e-10
  const Comparison c = compareImages(a, b, CompareRule{}, kTiles);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.bad, 0);
  EXPECT_NE(c.summary().find("mean squared error"), std::string::npos);
}

TEST(Comparison, NanFailsEverywhereButTheSkippedLastRow) {
  const Image a = ramp(20, 10);
  Image b = a;
  b.at(0, 3, 9) = NAN;  // last row: skipped, still reported
  Comparison c = compareImages(a, b, CompareRule{}, kTiles);
  EXPECT_TRUE(c.passed);
  EXPECT_EQ(c.lastRowNan, 1);
  EXPECT_NE(c.details().back().find("1 wrong values, 1 NaN"), std::string::npos) << c.details().back();
  CompareRule strict;
  strict.skipLastRow = false;
  c = compareImages(a, b, strict, kTiles);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.nan, 1);
  b.at(0, 3, 2) = INFINITY;
  EXPECT_FALSE(compareImages(a, b, CompareRule{}, kTiles).passed);
}

TEST(Comparison, RegionsSayWhereTheErrorsAre) {
  const Image a = ramp(32, 16);
  Image b = a;
  b.at(0, 0, 5) += 1;   // image border
  b.at(0, 8, 5) += 1;   // first column of the second 8-wide tile: tile edge
  b.at(0, 12, 6) += 1;  // inside (x % 8 = 4, y % 4 = 2)
  b.at(0, 13, 6) += 1;  // inside
  const Comparison c = compareImages(a, b, CompareRule{}, kTiles);
  EXPECT_EQ(c.borderBad, 1);
  EXPECT_EQ(c.tileEdgeBad, 1);
  EXPECT_EQ(c.interiorBad, 2);
  EXPECT_NE(c.summary().find("1 at the image border, 1 at tile/halo edges, 2 inside tiles"), std::string::npos)
      << c.summary();
  EXPECT_EQ(c.details().front(), "wrong values lie in x 0..13, y 5..6");
}

TEST(Comparison, DifferenceImageHoldsSquaredErrorIncludingLastRow) {
  const Image a = ramp(4, 3);
  Image b = a;
  b.at(0, 1, 2) += 0.5f;
  const Comparison c = compareImages(a, b, CompareRule{}, kTiles);
  EXPECT_FLOAT_EQ(c.difference.at(0, 1, 2), 0.25f);
  EXPECT_FLOAT_EQ(c.difference.at(0, 0, 0), 0.0f);
}

TEST(Comparison, ExactComparisonOfFlags) {
  std::vector<int32_t> want{1, 2, 4, 8, 0, 0}, got = want;
  EXPECT_TRUE(compareExact(want, got, 3, 2, false, kTiles).passed);
  got[1] = 3;
  const Comparison c = compareExact(want, got, 3, 2, false, kTiles);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.bad, 1);
  EXPECT_EQ(c.firstBad[0].x, 1);
  EXPECT_EQ(c.firstBad[0].actual, 3);
  got[1] = 2;
  got[4] = 7;  // last row, skipped
  EXPECT_TRUE(compareExact(want, got, 3, 2, true, kTiles).passed);
}

}  // namespace
}  // namespace clgrade
