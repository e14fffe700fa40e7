// What line and bar charts share: data ranges, 1-2-5 ticks and their labels, the panel layout
// (title, axes, grid, legend) and the colours of everything that is not data.
#pragma once

#include <string>
#include <vector>

#include "chart/canvas.h"

namespace clgrade::chart {

/// Colours of the chart furniture.
constexpr RgbColour kTextColour{34, 34, 34};
constexpr RgbColour kTickTextColour{80, 80, 80};
constexpr RgbColour kGridColour{228, 228, 228};
constexpr RgbColour kFrameColour{150, 150, 150};
constexpr RgbColour kReferenceColour{70, 70, 70};

/// The smallest and largest finite value added; empty until one is.
struct Range {
  double lo = 0.0, hi = 0.0;
  bool empty = true;
  /// Adds v unless it is NaN or infinite.
  void add(double v);
};

/// Widens r by `share` of its span on each side, so that no data sit on the frame. With
/// fromZero a bound at zero stays where it is, and a range holding only zero becomes [0, 1].
void padRange(Range* r, double share, bool fromZero);

/// Axis range and the tick values in it.
struct Ticks {
  double lo = 0.0, hi = 1.0;        ///< Axis range, lo < hi.
  double step = 0.0;                ///< 1, 2 or 5 times a power of ten; 0 when none fits (absurd ranges).
  std::vector<double> values;       ///< Multiples of step within [lo, hi].
  std::vector<std::string> labels;  ///< One per value.
};

/// The smallest of 1, 2, 5 times a power of ten that is >= raw (raw > 0 and finite).
double niceStep(double raw);
/// Ticks for data in r with at most maxCount values (at least 2 allowed). An empty range becomes
/// [0, 1] and a single value a small range around it; extend widens the range to whole steps.
Ticks niceTicks(const Range& r, int maxCount, bool extend);
/// niceTicks with as many ticks as fit along `pixels`; horizontal axes also keep labels apart.
Ticks fitTicks(const Range& r, double pixels, bool extend, bool horizontal);
/// Labels of tick values a step apart: the fewest decimals that tell them apart, and k, M, G, T
/// for values of 10000 and more ("12k"), never "-0".
std::vector<std::string> tickLabels(const std::vector<double>& values, double step);
/// A value as a short label, e.g. on top of a bar: "12", "12.5", "0.33", "1.5k".
std::string valueLabel(double v);

/// Linear map from [d0, d1] to [p0, p1]; a zero-width domain maps to the middle.
struct LinearMap {
  double d0 = 0.0, d1 = 1.0, p0 = 0.0, p1 = 1.0;
  double operator()(double v) const;
};

/// A legend entry: a line sample (optionally dashed, with a dot), or a cross.
struct LegendEntry {
  std::string label;
  RgbColour colour;
  double width = 2.0;  ///< Of the line sample.
  bool dashed = false;
  bool dot = false;
  bool cross = false;
};

/// What a panel's layout depends on: its texts, legend and y data.
struct PanelSpec {
  std::string title, xLabel, yLabel;
  std::vector<LegendEntry> legend;
  int minLegendRows = 0;  ///< Rows kept for the legend even if it needs fewer, to line up with other panels.
  int xTickRows = 1;      ///< Rows of x tick labels: 2 staggers labels too wide for one row.
  Range y;                ///< The y values to show.
};

/// Where the parts of one panel go; computed from its spec before anything is drawn.
struct PanelLayout {
  PanelSpec spec;
  Rect panel;
  Rect plot;              ///< The framed data area.
  Rect legend;            ///< Below the axis labels; h == 0 without entries.
  Ticks y;                ///< Fitted to the plot height, widened to whole steps.
  double xTickY = 0.0;    ///< Middle of the (first row of) x tick labels.
  double xTickRow = 0.0;  ///< Distance between rows of x tick labels.
  double xLabelY = 0.0;   ///< Middle of the x axis label.
};

/// Rows the legend entries take in a panel of this width.
int legendRows(const std::vector<LegendEntry>& entries, double panelWidth);
/// Lays out a panel: title on top, y label and y tick labels left, x tick labels, x label and
/// legend below. The plot keeps a few pixels however small the panel is.
PanelLayout layoutPanel(const Rect& panel, PanelSpec spec);
/// Draws the horizontal grid lines and the y tick labels.
void drawYAxis(Canvas& c, const PanelLayout& l, const LinearMap& ymap);
/// Draws the frame, title and axis labels (after the data, so the frame stays on top).
void drawFrame(Canvas& c, const PanelLayout& l);
/// Draws the legend entries in rows within l.legend.
void drawLegend(Canvas& c, const PanelLayout& l);
/// Says "no data" in the middle of the plot.
void drawNoData(Canvas& c, const PanelLayout& l);

/// Middle of the pixel at or below v, where a 1-pixel line is sharp rather than 2 pixels of grey.
double crisp(double v);

}  // namespace clgrade::chart
