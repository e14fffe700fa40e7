// The SVG backend: builds the document as text.
#pragma once

#include <string>

#include "chart/canvas.h"

namespace clgrade::chart {

/// Draws into an SVG document of a fixed size; finish() returns the whole document.
class SvgCanvas : public Canvas {
 public:
  /// A white width x height document.
  SvgCanvas(int width, int height);
  void polyline(const std::vector<Point>& points, RgbColour colour, double width, bool dashed) override;
  void fillRect(const Rect& r, RgbColour colour) override;
  void disc(Point centre, double radius, RgbColour colour) override;
  void text(Point at, const std::string& s, RgbColour colour, const TextStyle& style) override;
  /// The document, closed; call once, after the last drawing call.
  std::string finish();

 private:
  std::string body_;
};

/// "#rrggbb".
std::string hexColour(RgbColour c);

}  // namespace clgrade::chart
