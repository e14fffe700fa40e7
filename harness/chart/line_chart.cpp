// Line charts: series as lines with dots, incorrect points as red crosses, reference lines.
#include <algorithm>
#include <cmath>

#include "chart/axes.h"
#include "chart/draw.h"

namespace clgrade::chart {
namespace {

// Pixels between the frame and the first and last x value, so edge dots are not cut by the frame.
constexpr double kXInset = 14.0;
// Share of the y span added above and below the data, for the same reason.
constexpr double kYPad = 0.04;
constexpr double kLineWidth = 2.0;
constexpr double kDotRadius = 3.5;
constexpr double kCrossHalf = 6.0;
constexpr double kCrossWidth = 2.5;
// Dots on every point only while they stay apart; dense series are lines only.
constexpr size_t kMaxDots = 60;

size_t pointCount(const Series& s) { return std::min(s.x.size(), s.y.size()); }
bool pointOk(const Series& s, size_t i) { return i >= s.ok.size() || s.ok[i]; }
bool finitePoint(const Series& s, size_t i) { return std::isfinite(s.x[i]) && std::isfinite(s.y[i]); }
RgbColour seriesColour(const Series& s, size_t position) {
  return paletteColour(s.colour >= 0 ? s.colour : static_cast<int>(position));
}

// Series with a name, then reference lines, then "incorrect" if any point is.
std::vector<LegendEntry> legendOf(const LineChart& chart) {
  std::vector<LegendEntry> legend;
  bool anyIncorrect = false;
  for (const Series& s : chart.series) {
    for (size_t i = 0; i < pointCount(s); ++i) {
      anyIncorrect = anyIncorrect || (finitePoint(s, i) && !pointOk(s, i));
    }
  }
  for (size_t k = 0; k < chart.series.size(); ++k) {
    const Series& s = chart.series[k];
    if (s.name.empty()) continue;
    LegendEntry e{s.name, seriesColour(s, k)};
    e.dashed = s.dashed;
    e.dot = true;
    legend.push_back(e);
  }
  for (const ReferenceLine& r : chart.lines) {
    if (r.label.empty() || !std::isfinite(r.y)) continue;
    LegendEntry e{r.label, kReferenceColour};
    e.width = 1.5;
    e.dashed = true;
    legend.push_back(e);
  }
  if (anyIncorrect) {
    LegendEntry e{"incorrect", incorrectColour()};
    e.cross = true;
    legend.push_back(e);
  }
  return legend;
}

}  // namespace

int legendRowsOf(const LineChart& chart, double panelWidth) { return legendRows(legendOf(chart), panelWidth); }

void drawChart(Canvas& c, const LineChart& chart, const Rect& panel, int minLegendRows) {
  Range xr, yr;
  for (const Series& s : chart.series) {
    for (size_t i = 0; i < pointCount(s); ++i) {
      if (!finitePoint(s, i)) continue;
      xr.add(s.x[i]);
      yr.add(s.y[i]);
    }
  }
  const bool noData = xr.empty;
  for (const ReferenceLine& r : chart.lines) yr.add(r.y);
  if (chart.yFromZero) yr.add(0.0);
  padRange(&yr, kYPad, chart.yFromZero);

  PanelSpec spec;
  spec.title = chart.title;
  spec.xLabel = chart.xLabel;
  spec.yLabel = chart.yLabel;
  spec.legend = legendOf(chart);
  spec.minLegendRows = minLegendRows;
  spec.y = yr;
  const PanelLayout l = layoutPanel(panel, std::move(spec));
  const Rect& p = l.plot;
  const double inset = std::min(kXInset, p.w / 4);
  const Ticks xt = fitTicks(xr, p.w - 2 * inset, false, true);
  const LinearMap xmap{xt.lo, xt.hi, p.x + inset, p.x + p.w - inset};
  const LinearMap ymap{l.y.lo, l.y.hi, p.y + p.h, p.y};

  // Furniture under the data: grid and tick labels.
  for (size_t i = 0; i < xt.values.size(); ++i) {
    const double x = xmap(xt.values[i]);
    c.line({crisp(x), crisp(p.y)}, {crisp(x), crisp(p.y + p.h)}, kGridColour, 1.0);
    c.text({x, l.xTickY}, xt.labels[i], kTickTextColour, {Anchor::Middle});
  }
  drawYAxis(c, l, ymap);

  for (const ReferenceLine& r : chart.lines) {
    if (!std::isfinite(r.y)) continue;
    c.line({p.x, ymap(r.y)}, {p.x + p.w, ymap(r.y)}, kReferenceColour, 1.5, true);
  }
  // Lines first, then all dots, then all crosses, so no line hides a marker.
  for (size_t k = 0; k < chart.series.size(); ++k) {
    const Series& s = chart.series[k];
    std::vector<Point> run;
    for (size_t i = 0; i <= pointCount(s); ++i) {
      // A non-finite point ends the run: the line has a gap there rather than a jump.
      if (i < pointCount(s) && finitePoint(s, i)) {
        run.push_back({xmap(s.x[i]), ymap(s.y[i])});
        continue;
      }
      c.polyline(run, seriesColour(s, k), kLineWidth, s.dashed);
      run.clear();
    }
  }
  for (size_t k = 0; k < chart.series.size(); ++k) {
    const Series& s = chart.series[k];
    if (pointCount(s) > kMaxDots) continue;
    for (size_t i = 0; i < pointCount(s); ++i) {
      if (finitePoint(s, i) && pointOk(s, i)) c.disc({xmap(s.x[i]), ymap(s.y[i])}, kDotRadius, seriesColour(s, k));
    }
  }
  for (const Series& s : chart.series) {
    for (size_t i = 0; i < pointCount(s); ++i) {
      if (finitePoint(s, i) && !pointOk(s, i)) {
        c.cross({xmap(s.x[i]), ymap(s.y[i])}, kCrossHalf, incorrectColour(), kCrossWidth);
      }
    }
  }
  if (noData) drawNoData(c, l);
  drawFrame(c, l);
  drawLegend(c, l);
}

}  // namespace clgrade::chart
