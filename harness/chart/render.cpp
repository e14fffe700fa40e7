// The public entry points: panels side by side on an SVG or raster canvas, and PNG files.
#include <algorithm>

#include "chart/chart.h"
#include "chart/draw.h"
#include "chart/raster_canvas.h"
#include "chart/svg_canvas.h"
#include "image/image.h"
#include "image/png.h"

namespace clgrade {
namespace {

// Limits that keep a mistaken size from allocating gigabytes.
constexpr int kMinSide = 32;
constexpr int kMaxSide = 4096;
constexpr int kMaxTotalWidth = 16384;

// Tableau's 10 colours without red (incorrect points) and grey (reference lines, furniture):
// well apart from each other and from the furniture on white.
constexpr RgbColour kPalette[] = {
    {31, 119, 180},   // blue
    {255, 127, 14},   // orange
    {44, 160, 44},    // green
    {148, 103, 189},  // purple
    {140, 86, 75},    // brown
    {227, 119, 194},  // pink
    {188, 189, 34},   // olive
    {23, 190, 207},   // cyan
};
constexpr int kPaletteSize = static_cast<int>(sizeof kPalette / sizeof kPalette[0]);

// Panels drawn for n charts: an empty list still draws one ("no data"); at most what the width allows.
int panelCount(size_t n) { return static_cast<int>(std::clamp<size_t>(n, 1, kMaxTotalWidth / kMinSide)); }

// Panel size after the limits, for n charts side by side.
ChartSize panelSize(ChartSize s, size_t n) {
  s.width = std::clamp(s.width, kMinSide, std::min(kMaxSide, kMaxTotalWidth / panelCount(n)));
  s.height = std::clamp(s.height, kMinSide, kMaxSide);
  return s;
}

// Draws the charts side by side, or one empty chart ("no data") when there are none.
template <class Chart>
void drawPanels(chart::Canvas& c, const std::vector<Chart>& charts, ChartSize size) {
  const size_t n = static_cast<size_t>(panelCount(charts.size()));
  int legendRows = 0;
  for (size_t i = 0; i < std::min(n, charts.size()); ++i) {
    legendRows = std::max(legendRows, chart::legendRowsOf(charts[i], size.width));
  }
  for (size_t i = 0; i < n; ++i) {
    const chart::Rect r{static_cast<double>(i) * size.width, 0.0, static_cast<double>(size.width),
                        static_cast<double>(size.height)};
    static const Chart kEmpty{};
    chart::drawChart(c, i < charts.size() ? charts[i] : kEmpty, r, legendRows);
  }
}

template <class Chart>
std::string svgOfPanels(const std::vector<Chart>& charts, ChartSize panel) {
  const ChartSize s = panelSize(panel, charts.size());
  chart::SvgCanvas c(s.width * panelCount(charts.size()), s.height);
  drawPanels(c, charts, s);
  return c.finish();
}

template <class Chart>
RgbImage rasterOfPanels(const std::vector<Chart>& charts, ChartSize panel) {
  const ChartSize s = panelSize(panel, charts.size());
  chart::RasterCanvas c(s.width * panelCount(charts.size()), s.height);
  drawPanels(c, charts, s);
  return c.take();
}

// The image library writes planar float images; 0..255 maps back to the same bytes exactly.
bool writeRgbPng(const std::string& path, const RgbImage& rgb, std::string* err) {
  Image img(rgb.width, rgb.height, 3);
  for (int c = 0; c < 3; ++c) {
    float* plane = img.plane(c);
    for (size_t i = 0; i < img.planeSize(); ++i) plane[i] = rgb.rgb[i * 3 + c];
  }
  return writePng(path, img, 0.0f, 255.0f, err);
}

}  // namespace

RgbColour paletteColour(int i) {
  const int k = i % kPaletteSize;
  return kPalette[k < 0 ? k + kPaletteSize : k];
}

RgbColour incorrectColour() { return {214, 39, 40}; }

std::string svgOf(const std::vector<LineChart>& panels, ChartSize panel) { return svgOfPanels(panels, panel); }
std::string svgOf(const BarChart& chart, ChartSize size) { return svgOfPanels(std::vector<BarChart>{chart}, size); }
std::string svgOf(const std::vector<BarChart>& panels, ChartSize panel) { return svgOfPanels(panels, panel); }

RgbImage rasterOf(const std::vector<LineChart>& panels, ChartSize panel) { return rasterOfPanels(panels, panel); }
RgbImage rasterOf(const BarChart& chart, ChartSize size) { return rasterOfPanels(std::vector<BarChart>{chart}, size); }
RgbImage rasterOf(const std::vector<BarChart>& panels, ChartSize panel) { return rasterOfPanels(panels, panel); }

bool writePng(const std::string& path, const std::vector<LineChart>& panels, ChartSize panel, std::string* err) {
  return writeRgbPng(path, rasterOf(panels, panel), err);
}
bool writePng(const std::string& path, const BarChart& chart, ChartSize size, std::string* err) {
  return writeRgbPng(path, rasterOf(chart, size), err);
}
bool writePng(const std::string& path, const std::vector<BarChart>& panels, ChartSize panel, std::string* err) {
  return writeRgbPng(path, rasterOf(panels, panel), err);
}

}  // namespace clgrade
