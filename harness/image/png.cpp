// PNG export with libpng. Pixels are first turned into 8-bit rows in plain C++; the libpng calls
// live in one small function because libpng reports errors with longjmp, which must not jump
// over C++ objects with destructors. The encoded bytes go to disk through the checked writer.
#include "image/png.h"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "util/files.h"

namespace clgrade {
namespace {

struct Rgb {
  uint8_t r, g, b;
};
constexpr Rgb kMagenta{255, 0, 255};

// Maps [lo, hi] to 0..255, clamped, rounded to nearest.
uint8_t toByte(float v, float lo, float hi) {
  float t = (v - lo) / (hi - lo);
  if (!(t > 0.0f)) t = 0.0f;  // also catches a NaN produced by the division
  if (t > 1.0f) t = 1.0f;
  return static_cast<uint8_t>(t * 255.0f + 0.5f);
}

// libpng's error callback: keep the message, then leave through the jump buffer.
void onPngError(png_structp png, png_const_charp msg) {
  auto* text = static_cast<char*>(png_get_error_ptr(png));
  std::snprintf(text, 256, "%s", msg);
  png_longjmp(png, 1);
}
void onPngWarning(png_structp, png_const_charp) {}

// libpng's output callback: the encoded bytes are appended to a string (the caller's), so the file is
// written whole by the checked writer afterwards. No exception may cross libpng's C frames.
void appendBytes(png_structp png, png_bytep data, size_t length) {
  auto* out = static_cast<std::string*>(png_get_io_ptr(png));
  bool appended = true;
  try {
    out->append(reinterpret_cast<const char*>(data), length);
  } catch (...) {
    appended = false;
  }
  if (!appended) png_error(png, "out of memory while encoding");
}
void flushNothing(png_structp) {}

// Encodes prepared 8-bit rows (gray: 1 byte per pixel, else 3) into *out. Only trivially destructible
// locals here, because of setjmp. On failure returns false with libpng's reason in errText.
bool encodeRows(std::string* out, int width, int height, bool gray, const uint8_t* data, char* errText) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, errText, onPngError, onPngWarning);
  if (!png) {
    std::snprintf(errText, 256, "png_create_write_struct failed");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    std::snprintf(errText, 256, "png_create_info_struct failed");
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_set_write_fn(png, out, appendBytes, flushNothing);
  // Evidence is written for many failing cases: speed matters more than the last few percent of size.
  png_set_compression_level(png, 1);
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
               gray ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  const size_t rowBytes = static_cast<size_t>(width) * (gray ? 1 : 3);
  for (int y = 0; y < height; ++y) {
    png_write_row(png, data + rowBytes * static_cast<size_t>(y));
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

// Encodes the rows, then writes the file through the checked writer (a full disk fails here, and
// leaves a file already at `path` as it was), turning every failure into a message.
bool writeBytes(const std::string& path, int width, int height, bool gray, const std::vector<uint8_t>& data,
                std::string* err) {
  std::string encoded;
  char errText[256] = {0};
  if (!encodeRows(&encoded, width, height, gray, data.data(), errText)) {
    if (err) *err = "writePng " + path + ": " + errText;
    return false;
  }
  std::string why;
  if (!writeFileAtomically(path, encoded, &why)) {
    if (err) *err = "writePng: " + why;
    return false;
  }
  return true;
}

bool checkSize(const std::string& path, const Image& img, std::string* err) {
  if (img.width < 1 || img.height < 1) {
    if (err) *err = "writePng " + path + ": empty image";
    return false;
  }
  return true;
}

// Position of x between 10^a and 10^b on a log scale, clamped to [0, 1].
float logRamp(float x, float a, float b) {
  float t = (std::log10(x) - a) / (b - a);
  return t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
}

}  // namespace

bool writePng(const std::string& path, const Image& img, float lo, float hi, std::string* err) {
  if (!checkSize(path, img, err)) return false;
  if (img.channels != 1 && img.channels != 3) {
    if (err) *err = "writePng " + path + ": 1 or 3 channels expected, not " + std::to_string(img.channels);
    return false;
  }
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) {
    if (err) *err = "writePng " + path + ": the range [lo, hi] must be finite with lo < hi";
    return false;
  }
  // A gray image stays gray unless it holds a non-finite value, which needs colour for magenta.
  bool allFinite = true;
  for (float v : img.pixels) allFinite = allFinite && std::isfinite(v);
  const bool gray = img.channels == 1 && allFinite;
  std::vector<uint8_t> data;
  data.reserve(img.planeSize() * (gray ? 1 : 3));
  for (int y = 0; y < img.height; ++y) {
    for (int x = 0; x < img.width; ++x) {
      if (gray) {
        data.push_back(toByte(img.at(0, x, y), lo, hi));
        continue;
      }
      bool finite = true;
      uint8_t v[3];
      for (int c = 0; c < 3; ++c) {
        const float f = img.at(img.channels == 1 ? 0 : c, x, y);
        finite = finite && std::isfinite(f);
        v[c] = toByte(f, lo, hi);
      }
      const Rgb px = finite ? Rgb{v[0], v[1], v[2]} : kMagenta;
      data.push_back(px.r);
      data.push_back(px.g);
      data.push_back(px.b);
    }
  }
  return writeBytes(path, img.width, img.height, gray, data, err);
}

Rgb8 differenceColour(float e, float failAt, float worst) {
  if (std::isnan(e) || e < 0.0f) return {kMagenta.r, kMagenta.g, kMagenta.b};  // never negative: show it like NaN
  if (e == 0.0f) return {0, 0, 0};
  // Harmless rounding spans about 8 decades below failAt.
  const float top = std::log10(failAt);
  if (e < failAt) {
    const float t = logRamp(e, top - 8.0f, top);
    return {0, static_cast<uint8_t>(20.0f * t), static_cast<uint8_t>(40.0f + 120.0f * t)};
  }
  // Failures from the limit (red) to the worst error of the picture (yellow), linear in |difference|:
  // the map of a kernel wrong everywhere (a shift by one pixel) then shows where it is most wrong
  // (the image's edges) instead of one flat colour.
  if (std::isinf(e) || !(worst > failAt)) return {255, std::isinf(e) || e >= worst ? uint8_t(255) : uint8_t(0), 0};
  const float lo = std::sqrt(failAt), hi = std::sqrt(worst);
  float t = (std::sqrt(e) - lo) / (hi - lo);
  t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
  return {255, static_cast<uint8_t>(255.0f * t + 0.5f), 0};
}

float largestFinite(const Image& img) {
  float worst = 0.0f;
  for (float v : img.pixels)
    if (std::isfinite(v) && v > worst) worst = v;
  return worst;
}

Image worstPool(const Image& e, int factor) {
  if (factor <= 1 || e.channels != 1) return e;
  Image out((e.width + factor - 1) / factor, (e.height + factor - 1) / factor, 1);
  for (int y = 0; y < e.height; ++y)
    for (int x = 0; x < e.width; ++x) {
      float& o = out.at(0, x / factor, y / factor);
      const float v = e.at(0, x, y);
      if (std::isnan(o)) continue;
      if (std::isnan(v) || v > o) o = v;
    }
  return out;
}

bool writeDifferencePng(const std::string& path, const Image& squaredError, float failAt, std::string* err) {
  if (!checkSize(path, squaredError, err)) return false;
  if (squaredError.channels != 1) {
    if (err) *err = "writeDifferencePng " + path + ": 1 channel expected, not " + std::to_string(squaredError.channels);
    return false;
  }
  if (!(failAt > 0.0f) || !std::isfinite(failAt)) {
    if (err) *err = "writeDifferencePng " + path + ": failAt must be a positive number";
    return false;
  }
  const float worst = largestFinite(squaredError);
  std::vector<uint8_t> data;
  data.reserve(squaredError.planeSize() * 3);
  for (float e : squaredError.pixels) {
    const Rgb8 px = differenceColour(e, failAt, worst);
    data.push_back(px.r);
    data.push_back(px.g);
    data.push_back(px.b);
  }
  return writeBytes(path, squaredError.width, squaredError.height, false, data, err);
}

bool writeRgbPng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgb, std::string* err) {
  if (width < 1 || height < 1 || rgb.size() != static_cast<size_t>(width) * height * 3) {
    if (err) *err = "writeRgbPng " + path + ": the size does not match the pixels";
    return false;
  }
  return writeBytes(path, width, height, false, rgb, err);
}

}  // namespace clgrade
