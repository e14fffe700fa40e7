// The CPU references against small cases computed by hand (the expected numbers are written
// out below, with the arithmetic in comments, never produced by the code under test).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "cpu/reference.h"

namespace clgrade::ref {
namespace {

// A 4 x 3 one-channel image with src(x, y) = 1 + x + 4y:
//    1  2  3  4
//    5  6  7  8
//    9 10 11 12
Image counting4x3() {
  Image img(4, 3, 1);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 4; ++x) img.at(0, x, y) = static_cast<float>(1 + x + 4 * y);
  return img;
}

Image row(const std::vector<float>& v) {
  Image img(static_cast<int>(v.size()), 1, 1);
  img.pixels = v;
  return img;
}

Image column(const std::vector<float>& v) {
  Image img(1, static_cast<int>(v.size()), 1);
  img.pixels = v;
  return img;
}

TEST(Conv3x3, ConstantsAndMultiplierRule) {
  const auto box = conv3x3Constants({1, 1, 1, 1, 1, 1, 1, 1, 1}, 0.0f);
  EXPECT_FLOAT_EQ(box[9], 1.0f / 9.0f);
  EXPECT_EQ(box[10], 0.0f);
  // Edge detector: 8 * (-1/8) + 1 = 0, not > 0, so multiplier 1.
  const float e = -0.125f;
  EXPECT_EQ(conv3x3Constants({e, e, e, e, 1, e, e, e, e}, 0.0f)[9], 1.0f);
  // Emboss sums to 0 as well; its offset is carried in [10].
  const auto emboss = conv3x3Constants({2, 0, 0, 0, -1, 0, 0, 0, -1}, 0.5f);
  EXPECT_EQ(emboss[9], 1.0f);
  EXPECT_EQ(emboss[10], 0.5f);
  EXPECT_EQ(emboss[0], 2.0f);
  EXPECT_EQ(emboss[8], -1.0f);
  // Negative sum: multiplier 1, not 1/sum.
  EXPECT_EQ(conv3x3Constants({0, 0, 0, 0, -2, 0, 0, 0, 0}, 0.0f)[9], 1.0f);
  // Sum 4: multiplier 1/4.
  EXPECT_EQ(conv3x3Constants({1, 2, 0, 0, 0, 0, 0, -3, 4}, 0.0f)[9], 0.25f);
}

TEST(Conv3x3, AsymmetricKernelIsCorrelationWithOffsetAndBorders) {
  // K = [1 2 0; 0 0 0; 0 -3 4], sum 4 -> multiplier 1/4, offset 0.5:
  // out = (src(x-1,y-1) + 2 src(x,y-1) - 3 src(x,y+1) + 4 src(x+1,y+1)) / 4 + 0.5,
  // taps outside the image skipped.
  const auto k = conv3x3Constants({1, 2, 0, 0, 0, 0, 0, -3, 4}, 0.5f);
  const Image out = convolve3x3(counting4x3(), k);
  // (1,1): 1 + 2*2 - 3*10 + 4*11 = 19 -> 19/4 + 0.5 = 5.25
  EXPECT_EQ(out.at(0, 1, 1), 5.25f);
  // (2,1): 2 + 2*3 - 3*11 + 4*12 = 23 -> 6.25
  EXPECT_EQ(out.at(0, 2, 1), 6.25f);
  // (0,0): top row outside; -3*src(0,1) + 4*src(1,1) = -15 + 24 = 9 -> 2.75
  EXPECT_EQ(out.at(0, 0, 0), 2.75f);
  // (3,0): -3*src(3,1) = -24 (src(4,1) outside) -> -6 + 0.5 = -5.5
  EXPECT_EQ(out.at(0, 3, 0), -5.5f);
  // (3,2): src(2,1) + 2 src(3,1) = 7 + 16 = 23 (bottom row outside) -> 6.25
  EXPECT_EQ(out.at(0, 3, 2), 6.25f);
  // (0,2): 2 src(0,1) = 10 (others outside) -> 3.0
  EXPECT_EQ(out.at(0, 0, 2), 3.0f);
  // A flipped kernel (true convolution) would give at (1,1): 4*1 - 3*2 + 2*10 + 11 = 29 -> 7.75.
  EXPECT_NE(out.at(0, 1, 1), 7.75f);
}

TEST(Conv3x3, EdgeDetectorOnFlatImageShowsSkippedBorderTaps) {
  // Flat image of 1s: inside, 1 - 8/8 = 0; a corner has 3 neighbours: 1 - 3/8 = 0.625;
  // an edge pixel has 5: 1 - 5/8 = 0.375.
  const float e = -0.125f;
  const Image out = convolve3x3(Image(4, 3, 1, 1.0f), conv3x3Constants({e, e, e, e, 1, e, e, e, e}, 0.0f));
  EXPECT_EQ(out.at(0, 1, 1), 0.0f);
  EXPECT_EQ(out.at(0, 2, 1), 0.0f);
  EXPECT_EQ(out.at(0, 0, 0), 0.625f);
  EXPECT_EQ(out.at(0, 3, 2), 0.625f);
  EXPECT_EQ(out.at(0, 1, 0), 0.375f);
  EXPECT_EQ(out.at(0, 0, 1), 0.375f);
}

TEST(Conv3x3, EveryChannel) {
  Image img(1, 1, 3);
  img.pixels = {1.0f, 2.0f, 4.0f};
  // Only the centre tap exists in a 1x1 image. Centre weight 2 (sum 2, multiplier 0.5), offset 1.
  const Image out = convolve3x3(img, conv3x3Constants({0, 0, 0, 0, 2, 0, 0, 0, 0}, 1.0f));
  EXPECT_EQ(out.pixels, (std::vector<float>{2.0f, 3.0f, 5.0f}));  // src*2*0.5 + 1
}

TEST(Separable, HorizontalAsymmetricWeightsUseIndexRMinusK) {
  // w = {1, 10, 100}, R = 1: tmp(x) = 100 src(x-1) + 10 src(x) + 1 src(x+1).
  const Image out = convolveHorizontal(row({1, 2, 3, 4}), {1, 10, 100});
  EXPECT_EQ(out.pixels, (std::vector<float>{12, 123, 234, 340}));
  // x0: 10*1 + 2 = 12 (left tap outside); x3: 100*3 + 10*4 = 340 (right tap outside).
}

TEST(Separable, VerticalAsymmetricWeightsUseIndexRMinusK) {
  // out(y) = 100 src(y-1) + 10 src(y) + src(y+1).
  const Image out = convolveVertical(column({1, 2, 3}), {1, 10, 100});
  EXPECT_EQ(out.pixels, (std::vector<float>{12, 123, 230}));
}

TEST(Separable, RadiusWiderThanTheImage) {
  // w = {1,2,3,4,5}, R = 2, row {1, 10, 100}: tmp(x) = sum_k src(x+k) w[2-k]
  // x0: 1*3 + 10*2 + 100*1 = 123; x1: 1*4 + 10*3 + 100*2 = 234; x2: 1*5 + 10*4 + 100*3 = 345.
  EXPECT_EQ(convolveHorizontal(row({1, 10, 100}), {1, 2, 3, 4, 5}).pixels, (std::vector<float>{123, 234, 345}));
  EXPECT_EQ(convolveVertical(column({1, 10, 100}), {1, 2, 3, 4, 5}).pixels, (std::vector<float>{123, 234, 345}));
}

TEST(Separable, TwoDimensionsAndChannels) {
  // Horizontal then vertical with w = {0, 1, 1} (tmp(x) = src(x-1) + src(x)) on the counting image,
  // channel 1 = channel 0 doubled.
  Image src(4, 3, 2);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 4; ++x) {
      src.at(0, x, y) = static_cast<float>(1 + x + 4 * y);
      src.at(1, x, y) = 2.0f * static_cast<float>(1 + x + 4 * y);
    }
  const Image tmp = convolveHorizontal(src, {0, 1, 1});
  // Row 0: 1, 1+2, 2+3, 3+4 = 1 3 5 7; row 1: 5 11 13 15; row 2: 9 19 21 23.
  EXPECT_EQ(tmp.at(0, 0, 0), 1.0f);
  EXPECT_EQ(tmp.at(0, 3, 1), 15.0f);
  const Image out = convolveVertical(tmp, {0, 1, 1});
  // out(x,y) = tmp(x,y-1) + tmp(x,y): (1,2) = 11 + 19 = 30; (0,0) = 1.
  EXPECT_EQ(out.at(0, 1, 2), 30.0f);
  EXPECT_EQ(out.at(0, 0, 0), 1.0f);
  EXPECT_EQ(out.at(1, 1, 2), 60.0f);
  EXPECT_THROW(convolveHorizontal(src, {1, 2}), std::invalid_argument);
}

TEST(Discontinuity, FlagsForDepthEdgeNormalEdgeAndBorders) {
  // 3 x 2 pixels. Normals (0,0,1) except (2,0) = (0, 0.6, 0.8) (dot 0.8 with the others: a
  // normal edge) and (0,1) = (0,0,-1) (dot -1: |dot| = 1, same surface). Depth 0.5 except
  // (1,1) = 0.6 (a depth edge) and (0,0) = 0.52 (a step of 0.02: no edge).
  Image n(3, 2, 3), d(3, 2, 1, 0.5f);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) n.at(2, x, y) = 1.0f;
  n.at(1, 2, 0) = 0.6f;
  n.at(2, 2, 0) = 0.8f;
  n.at(2, 0, 1) = -1.0f;
  d.at(0, 1, 1) = 0.6f;
  d.at(0, 0, 0) = 0.52f;
  // Pairs: (1,0)-(2,0) normal; (2,0)-(2,1) normal; (0,1)-(1,1), (1,1)-(2,1), (1,0)-(1,1) depth.
  // (0,0): left+up border = 1|4 = 5;       (1,0): right 2, up border 4, down 8 = 14;
  // (2,0): left 1, right border 2, up 4, down 8 = 15;  (0,1): left 1, right 2, down 8 = 11;
  // (1,1): all four = 15;                  (2,1): left 1, right 2, up 4, down 8 = 15.
  const std::vector<int32_t> flags = discontinuityFlags(n, d);
  EXPECT_EQ(flags, (std::vector<int32_t>{5, 14, 15, 11, 15, 15}));
}

TEST(Discontinuity, SinglePixelHasAllBorderBits) {
  Image n(1, 1, 3), d(1, 1, 1);
  n.at(2, 0, 0) = 1.0f;
  EXPECT_EQ(discontinuityFlags(n, d), (std::vector<int32_t>{15}));
}

// Weights {1, 2, 4, 8, 16}, R = 2: the centre weight is 4; walking left uses w[R-k] for
// k = -1, -2, i.e. 8 then 16; walking right uses k = 1, 2, i.e. 2 then 1.
const std::vector<float> kWalkWeights{1, 2, 4, 8, 16};

TEST(Bilateral, HorizontalWalkStopsAtFlagsAndBorders) {
  // Row 10 20 30 | 40 50 60 with a discontinuity between x = 2 and 3 (bit 2 on x = 2, bit 1 on
  // x = 3) and the border bits on x = 0 (1) and x = 5 (2).
  const Image src = row({10, 20, 30, 40, 50, 60});
  const std::vector<int32_t> flags{1, 0, 2, 1, 0, 2};
  const Image out = bilateralHorizontal(src, flags, kWalkWeights);
  // x0: 10*4 | left stops (bit 1) | right 20*2 + 30*1   -> 110 / 7
  EXPECT_FLOAT_EQ(out.at(0, 0, 0), 110.0f / 7.0f);
  // x1: 20*4 + 10*8 (then x0 has bit 1) + 30*2 (then x2 has bit 2) -> 220 / 14
  EXPECT_FLOAT_EQ(out.at(0, 1, 0), 220.0f / 14.0f);
  // x2: 30*4 + 20*8 + 10*16 (R steps) | right stops      -> 440 / 28
  EXPECT_FLOAT_EQ(out.at(0, 2, 0), 440.0f / 28.0f);
  // x3: 40*4 | left stops | 50*2 + 60*1                  -> 320 / 7
  EXPECT_FLOAT_EQ(out.at(0, 3, 0), 320.0f / 7.0f);
  // x4: 50*4 + 40*8 (x3 has bit 1) + 60*2 (x5 has bit 2) -> 640 / 14
  EXPECT_FLOAT_EQ(out.at(0, 4, 0), 640.0f / 14.0f);
  // x5: 60*4 + 50*8 + 40*16 | right stops                -> 1280 / 28
  EXPECT_FLOAT_EQ(out.at(0, 5, 0), 1280.0f / 28.0f);
}

TEST(Bilateral, WalkStopsAtTheImageBorderEvenWithoutFlags) {
  // No flag bits at all: only x + k == 0 and x + k == W - 1 stop the walk.
  const Image out = bilateralHorizontal(row({10, 20, 30}), {0, 0, 0}, kWalkWeights);
  // x0: 40 + 20*2 + 30*1 = 110, wsum 4 + 2 + 1 = 7
  EXPECT_FLOAT_EQ(out.at(0, 0, 0), 110.0f / 7.0f);
  // x1: 80 + 10*8 + 30*2 = 220, wsum 14
  EXPECT_FLOAT_EQ(out.at(0, 1, 0), 220.0f / 14.0f);
  // x2: 120 + 20*8 + 10*16 = 440, wsum 28
  EXPECT_FLOAT_EQ(out.at(0, 2, 0), 440.0f / 28.0f);
  const Image v = bilateralVertical(column({10, 20, 30}), {0, 0, 0}, kWalkWeights);
  EXPECT_FLOAT_EQ(v.at(0, 0, 2), 440.0f / 28.0f);
}

TEST(Bilateral, VerticalWalkUsesOnlyUpAndDownBits) {
  // The horizontal test turned into a column, bits 4/8 instead of 1/2, and left/right bits set
  // everywhere (3), which the vertical pass must ignore.
  const Image src = column({10, 20, 30, 40, 50, 60});
  const std::vector<int32_t> flags{4 | 3, 3, 8 | 3, 4 | 3, 3, 8 | 3};
  const Image out = bilateralVertical(src, flags, kWalkWeights);
  EXPECT_FLOAT_EQ(out.at(0, 0, 0), 110.0f / 7.0f);
  EXPECT_FLOAT_EQ(out.at(0, 0, 1), 220.0f / 14.0f);
  EXPECT_FLOAT_EQ(out.at(0, 0, 2), 440.0f / 28.0f);
  EXPECT_FLOAT_EQ(out.at(0, 0, 3), 320.0f / 7.0f);
  EXPECT_FLOAT_EQ(out.at(0, 0, 4), 640.0f / 14.0f);
  EXPECT_FLOAT_EQ(out.at(0, 0, 5), 1280.0f / 28.0f);
  // And the horizontal pass ignores the up/down bits: a 1-pixel-wide image has nothing to walk.
  EXPECT_EQ(bilateralHorizontal(src, flags, kWalkWeights).pixels, src.pixels);
}

TEST(Bilateral, FlagCountMustMatch) {
  EXPECT_THROW(bilateralHorizontal(row({1, 2}), {0}, kWalkWeights), std::invalid_argument);
}

TEST(Histogram, GrayscaleOrderAndExactValues) {
  Image rgb(5, 1, 3);
  // Pixels: black, white, pure red, pure green, pure blue.
  const float px[5][3] = {{0, 0, 0}, {1, 1, 1}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int x = 0; x < 5; ++x)
    for (int c = 0; c < 3; ++c) rgb.at(c, x, 0) = px[x][c];
  const Image g = grayscale(rgb);
  ASSERT_EQ(g.channels, 1);
  EXPECT_EQ(g.at(0, 0, 0), 0.0f);
  // 0.3f + 0.59f = 0.89f (rounded), + 0.11f rounds to exactly 1.0f: white is bin 64 before the clamp.
  EXPECT_EQ(g.at(0, 1, 0), 1.0f);
  EXPECT_EQ(g.at(0, 2, 0), 0.3f);
  EXPECT_EQ(g.at(0, 3, 0), 0.59f);
  EXPECT_EQ(g.at(0, 4, 0), 0.11f);
}

TEST(Histogram, BinsEdgesAndClamping) {
  const float edge1 = 1.0f / 64.0f;  // 0.015625, exactly representable
  const float below1 = std::nextafter(edge1, 0.0f);
  const float edge63 = 63.0f / 64.0f;
  const float below63 = std::nextafter(edge63, 0.0f);
  const Image g = row({0.0f, 1.0f, edge1, below1, 0.5f, edge63, below63, -0.5f, 2.0f, 10.5f / 64.0f,
                       std::numeric_limits<float>::quiet_NaN()});
  const std::vector<int32_t> h = histogram(g);
  ASSERT_EQ(h.size(), 64u);
  std::vector<int32_t> expected(64, 0);
  expected[0] = 1 + 1 + 1 + 1;  // 0.0, one float below 1/64, -0.5 (clamped), NaN (documented: bin 0)
  expected[1] = 1;              // exactly 1/64
  expected[10] = 1;             // 10.5/64
  expected[32] = 1;             // 0.5
  expected[62] = 1;             // one float below 63/64
  expected[63] = 1 + 1 + 1;     // exactly 63/64, 1.0 (bin 64 clamped), 2.0 (clamped)
  EXPECT_EQ(h, expected);
}

TEST(Histogram, OtherBinCounts) {
  const std::vector<int32_t> h = histogram(row({0.0f, 0.5f, 0.75f, 1.0f}), 4);
  EXPECT_EQ(h, (std::vector<int32_t>{1, 0, 1, 2}));
}

}  // namespace
}  // namespace clgrade::ref
