// The one drawing routine per chart kind, over any canvas.
#pragma once

#include "chart/canvas.h"
#include "chart/chart.h"

namespace clgrade::chart {

/// Rows the chart's legend takes in a panel this wide; panels side by side all reserve the
/// largest count, so that their plots line up.
int legendRowsOf(const LineChart& chart, double panelWidth);
/// Bar charts have no legend: 0.
int legendRowsOf(const BarChart& chart, double panelWidth);

/// Draws a line chart into the panel rectangle, its legend taking at least minLegendRows rows.
void drawChart(Canvas& c, const LineChart& chart, const Rect& panel, int minLegendRows = 0);
/// Draws a bar chart into the panel rectangle, leaving minLegendRows empty legend rows below.
void drawChart(Canvas& c, const BarChart& chart, const Rect& panel, int minLegendRows = 0);

}  // namespace clgrade::chart
