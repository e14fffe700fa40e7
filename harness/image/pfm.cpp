// PFM reading and writing. The header is text, the data little-endian floats, channels interleaved
// (RGBRGB...) on disk but planar in memory, rows stored from y = 0 down (the course framework
// never flipped, so neither do we).
#include "image/pfm.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>
#include <utility>

#include "util/files.h"

namespace clgrade {
namespace {

// Guards against absurd headers before anything is allocated: 65536 per side and 2^28 floats
// (1 GiB) in all is far beyond any course image.
constexpr long kMaxSide = 65536;
constexpr uint64_t kMaxFloats = uint64_t{1} << 28;

constexpr bool kLittleEndianHost = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool fail(std::string* err, const std::string& msg) {
  if (err) *err = msg;
  return false;
}

// A tiny cursor over the file bytes; every read says what it expected when it fails.
struct Cursor {
  std::string_view bytes;
  size_t pos = 0;

  void skipSpace() {
    while (pos < bytes.size() && isSpace(bytes[pos])) ++pos;
  }
  // The next whitespace-delimited token, at most `maxLen` characters (a longer one is malformed).
  bool token(std::string* out, size_t maxLen) {
    skipSpace();
    const size_t start = pos;
    while (pos < bytes.size() && !isSpace(bytes[pos])) {
      if (pos - start >= maxLen) {
        *out = std::string(bytes.substr(start, maxLen)) + "...";
        return false;
      }
      ++pos;
    }
    *out = std::string(bytes.substr(start, pos - start));
    return !out->empty();  // empty: the file ended before the token
  }
};

// A positive decimal integer without sign, within [1, kMaxSide].
bool parseSide(const std::string& tok, long* out) {
  if (tok.empty() || tok.size() > 9) return false;
  long v = 0;
  for (char c : tok) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return v >= 1 && v <= kMaxSide;
}

uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

}  // namespace

std::string pfmBytes(const Image& img) {
  std::string header = std::string(img.channels == 1 ? "Pf" : "PF") + "\n" + std::to_string(img.width) + " " +
                       std::to_string(img.height) + "\n-1.0\n";
  std::string out = header;
  out.resize(header.size() + img.pixels.size() * 4);
  char* p = out.data() + header.size();
  const size_t plane = size_t(img.width) * size_t(img.height);
  // The planes interleaved, each float least significant byte first, so the file is little-endian
  // whatever the host is. On a little-endian host those are the float's own bytes: copied as they
  // are (a 4096 x 4096 colour image in tens of milliseconds, not a quarter of a second).
  for (int c = 0; c < img.channels; ++c) {
    const float* from = img.pixels.data() + size_t(c) * plane;
    char* to = p + size_t(c) * 4;
    const size_t stride = size_t(img.channels) * 4;
    for (size_t i = 0; i < plane; ++i, to += stride) {
      if constexpr (kLittleEndianHost) {
        std::memcpy(to, from + i, 4);
      } else {
        const uint32_t u = floatBits(from[i]);
        to[0] = static_cast<char>(u & 0xffu);
        to[1] = static_cast<char>((u >> 8) & 0xffu);
        to[2] = static_cast<char>((u >> 16) & 0xffu);
        to[3] = static_cast<char>((u >> 24) & 0xffu);
      }
    }
  }
  return out;
}

bool writePfm(const std::string& path, const Image& img, std::string* err) {
  if (img.channels != 1 && img.channels != 3) {
    return fail(err, "writePfm " + path + ": PFM holds 1 or 3 channels, not " + std::to_string(img.channels));
  }
  if (img.width < 1 || img.height < 1) {
    return fail(err, "writePfm " + path + ": empty image");
  }
  // Through the checked writer: a full disk fails here instead of leaving a truncated image.
  std::string why;
  if (!writeFileAtomically(path, pfmBytes(img), &why)) return fail(err, "writePfm: " + why);
  return true;
}

bool readPfm(const std::string& path, Image* out, std::string* err) {
  // A huge stray file is refused by its size before it is read.
  std::string bytes, why;
  if (!readFile(path, &bytes, &why, kMaxFloats * 4 + 1024))
    return fail(err, "readPfm " + path + ": cannot open: " + why);
  return parsePfm(bytes, out, err, "readPfm " + path + ": ");
}

bool parsePfm(std::string_view bytes, Image* out, std::string* err, const std::string& where) {
  Cursor cur{bytes};
  std::string tok;
  if (!cur.token(&tok, 2) || (tok != "PF" && tok != "Pf")) {
    return fail(err, where + "not a PFM file (the magic must be PF or Pf)");
  }
  const int channels = tok == "PF" ? 3 : 1;
  long w = 0, h = 0;
  if (!cur.token(&tok, 16) || !parseSide(tok, &w)) {
    if (tok.empty()) return fail(err, where + "truncated header: missing width");
    return fail(err, where + "bad width '" + tok + "' (expected an integer in 1.." + std::to_string(kMaxSide) + ")");
  }
  if (!cur.token(&tok, 16) || !parseSide(tok, &h)) {
    if (tok.empty()) return fail(err, where + "truncated header: missing height");
    return fail(err, where + "bad height '" + tok + "' (expected an integer in 1.." + std::to_string(kMaxSide) + ")");
  }
  const uint64_t count = static_cast<uint64_t>(w) * static_cast<uint64_t>(h) * channels;
  if (count > kMaxFloats) {
    return fail(err, where + "image too large: " + std::to_string(w) + " x " + std::to_string(h));
  }
  if (!cur.token(&tok, 64)) {
    if (tok.empty()) return fail(err, where + "truncated header: missing scale");
    return fail(err, where + "bad scale '" + tok + "'");
  }
  char* end = nullptr;
  const double scale = std::strtod(tok.c_str(), &end);
  if (end != tok.c_str() + tok.size() || !std::isfinite(scale) || scale == 0.0) {
    return fail(err, where + "bad scale '" + tok + "' (expected a nonzero number, -1.0)");
  }
  if (scale > 0.0) {
    return fail(err, where + "big-endian PFM (positive scale " + tok +
                         ") is not supported; write it little-endian (negative scale)");
  }
  // Exactly one whitespace character separates the header from the data.
  if (cur.pos >= bytes.size() || !isSpace(bytes[cur.pos])) {
    return fail(err, where + "truncated: no data after the header");
  }
  const size_t dataStart = cur.pos + 1;
  const uint64_t need = count * 4;
  const uint64_t have = bytes.size() - dataStart;
  if (have < need) {
    return fail(err, where + "truncated: " + std::to_string(w) + " x " + std::to_string(h) + " x " +
                         std::to_string(channels) + " floats need " + std::to_string(need) +
                         " data bytes, the file has " + std::to_string(have));
  }
  if (have > need) {
    return fail(err, where + std::to_string(have - need) +
                         " unexpected bytes after the pixel data (wrong size in the header?)");
  }

  Image img(static_cast<int>(w), static_cast<int>(h), channels);
  const char* d = bytes.data() + dataStart;
  const size_t plane = size_t(w) * size_t(h);
  // Each plane from its interleaved floats, as pfmBytes writes them (see there).
  for (int c = 0; c < channels; ++c) {
    float* to = img.pixels.data() + size_t(c) * plane;
    const char* from = d + size_t(c) * 4;
    const size_t stride = size_t(channels) * 4;
    for (size_t i = 0; i < plane; ++i, from += stride) {
      if constexpr (kLittleEndianHost) {
        std::memcpy(to + i, from, 4);
      } else {
        const auto* b = reinterpret_cast<const unsigned char*>(from);
        to[i] = bitsFloat(uint32_t{b[0]} | (uint32_t{b[1]} << 8) | (uint32_t{b[2]} << 16) | (uint32_t{b[3]} << 24));
      }
    }
  }
  *out = std::move(img);
  return true;
}

}  // namespace clgrade
