// The raster backend: an RGB buffer with anti-aliased lines and discs and the stb_easy_font text.
#pragma once

#include <vector>

#include "chart/canvas.h"

namespace clgrade::chart {

/// Draws into an RGB picture of a fixed size; take() hands the picture over.
class RasterCanvas : public Canvas {
 public:
  /// A white width x height picture (negative sizes count as 0).
  RasterCanvas(int width, int height);
  void polyline(const std::vector<Point>& points, RgbColour colour, double width, bool dashed) override;
  void fillRect(const Rect& r, RgbColour colour) override;
  void disc(Point centre, double radius, RgbColour colour) override;
  void text(Point at, const std::string& s, RgbColour colour, const TextStyle& style) override;
  /// The picture; the canvas is empty afterwards.
  RgbImage take();

 private:
  // Coverage of one shape over its bounding box, blended into the picture once at the end, so
  // the overlapping pieces of one polyline (joins, dashes) do not darken their soft edges twice.
  struct Coverage {
    int x0 = 0, y0 = 0, w = 0, h = 0;
    std::vector<float> a;
  };
  Coverage coverageFor(const std::vector<Point>& points, double radius) const;
  static void addCapsule(Coverage* cov, Point a, Point b, double radius);
  void blend(const Coverage& cov, RgbColour colour);
  void fillPixels(int x0, int y0, int x1, int y1, RgbColour colour);

  RgbImage img_;
};

}  // namespace clgrade::chart
