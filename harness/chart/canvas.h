// The drawing surface the charts are drawn on, with an SVG and a raster implementation, so the
// SVG and the PNG of a chart come from the same drawing code and cannot drift apart.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "chart/chart.h"

namespace clgrade::chart {

/// A position in pixels, origin top left, y down.
struct Point {
  double x = 0.0, y = 0.0;
};

/// Both coordinates finite: a point each backend can draw (the others are dropped).
inline bool finite(Point p) { return std::isfinite(p.x) && std::isfinite(p.y); }

/// An axis-aligned rectangle in pixels.
struct Rect {
  double x = 0.0, y = 0.0, w = 0.0, h = 0.0;
};

/// Which point of the text the given position names, along the reading direction.
enum class Anchor { Start, Middle, End };

/// How a text is set; the position always names the vertical middle of the capital letters.
struct TextStyle {
  Anchor anchor = Anchor::Start;
  bool bold = false;
  bool vertical = false;  ///< Rotated a quarter turn anticlockwise, read bottom to top (y axis labels).
};

/// Dash and gap lengths in pixels, the same in both backends.
constexpr double kDash = 7.0;
constexpr double kGap = 5.0;

/// A drawing surface, white when created; everything is clipped to it.
class Canvas {
 public:
  virtual ~Canvas() = default;
  /// Open line through the points, round joins; fewer than 2 points draw nothing.
  virtual void polyline(const std::vector<Point>& points, RgbColour colour, double width, bool dashed) = 0;
  /// Filled rectangle without outline.
  virtual void fillRect(const Rect& r, RgbColour colour) = 0;
  /// Filled disc.
  virtual void disc(Point centre, double radius, RgbColour colour) = 0;
  /// One line of text; non-ASCII may be drawn approximately (the raster font has ASCII only).
  virtual void text(Point at, const std::string& s, RgbColour colour, const TextStyle& style) = 0;

  /// Straight line from a to b.
  void line(Point a, Point b, RgbColour colour, double width, bool dashed = false) {
    polyline({a, b}, colour, width, dashed);
  }
  /// A diagonal cross centred on c whose arms reach `half` pixels left, right, up and down.
  void cross(Point c, double half, RgbColour colour, double width) {
    line({c.x - half, c.y - half}, {c.x + half, c.y + half}, colour, width);
    line({c.x - half, c.y + half}, {c.x + half, c.y - half}, colour, width);
  }
};

}  // namespace clgrade::chart
