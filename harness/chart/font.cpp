// stb_easy_font is all static functions, so including it here (its only user) needs no
// implementation macro; it writes quads into a vertex buffer, which we turn into rectangles.
#include "chart/font.h"

#include <stb/stb_easy_font.h>

#include <algorithm>
#include <cstring>

namespace clgrade::chart {
namespace {

// Bytes stb_easy_font_print writes per quad: 4 vertices of x, y, z floats and a 4-byte colour.
constexpr size_t kQuadBytes = 4 * 16;
// More quads than any character of the font has (at most 11).
constexpr size_t kMaxQuadsPerChar = 16;

}  // namespace

std::string rasterText(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      // The font's table covers 32..126; 127 would read past it.
      out += (c >= 32 && c < 127) ? static_cast<char>(c) : ' ';
      ++i;
      continue;
    }
    // "µ" (micro sign U+00B5, or Greek mu U+03BC) is common in our labels ("time (µs)").
    if ((c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xB5) ||
        (c == 0xCE && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xBC)) {
      out += 'u';
      i += 2;
      continue;
    }
    // Any other UTF-8 sequence (or stray byte) becomes one '?': skip its continuation bytes.
    out += '?';
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
  }
  return out;
}

double textWidth(const std::string& s, bool bold) {
  std::string ascii = rasterText(s);
  if (ascii.empty()) return 0.0;
  // The font's width includes the gap after the last letter, which should not count when centring.
  const int units = stb_easy_font_width(&ascii[0]) - 1;
  return std::max(0, units) * kFontScale + (bold ? 1.0 : 0.0);
}

std::vector<Rect> glyphRects(const std::string& s) {
  std::string ascii = rasterText(s);
  std::vector<Rect> rects;
  if (ascii.empty()) return rects;
  std::vector<char> buffer(ascii.size() * kMaxQuadsPerChar * kQuadBytes + kQuadBytes);
  const int quads = stb_easy_font_print(0.0f, 0.0f, &ascii[0], nullptr, buffer.data(), static_cast<int>(buffer.size()));
  rects.reserve(static_cast<size_t>(quads));
  for (int q = 0; q < quads; ++q) {
    // Vertex 0 is the top-left corner, vertex 2 the bottom-right one; vertices are 16 bytes apart.
    float v0[2], v2[2];
    std::memcpy(v0, buffer.data() + q * kQuadBytes, sizeof v0);
    std::memcpy(v2, buffer.data() + q * kQuadBytes + 32, sizeof v2);
    rects.push_back({v0[0], v0[1], static_cast<double>(v2[0]) - v0[0], static_cast<double>(v2[1]) - v0[1]});
  }
  return rects;
}

}  // namespace clgrade::chart
