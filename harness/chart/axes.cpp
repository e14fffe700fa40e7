// Ticks, labels and the panel layout shared by line and bar charts.
#include "chart/axes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "chart/font.h"

namespace clgrade::chart {
namespace {

// Tolerance, in steps, for deciding that a value lies on a tick despite rounding.
constexpr double kEps = 1e-9;
// Margin around a panel, and the gaps between its parts, in pixels.
constexpr double kPad = 10.0;
constexpr double kGapSmall = 8.0;
// Legend: length of the line sample, gap to its text, gap to the next entry, row height.
constexpr double kSwatch = 28.0;
constexpr double kSwatchGap = 6.0;
constexpr double kEntryGap = 22.0;
constexpr double kRowHeight = kLineHeight + 2.0;

// snprintf into a std::string.
std::string format(const char* fmt, int decimals, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, decimals, v);
  std::string s = buf;
  // "-0", "-0.0": a value that rounds to zero has no sign worth showing.
  if (s.size() > 1 && s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

// Thousands group for values of 10000 and more: 1 = k, 2 = M, 3 = G, 4 = T; 0 below.
int thousandsGroup(double largest) {
  if (!(largest >= 1e4)) return 0;
  return std::min(4, static_cast<int>(std::floor(std::log10(largest) / 3.0 + kEps)));
}
const char* kGroupSuffix[] = {"", "k", "M", "G", "T"};

double entryWidth(const LegendEntry& e) { return kSwatch + kSwatchGap + textWidth(e.label) + kEntryGap; }

// Where each legend entry goes, flowing left to right in rows of the given width: its x offset
// and its row. An entry wider than the width gets a row of its own.
struct LegendSlot {
  double x = 0.0;
  int row = 0;
};
std::vector<LegendSlot> flowLegend(const std::vector<LegendEntry>& entries, double width) {
  std::vector<LegendSlot> slots;
  LegendSlot next;
  for (const LegendEntry& e : entries) {
    const double w = entryWidth(e);
    if (next.x > 0.0 && next.x + w - kEntryGap > width) next = {0.0, next.row + 1};
    slots.push_back(next);
    next.x += w;
  }
  return slots;
}

}  // namespace

void Range::add(double v) {
  if (!std::isfinite(v)) return;
  if (empty) {
    lo = hi = v;
    empty = false;
  } else {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
}

void padRange(Range* r, double share, bool fromZero) {
  if (r->empty) return;
  if (fromZero && r->lo == 0.0 && r->hi == 0.0) {
    r->hi = 1.0;  // rather than [-1, 1] around the lone zero: nothing below zero to show
    return;
  }
  const double pad = (r->hi - r->lo) * share;
  if (!std::isfinite(pad)) return;
  if (!(fromZero && r->lo == 0.0)) r->lo -= pad;
  if (!(fromZero && r->hi == 0.0)) r->hi += pad;
}

double niceStep(double raw) {
  if (!(raw > 0.0) || !std::isfinite(raw)) return 0.0;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / p;
  // The tolerance keeps 0.2 a step of 0.2 although 0.2 / 0.1 is 2.0000000000000004.
  const double m = f <= 1.0 + kEps ? 1.0 : f <= 2.0 + kEps ? 2.0 : f <= 5.0 + kEps ? 5.0 : 10.0;
  return m * p;
}

Ticks niceTicks(const Range& r, int maxCount, bool extend) {
  maxCount = std::max(2, maxCount);
  double lo = r.empty ? 0.0 : r.lo, hi = r.empty ? 1.0 : r.hi;
  if (!(hi > lo)) {
    // One value: a range 10% either side of it (or +-1 around zero), so it sits in the middle.
    double d = std::abs(lo) * 0.1;
    if (!(d > 1e-300)) d = 1.0;
    lo -= d;
    hi += d;
  }
  Ticks t;
  t.lo = lo;
  t.hi = hi;
  double step = niceStep((hi - lo) / maxCount);
  // Each round moves to the next nice step (1 -> 2 -> 5 -> 10); a handful of rounds always suffices.
  for (int round = 0; round < 64 && step > 0.0 && std::isfinite(step); ++round) {
    const double a = extend ? std::floor(lo / step + kEps) : std::ceil(lo / step - kEps);
    const double b = extend ? std::ceil(hi / step - kEps) : std::floor(hi / step + kEps);
    if (b - a + 1.0 > maxCount) {
      step = niceStep(step * 1.5);
      continue;
    }
    t.step = step;
    if (extend) {
      t.lo = a * step;
      t.hi = b * step;
    }
    for (double i = a; i <= b; i += 1.0) t.values.push_back(std::abs(i) < kEps ? 0.0 : i * step);
    t.labels = tickLabels(t.values, step);
    return t;
  }
  // Absurd ranges (overflowing spans, denormal steps): label the ends only.
  t.step = 0.0;
  if (std::isfinite(lo) && std::isfinite(hi)) t.values = {lo, hi};
  t.labels = tickLabels(t.values, 0.0);
  return t;
}

Ticks fitTicks(const Range& r, double pixels, bool extend, bool horizontal) {
  // Roughly one tick per 45 pixels, and never more than 12.
  int maxCount = std::clamp(static_cast<int>(pixels / 45.0), 2, 12);
  if (!horizontal) return niceTicks(r, maxCount, extend);
  for (;; --maxCount) {
    Ticks t = niceTicks(r, maxCount, extend);
    if (maxCount <= 2 || t.values.size() < 2) return t;
    double widest = 0.0;
    for (const std::string& s : t.labels) widest = std::max(widest, textWidth(s));
    // Wide labels (e.g. "1.05k") would touch each other: fewer ticks then.
    const double spacing = pixels * (t.values[1] - t.values[0]) / (t.hi - t.lo);
    if (widest + 16.0 <= spacing) return t;
  }
}

std::vector<std::string> tickLabels(const std::vector<double>& values, double step) {
  std::vector<std::string> labels;
  double largest = 0.0;
  for (double v : values) largest = std::max(largest, std::abs(v));
  const int group = thousandsGroup(largest);
  const double div = std::pow(1000.0, group);
  const int decimals = step > 0.0 ? std::max(0, static_cast<int>(-std::floor(std::log10(step / div) + kEps))) : 0;
  const bool general = !(step > 0.0) || decimals > 9 || largest >= 1e16;
  for (double v : values) {
    if (general)
      labels.push_back(format("%.*g", 4, v));
    else if (v == 0.0 && group > 0)
      labels.push_back("0");  // not "0k"
    else
      labels.push_back(format("%.*f", decimals, v / div) + kGroupSuffix[group]);
  }
  return labels;
}

std::string valueLabel(double v) {
  if (!std::isfinite(v)) return "";
  if (std::abs(v) >= 1e16) return format("%.*g", 3, v);
  const int group = thousandsGroup(std::abs(v));
  const double x = v / std::pow(1000.0, group);
  const double a = std::abs(x);
  std::string s = format("%.*f", a >= 100.0 ? 0 : (a >= 10.0 ? 1 : 2), x);
  // "12.50" -> "12.5", "3.00" -> "3".
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s + kGroupSuffix[group];
}

double LinearMap::operator()(double v) const {
  const double span = d1 - d0;
  if (!(span != 0.0) || !std::isfinite(span)) return (p0 + p1) / 2.0;
  return p0 + (v - d0) / span * (p1 - p0);
}

double crisp(double v) { return std::floor(v) + 0.5; }

int legendRows(const std::vector<LegendEntry>& entries, double panelWidth) {
  const std::vector<LegendSlot> slots = flowLegend(entries, panelWidth - 2 * kPad);
  return slots.empty() ? 0 : slots.back().row + 1;
}

PanelLayout layoutPanel(const Rect& panel, PanelSpec spec) {
  PanelLayout l;
  l.panel = panel;
  // Vertical: title, plot, x tick labels, x label, legend; the plot takes what is left.
  double top = panel.y + kPad;
  if (!spec.title.empty()) top += kCapHeight + 2 * kGapSmall;
  top += kCapHeight / 2;  // the top y tick label is centred on the plot's top edge
  double bottom = panel.y + panel.h - kPad;
  const int rows = std::max(spec.minLegendRows, legendRows(spec.legend, panel.w));
  if (rows > 0) {
    const double h = rows * kRowHeight;
    l.legend = {panel.x + kPad, bottom - h, panel.w - 2 * kPad, h};
    bottom -= h + kGapSmall;
  }
  if (!spec.xLabel.empty()) bottom -= kCapHeight + kGapSmall;
  l.xTickRow = kCapHeight + kGapSmall / 2;
  bottom -= kCapHeight + kGapSmall + (std::max(1, spec.xTickRows) - 1) * l.xTickRow;
  l.plot.y = top;
  l.plot.h = std::max(8.0, bottom - top);
  l.xTickY = l.plot.y + l.plot.h + kGapSmall + kCapHeight / 2;
  l.xLabelY = l.xTickY + (std::max(1, spec.xTickRows) - 1) * l.xTickRow + kCapHeight + kGapSmall;
  // Horizontal: the y tick labels' width is known once the plot height has fixed the y ticks.
  l.y = fitTicks(spec.y, l.plot.h, true, false);
  double widest = 0.0;
  for (const std::string& s : l.y.labels) widest = std::max(widest, textWidth(s));
  double left = panel.x + kPad + widest + kGapSmall;
  if (!spec.yLabel.empty()) left += kCapHeight + kDescent + kGapSmall;  // rotated, descenders point right
  // Half of the last x tick label sticks out on the right of the plot.
  const double right = panel.x + panel.w - kPad - 2 * kGapSmall;
  l.plot.x = left;
  l.plot.w = std::max(8.0, right - left);
  l.spec = std::move(spec);
  return l;
}

void drawYAxis(Canvas& c, const PanelLayout& l, const LinearMap& ymap) {
  const Rect& p = l.plot;
  for (size_t i = 0; i < l.y.values.size(); ++i) {
    const double y = ymap(l.y.values[i]);
    c.line({crisp(p.x), crisp(y)}, {crisp(p.x + p.w), crisp(y)}, kGridColour, 1.0);
    c.text({p.x - kGapSmall, y}, l.y.labels[i], kTickTextColour, {Anchor::End});
  }
}

void drawFrame(Canvas& c, const PanelLayout& l) {
  const Rect& p = l.plot;
  const std::string& title = l.spec.title;
  const std::string& xLabel = l.spec.xLabel;
  const std::string& yLabel = l.spec.yLabel;
  const double x0 = crisp(p.x), x1 = crisp(p.x + p.w), y0 = crisp(p.y), y1 = crisp(p.y + p.h);
  c.polyline({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}}, kFrameColour, 1.0, false);
  if (!title.empty()) {
    // Centred over the plot, but shifted to stay inside the panel when it is long.
    const double half = textWidth(title, true) / 2;
    double x = p.x + p.w / 2;
    const double minX = l.panel.x + kPad + half, maxX = l.panel.x + l.panel.w - kPad - half;
    x = minX <= maxX ? std::clamp(x, minX, maxX) : l.panel.x + l.panel.w / 2;
    c.text({x, l.panel.y + kPad + kCapHeight / 2}, title, kTextColour, {Anchor::Middle, true});
  }
  if (!xLabel.empty()) c.text({p.x + p.w / 2, l.xLabelY}, xLabel, kTextColour, {Anchor::Middle});
  if (!yLabel.empty()) {
    c.text({l.panel.x + kPad + kCapHeight / 2, p.y + p.h / 2}, yLabel, kTextColour, {Anchor::Middle, false, true});
  }
}

void drawLegend(Canvas& c, const PanelLayout& l) {
  const std::vector<LegendSlot> slots = flowLegend(l.spec.legend, l.legend.w);
  for (size_t i = 0; i < slots.size(); ++i) {
    const LegendEntry& e = l.spec.legend[i];
    const double left = l.legend.x + slots[i].x;
    const double y = l.legend.y + (slots[i].row + 0.5) * kRowHeight;
    const Point mid{left + kSwatch / 2, y};
    if (e.cross) {
      c.cross(mid, 5.0, e.colour, 2.5);
    } else {
      c.line({left, y}, {left + kSwatch, y}, e.colour, e.width, e.dashed);
      if (e.dot) c.disc(mid, 3.5, e.colour);
    }
    c.text({left + kSwatch + kSwatchGap, y}, e.label, kTextColour, {Anchor::Start});
  }
}

void drawNoData(Canvas& c, const PanelLayout& l) {
  c.text({l.plot.x + l.plot.w / 2, l.plot.y + l.plot.h / 2}, "no data", kTickTextColour, {Anchor::Middle});
}

}  // namespace clgrade::chart
