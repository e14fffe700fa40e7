// SVG backend. Coordinates are written with two decimals at most; non-finite points are dropped
// and huge ones clamped, since a degenerate chart must still give a document viewers open.
#include "chart/svg_canvas.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "util/markup.h"

namespace clgrade::chart {
namespace {

// Far outside any canvas, yet short to print.
constexpr double kFar = 1e6;

std::string num(double v) {
  if (!std::isfinite(v)) v = 0.0;
  v = std::clamp(v, -kFar, kFar);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  // Trailing zeros only cost bytes: "12.50" -> "12.5", "3.00" -> "3".
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

}  // namespace

std::string hexColour(RgbColour c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

SvgCanvas::SvgCanvas(int width, int height) {
  const std::string w = std::to_string(width), h = std::to_string(height);
  body_ =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
      w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h +
      "\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\" font-size=\"16\">\n"
      "<rect x=\"0\" y=\"0\" width=\"" +
      w + "\" height=\"" + h + "\" fill=\"#ffffff\"/>\n";
}

void SvgCanvas::polyline(const std::vector<Point>& points, RgbColour colour, double width, bool dashed) {
  std::string coords;
  size_t n = 0;
  for (const Point& p : points) {
    if (!finite(p)) continue;
    if (n++) coords += ' ';
    coords += num(p.x) + "," + num(p.y);
  }
  if (n < 2) return;
  body_ += "<polyline points=\"" + coords + "\" fill=\"none\" stroke=\"" + hexColour(colour) + "\" stroke-width=\"" +
           num(width) + "\" stroke-linecap=\"round\" stroke-linejoin=\"round\"";
  if (dashed) body_ += " stroke-dasharray=\"" + num(kDash) + " " + num(kGap) + "\"";
  body_ += "/>\n";
}

void SvgCanvas::fillRect(const Rect& r, RgbColour colour) {
  if (!(r.w > 0.0) || !(r.h > 0.0) || !std::isfinite(r.x) || !std::isfinite(r.y)) return;
  body_ += "<rect x=\"" + num(r.x) + "\" y=\"" + num(r.y) + "\" width=\"" + num(r.w) + "\" height=\"" + num(r.h) +
           "\" fill=\"" + hexColour(colour) + "\"/>\n";
}

void SvgCanvas::disc(Point centre, double radius, RgbColour colour) {
  if (!finite(centre) || !(radius > 0.0)) return;
  body_ += "<circle cx=\"" + num(centre.x) + "\" cy=\"" + num(centre.y) + "\" r=\"" + num(radius) + "\" fill=\"" +
           hexColour(colour) + "\"/>\n";
}

void SvgCanvas::text(Point at, const std::string& s, RgbColour colour, const TextStyle& style) {
  if (!finite(at) || s.empty()) return;
  const std::string x = num(at.x), y = num(at.y);
  // dy = 0.35em moves the baseline so that the position names the middle of the capitals,
  // as in the raster backend.
  body_ += "<text x=\"" + x + "\" y=\"" + y + "\" dy=\"0.35em\" fill=\"" + hexColour(colour) + "\"";
  if (style.anchor == Anchor::Middle) body_ += " text-anchor=\"middle\"";
  if (style.anchor == Anchor::End) body_ += " text-anchor=\"end\"";
  if (style.bold) body_ += " font-weight=\"bold\"";
  if (style.vertical) body_ += " transform=\"rotate(-90 " + x + " " + y + ")\"";
  body_ += ">" + clgrade::xmlEscape(s) + "</text>\n";
}

std::string SvgCanvas::finish() { return body_ + "</svg>\n"; }

}  // namespace clgrade::chart
