// Image basics, PFM and PNG I/O, and the squared-error map.
#include <gtest/gtest.h>
#include <png.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "../../scratch.h"
#include "image/difference.h"
#include "image/image.h"
#include "image/pfm.h"
#include "image/png.h"

namespace clgrade {
namespace {

/// In this test process's own folder: two runs of the tests at once never share a file.
std::string imageTempPath(const std::string& name) {
  static const std::filesystem::path folder = test::freshFolder("clgrade_image_test", "files");
  return (folder / name).string();
}

void writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string fileText(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// Little-endian bytes of a float, as a PFM stores it.
std::string le(float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>((u >> (8 * i)) & 0xff);
  return s;
}

bool sameBits(const Image& a, const Image& b) {
  return a.width == b.width && a.height == b.height && a.channels == b.channels &&
         std::memcmp(a.pixels.data(), b.pixels.data(), a.pixels.size() * sizeof(float)) == 0;
}

Image imageRamp(int w, int h, int c) {
  Image img(w, h, c);
  for (size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = 0.25f * static_cast<float>(i) - 3.0f;
  return img;
}

TEST(Image, ConstructorFillsAndChannelCopies) {
  Image img(3, 2, 2, 7.0f);
  EXPECT_EQ(img.pixels.size(), 12u);
  EXPECT_EQ(img.at(1, 2, 1), 7.0f);
  img.at(1, 2, 1) = 5.0f;
  const Image one = img.channel(1);
  EXPECT_EQ(one.channels, 1);
  EXPECT_EQ(one.width, 3);
  EXPECT_EQ(one.height, 2);
  EXPECT_EQ(one.at(0, 2, 1), 5.0f);
  EXPECT_EQ(one.at(0, 0, 0), 7.0f);
  EXPECT_THROW(img.channel(2), std::out_of_range);
}

TEST(Pfm, RoundTripThreeChannels) {
  const Image img = imageRamp(5, 3, 3);
  std::string err;
  ASSERT_TRUE(writePfm(imageTempPath("rgb.pfm"), img, &err)) << err;
  Image back;
  ASSERT_TRUE(readPfm(imageTempPath("rgb.pfm"), &back, &err)) << err;
  EXPECT_TRUE(sameBits(img, back));
}

TEST(Pfm, RoundTripOneChannelWithSpecialValues) {
  Image img = imageRamp(4, 4, 1);
  img.at(0, 1, 1) = std::numeric_limits<float>::quiet_NaN();
  img.at(0, 2, 1) = -std::numeric_limits<float>::infinity();
  img.at(0, 3, 3) = -0.0f;
  std::string err;
  ASSERT_TRUE(writePfm(imageTempPath("gray.pfm"), img, &err)) << err;
  Image back;
  ASSERT_TRUE(readPfm(imageTempPath("gray.pfm"), &back, &err)) << err;
  EXPECT_TRUE(sameBits(img, back));  // bit-exact, NaN and -0 included
}

TEST(Pfm, BytesAreHeaderThenRowZeroFirstInterleaved) {
  Image img(2, 2, 3);
  // Value = 100 * y + 10 * x + channel, so every float says where it came from.
  for (int c = 0; c < 3; ++c)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) img.at(c, x, y) = static_cast<float>(100 * y + 10 * x + c);
  const std::string header = "PF\n2 2\n-1.0\n";
  std::string expected = header;
  for (float v : {0.f, 1.f, 2.f, 10.f, 11.f, 12.f, 100.f, 101.f, 102.f, 110.f, 111.f, 112.f}) expected += le(v);
  EXPECT_EQ(pfmBytes(img), expected);
  std::string err;
  ASSERT_TRUE(writePfm(imageTempPath("order.pfm"), img, &err)) << err;
  EXPECT_EQ(fileText(imageTempPath("order.pfm")), expected);
  EXPECT_EQ(pfmBytes(Image(1, 1, 1, 1.0f)), std::string("Pf\n1 1\n-1.0\n") + le(1.0f));
}

TEST(Pfm, ReadsHandWrittenFileWithoutFlip) {
  // Stored rows: first 1 2 3, then 4 5 6; the first stored row is y = 0.
  std::string bytes = "Pf\n3 2\n-1\n";
  for (float v : {1.f, 2.f, 3.f, 4.f, 5.f, 6.f}) bytes += le(v);
  writeFile(imageTempPath("hand.pfm"), bytes);
  Image img;
  std::string err;
  ASSERT_TRUE(readPfm(imageTempPath("hand.pfm"), &img, &err)) << err;
  EXPECT_EQ(img.channels, 1);
  EXPECT_EQ(img.at(0, 0, 0), 1.0f);
  EXPECT_EQ(img.at(0, 2, 0), 3.0f);
  EXPECT_EQ(img.at(0, 0, 1), 4.0f);
  // Any negative scale is little-endian; other whitespace between header tokens is fine.
  bytes = "PF 1 1 -0.5\n" + le(0.5f) + le(0.25f) + le(0.125f);
  writeFile(imageTempPath("hand2.pfm"), bytes);
  ASSERT_TRUE(readPfm(imageTempPath("hand2.pfm"), &img, &err)) << err;
  EXPECT_EQ(img.channels, 3);
  EXPECT_EQ(img.at(2, 0, 0), 0.125f);
}

// Writes `bytes`, reads it back, and expects a failure whose message contains `what`.
void expectRejected(const std::string& name, const std::string& bytes, const std::string& what) {
  writeFile(imageTempPath(name), bytes);
  Image img(1, 1, 1, 42.0f);
  std::string err;
  EXPECT_FALSE(readPfm(imageTempPath(name), &img, &err)) << name;
  EXPECT_NE(err.find(what), std::string::npos) << name << ": " << err;
  EXPECT_EQ(img.at(0, 0, 0), 42.0f) << name << ": output changed on failure";
}

TEST(Pfm, RejectsMalformedTruncatedAndBigEndianFiles) {
  const std::string four = le(1.f) + le(2.f) + le(3.f) + le(4.f);
  expectRejected("empty.pfm", "", "not a PFM");
  expectRejected("magic.pfm", "P6\n2 2\n255\n", "not a PFM");
  expectRejected("magic2.pfm", "PFX\n2 2\n-1.0\n", "not a PFM");
  expectRejected("nowidth.pfm", "Pf\n", "missing width");
  expectRejected("noheight.pfm", "Pf\n2", "missing height");
  expectRejected("noscale.pfm", "Pf\n2 2\n", "missing scale");
  expectRejected("badwidth.pfm", "Pf\nx 2\n-1.0\n" + four, "bad width");
  expectRejected("negwidth.pfm", "Pf\n-2 2\n-1.0\n" + four, "bad width");
  expectRejected("zeroheight.pfm", "Pf\n2 0\n-1.0\n", "bad height");
  expectRejected("huge.pfm", "Pf\n65536 65536\n-1.0\n" + four, "too large");
  expectRejected("hugeside.pfm", "Pf\n99999999 1\n-1.0\n" + four, "bad width");
  expectRejected("longtoken.pfm", "Pf\n12345678901234567890 1\n-1.0\n", "bad width");
  expectRejected("badscale.pfm", "Pf\n2 2\nabc\n" + four, "bad scale");
  expectRejected("zeroscale.pfm", "Pf\n2 2\n0\n" + four, "bad scale");
  expectRejected("bigendian.pfm", "Pf\n2 2\n1.0\n" + four, "big-endian");
  expectRejected("nodata.pfm", "Pf\n2 2\n-1.0", "no data");
  expectRejected("short.pfm", "Pf\n2 2\n-1.0\n" + le(1.f) + le(2.f) + "ab", "truncated");
  expectRejected("shortrgb.pfm", "PF\n2 2\n-1.0\n" + four, "truncated");
  expectRejected("trailing.pfm", "Pf\n2 2\n-1.0\n" + four + "xyz", "unexpected bytes");

  Image img;
  std::string err;
  EXPECT_FALSE(readPfm(imageTempPath("does_not_exist.pfm"), &img, &err));
  EXPECT_NE(err.find("cannot open"), std::string::npos) << err;
}

TEST(Pfm, WriteRejectsOtherChannelCounts) {
  std::string err;
  EXPECT_FALSE(writePfm(imageTempPath("two.pfm"), Image(2, 2, 2), &err));
  EXPECT_NE(err.find("1 or 3 channels"), std::string::npos) << err;
  EXPECT_FALSE(writePfm("/nonexistent-dir/x.pfm", Image(2, 2, 1), &err));
  EXPECT_NE(err.find("/nonexistent-dir/x.pfm: No such file or directory"), std::string::npos) << err;
}

// Reads a PNG with libpng's simplified API as 8-bit RGB.
bool readPngRgb(const std::string& path, int* w, int* h, std::vector<uint8_t>* rgb, uint32_t* format) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) return false;
  *format = image.format;
  image.format = PNG_FORMAT_RGB;
  rgb->assign(PNG_IMAGE_SIZE(image), 0);
  if (!png_image_finish_read(&image, nullptr, rgb->data(), 0, nullptr)) return false;
  *w = static_cast<int>(image.width);
  *h = static_cast<int>(image.height);
  return true;
}

TEST(Png, WritesRgbThatLibpngReadsBack) {
  Image img(3, 2, 3, 0.0f);
  img.at(0, 2, 1) = 1.0f;                                     // pixel (2,1): red 255
  img.at(1, 2, 1) = 0.5f;                                     // green 128 (127.5 rounded)
  img.at(2, 2, 1) = 2.0f;                                     // blue clamped to 255
  img.at(0, 0, 1) = -1.0f;                                    // clamped to 0
  img.at(1, 1, 0) = std::numeric_limits<float>::quiet_NaN();  // pixel (1,0) magenta
  std::string err;
  ASSERT_TRUE(writePng(imageTempPath("rgb.png"), img, 0.0f, 1.0f, &err)) << err;
  int w = 0, h = 0;
  uint32_t format = 0;
  std::vector<uint8_t> rgb;
  ASSERT_TRUE(readPngRgb(imageTempPath("rgb.png"), &w, &h, &rgb, &format));
  EXPECT_EQ(w, 3);
  EXPECT_EQ(h, 2);
  const uint8_t* p = &rgb[(1 * 3 + 2) * 3];
  EXPECT_EQ(p[0], 255);
  EXPECT_EQ(p[1], 128);
  EXPECT_EQ(p[2], 255);
  const uint8_t* m = &rgb[(0 * 3 + 1) * 3];
  EXPECT_EQ(m[0], 255);
  EXPECT_EQ(m[1], 0);
  EXPECT_EQ(m[2], 255);
  EXPECT_EQ(rgb[(1 * 3 + 0) * 3], 0);
}

TEST(Png, WritesGrayWithRange) {
  Image img(2, 1, 1);
  img.at(0, 0, 0) = -1.0f;  // lo -> 0
  img.at(0, 1, 0) = 0.0f;   // middle of [-1, 1] -> 128
  std::string err;
  ASSERT_TRUE(writePng(imageTempPath("gray.png"), img, -1.0f, 1.0f, &err)) << err;
  int w = 0, h = 0;
  uint32_t format = 0;
  std::vector<uint8_t> rgb;
  ASSERT_TRUE(readPngRgb(imageTempPath("gray.png"), &w, &h, &rgb, &format));
  EXPECT_EQ(format & PNG_FORMAT_FLAG_COLOR, 0u);  // stored as gray
  EXPECT_EQ(w, 2);
  EXPECT_EQ(rgb[0], 0);
  EXPECT_EQ(rgb[3], 128);
  EXPECT_FALSE(writePng(imageTempPath("bad.png"), img, 1.0f, 1.0f, &err));
  EXPECT_FALSE(writePng(imageTempPath("bad.png"), Image(2, 2, 2), 0.0f, 1.0f, &err));
  EXPECT_FALSE(writePng("/nonexistent-dir/x.png", img, 0.0f, 1.0f, &err));
  EXPECT_NE(err.find("/nonexistent-dir/x.png: No such file or directory"), std::string::npos) << err;
}

TEST(Png, DifferenceMapColours) {
  Image e(4, 1, 1);
  e.at(0, 0, 0) = 0.0f;                                     // black
  e.at(0, 1, 0) = 1e-12f;                                   // harmless: blue
  e.at(0, 2, 0) = 1e-4f;                                    // fails: red to yellow
  e.at(0, 3, 0) = std::numeric_limits<float>::quiet_NaN();  // magenta
  std::string err;
  ASSERT_TRUE(writeDifferencePng(imageTempPath("diff.png"), e, 1e-8f, &err)) << err;
  int w = 0, h = 0;
  uint32_t format = 0;
  std::vector<uint8_t> rgb;
  ASSERT_TRUE(readPngRgb(imageTempPath("diff.png"), &w, &h, &rgb, &format));
  ASSERT_EQ(w, 4);
  EXPECT_EQ(rgb[0] + rgb[1] + rgb[2], 0);
  EXPECT_EQ(rgb[3], 0);
  EXPECT_GT(rgb[5], rgb[4]);
  EXPECT_EQ(rgb[6], 255);
  EXPECT_EQ(rgb[8], 0);
  EXPECT_EQ(rgb[9], 255);
  EXPECT_EQ(rgb[10], 0);
  EXPECT_EQ(rgb[11], 255);
  EXPECT_FALSE(writeDifferencePng(imageTempPath("diff2.png"), e, 0.0f, &err));
  EXPECT_FALSE(writeDifferencePng(imageTempPath("diff3.png"), Image(2, 2, 3), 1e-8f, &err));
}

TEST(SquaredError, ValuesNanAndInfinity) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  Image a(5, 1, 1), b(5, 1, 1);
  a.pixels = {1.0f, 0.5f, nan, 2.0f, inf};
  b.pixels = {1.0f, 0.25f, 1.0f, nan, inf};
  const Image e = squaredError(a, b);
  EXPECT_EQ(e.at(0, 0, 0), 0.0f);
  EXPECT_EQ(e.at(0, 1, 0), 0.0625f);
  EXPECT_TRUE(std::isnan(e.at(0, 2, 0)));  // NaN expected side
  EXPECT_TRUE(std::isnan(e.at(0, 3, 0)));  // NaN actual side
  EXPECT_TRUE(std::isnan(e.at(0, 4, 0)));  // inf on either side, even inf vs inf
  EXPECT_THROW(squaredError(Image(2, 2, 1), Image(2, 2, 3)), std::invalid_argument);
  EXPECT_THROW(squaredError(Image(2, 2, 1), Image(2, 3, 1)), std::invalid_argument);
}

TEST(SquaredError, IsPerChannel) {
  Image a(1, 1, 3), b(1, 1, 3);
  a.pixels = {1.0f, 2.0f, 3.0f};
  b.pixels = {1.0f, 0.0f, 6.0f};
  const Image e = squaredError(a, b);
  EXPECT_EQ(e.channels, 3);
  EXPECT_EQ(e.pixels, (std::vector<float>{0.0f, 4.0f, 9.0f}));
}

}  // namespace
}  // namespace clgrade
