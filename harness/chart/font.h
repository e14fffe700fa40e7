// The text metrics both backends lay out with, and the glyphs the raster backend fills:
// stb_easy_font, a tiny public-domain stroke font (Debian's libstb-dev) with no files to ship.
#pragma once

#include <string>
#include <vector>

#include "chart/canvas.h"

namespace clgrade::chart {

/// Pixels per font unit: at 1x the font has one-pixel strokes 7 pixels high, too small to read.
constexpr int kFontScale = 2;
/// Height of capital letters in pixels.
constexpr double kCapHeight = 7.0 * kFontScale;
/// How far descenders (g, p, y) reach below the capitals, in pixels.
constexpr double kDescent = 2.0 * kFontScale;
/// Distance between text lines in pixels.
constexpr double kLineHeight = 10.0 * kFontScale;

/// s in the printable ASCII the font has: "µ" becomes "u", other non-ASCII "?", controls " ".
std::string rasterText(const std::string& s);
/// Width in pixels of s as drawn in the raster backend, without the trailing letter gap.
double textWidth(const std::string& s, bool bold = false);
/// The filled rectangles of rasterText(s) in font units: x to the right, y down from the top of
/// the capitals.
std::vector<Rect> glyphRects(const std::string& s);

}  // namespace clgrade::chart
