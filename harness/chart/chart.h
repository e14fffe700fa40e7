// Line and bar charts as plain structs, rendered to SVG text or to a PNG from one drawing routine.
//
//   LineChart bw;
//   bw.title = "Separable: bandwidth"; bw.xLabel = "RESULT_STEPS"; bw.yLabel = "bandwidth (GB/s)";
//   Series s; s.name = "horizontal 16x4"; s.x = {1, 2, 3}; s.y = {180, 210, 222}; s.ok = {true, true, false};
//   bw.series.push_back(s);
//   bw.lines.push_back({"copy roofline", 380.0});
//   std::string svg = svgOf({bw, timeChart});                          // two panels side by side
//   if (!writePng(dir + "/sweep.png", {bw, timeChart}, {}, &err)) ...  // the same drawing as a PNG
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace clgrade {

/// An 8-bit sRGB colour.
struct RgbColour {
  uint8_t r = 0, g = 0, b = 0;
};

/// One line of a line chart. Points where x or y is not finite are skipped and break the line.
struct Series {
  std::string name;       ///< Legend text.
  std::vector<double> x;  ///< Only the first min(x.size(), y.size()) points are drawn.
  std::vector<double> y;
  /// ok[i] == false: point i gave wrong output and is drawn as a red cross ("incorrect" in the
  /// legend); entries past the end of ok count as true.
  std::vector<bool> ok;
  bool dashed = false;  ///< E.g. to tell a vertical pass from a horizontal one in the same colour.
  int colour = -1;      ///< Palette index; -1 takes the series' position in the chart.
};

/// A horizontal line across the plot, e.g. a copy-bandwidth roofline; listed in the legend.
struct ReferenceLine {
  std::string label;
  double y = 0.0;
};

/// A line chart: one panel of axes with its own title and legend.
struct LineChart {
  std::string title, xLabel, yLabel;
  std::vector<Series> series;
  std::vector<ReferenceLine> lines;
  bool yFromZero = true;  ///< The y axis always includes 0, so bandwidths and times are not exaggerated.
};

/// A bar chart: one bar per category, from zero to its value; non-finite values draw no bar.
struct BarChart {
  std::string title, xLabel, yLabel;
  std::vector<std::string> categories;
  std::vector<double> values;  ///< values[i] belongs to categories[i]; a missing value draws no bar.
};

/// Size in pixels of one panel; panels are laid side by side. Clamped to [32, 4096] each way, and
/// narrowed so that all panels fit in 16384 pixels (at most 512 panels are drawn).
struct ChartSize {
  int width = 560;
  int height = 420;
};

/// An RGB picture, 3 bytes per pixel, rows top to bottom without padding.
struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgb;  ///< rgb[3 * (y * width + x) + channel]
};

/// Colour of palette entry i (wraps around); red is left out because it marks incorrect points.
RgbColour paletteColour(int i);
/// Colour of the cross that marks an incorrect point.
RgbColour incorrectColour();

/// SVG document with the line charts side by side (an empty list draws one "no data" panel).
std::string svgOf(const std::vector<LineChart>& panels, ChartSize panel = {});
/// SVG document with one bar chart.
std::string svgOf(const BarChart& chart, ChartSize size = {});
/// SVG document with the bar charts side by side, e.g. one score distribution per task.
std::string svgOf(const std::vector<BarChart>& panels, ChartSize panel = {});

/// The same drawing as svgOf, rasterized.
RgbImage rasterOf(const std::vector<LineChart>& panels, ChartSize panel = {});
/// The same drawing as svgOf, rasterized.
RgbImage rasterOf(const BarChart& chart, ChartSize size = {});
/// The same drawing as svgOf, rasterized.
RgbImage rasterOf(const std::vector<BarChart>& panels, ChartSize panel = {});

/// Writes rasterOf(panels, panel) as an RGB PNG; on failure returns false with a reason in *err.
bool writePng(const std::string& path, const std::vector<LineChart>& panels, ChartSize panel, std::string* err);
/// Writes rasterOf(chart, size) as an RGB PNG; on failure returns false with a reason in *err.
bool writePng(const std::string& path, const BarChart& chart, ChartSize size, std::string* err);
/// Writes rasterOf(panels, panel) as an RGB PNG; on failure returns false with a reason in *err.
bool writePng(const std::string& path, const std::vector<BarChart>& panels, ChartSize panel, std::string* err);

}  // namespace clgrade
