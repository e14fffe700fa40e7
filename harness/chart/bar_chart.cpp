// Bar charts: one bar per category from zero to its value, the value written on the bar's end.
#include <algorithm>
#include <cmath>

#include "chart/axes.h"
#include "chart/draw.h"
#include "chart/font.h"

namespace clgrade::chart {
namespace {

// Share of each category's band the bar fills; the rest keeps neighbouring bars apart.
constexpr double kBarShare = 0.7;
// Headroom beyond the longest bars for their value labels, as a share of the y span.
constexpr double kValueLabelPad = 0.1;
// Least space between two category labels.
constexpr double kLabelGap = 8.0;
// The most categories whose labels are staggered rather than thinned out.
constexpr size_t kMaxStaggered = 12;

double valueAt(const BarChart& b, size_t i) { return i < b.values.size() ? b.values[i] : NAN; }

}  // namespace

int legendRowsOf(const BarChart&, double) { return 0; }

void drawChart(Canvas& c, const BarChart& chart, const Rect& panel, int minLegendRows) {
  const size_t n = std::max(chart.categories.size(), chart.values.size());
  Range yr;
  for (size_t i = 0; i < n; ++i) yr.add(valueAt(chart, i));
  const bool noData = yr.empty;
  yr.add(0.0);  // bars start at zero, so zero is always on the axis
  padRange(&yr, kValueLabelPad, true);

  PanelSpec spec;
  spec.title = chart.title;
  spec.xLabel = chart.xLabel;
  spec.yLabel = chart.yLabel;
  spec.minLegendRows = minLegendRows;
  spec.y = yr;
  PanelLayout l = layoutPanel(panel, spec);
  // Labels too wide for their band: a few named categories (tasks such as "separable") alternate
  // between two rows, since each name matters; many (histogram bins) are labelled every k-th.
  double widest = 0.0;
  for (const std::string& s : chart.categories) widest = std::max(widest, textWidth(s));
  const double need = widest + kLabelGap;
  const bool stagger = n > 1 && n <= kMaxStaggered && need > l.plot.w / n && need <= 2 * l.plot.w / n;
  if (stagger) {
    spec.xTickRows = 2;
    l = layoutPanel(panel, spec);  // the second row of labels takes height from the plot
  }
  const Rect& p = l.plot;
  const LinearMap ymap{l.y.lo, l.y.hi, p.y + p.h, p.y};
  drawYAxis(c, l, ymap);

  if (n > 0) {
    const double width = p.w / static_cast<double>(n);
    const double room = stagger ? 2 * width : width;
    const size_t every = std::max<size_t>(1, static_cast<size_t>(std::ceil(need / room)));
    const double zero = ymap(0.0);
    for (size_t i = 0; i < n; ++i) {
      const double mid = p.x + width * (static_cast<double>(i) + 0.5);
      if (i < chart.categories.size() && i % every == 0) {
        const double y = l.xTickY + (stagger && i % 2 == 1 ? l.xTickRow : 0.0);
        c.text({mid, y}, chart.categories[i], kTickTextColour, {Anchor::Middle});
      }
      const double v = valueAt(chart, i);
      if (!std::isfinite(v) || v == 0.0) continue;  // no bar, and a "0" over every empty bin is clutter
      const double end = ymap(v);
      const double w = std::max(1.0, width * kBarShare);
      c.fillRect({mid - w / 2, std::min(zero, end), w, std::abs(zero - end)}, paletteColour(0));
      // The value beyond the bar's end, where there is room for it.
      const std::string label = valueLabel(v);
      if (textWidth(label) <= width) {
        const double y = v > 0.0 ? end - kCapHeight / 2 - 4.0 : end + kCapHeight / 2 + 4.0;
        c.text({mid, y}, label, kTextColour, {Anchor::Middle});
      }
    }
  }
  if (noData) drawNoData(c, l);
  drawFrame(c, l);
}

}  // namespace clgrade::chart
