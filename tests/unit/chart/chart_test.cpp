// Charts: the SVG is well-formed XML that names what it draws and escapes markup; the PNG has the
// requested size and draws lines and bars in their colours, where the SVG says they are (both
// come from one drawing routine); ticks are 1-2-5 steps; degenerate data draws without crashing.
#include <gtest/gtest.h>
#include <png.h>
#include <tinyxml2.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "../../scratch.h"
#include "chart/axes.h"
#include "chart/chart.h"
#include "chart/font.h"
#include "chart/svg_canvas.h"

namespace clgrade {
namespace {

using tinyxml2::XMLDocument;
using tinyxml2::XMLElement;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// In this test process's own folder: two runs of the tests at once never share a file.
std::string tempPath(const std::string& name) {
  static const std::filesystem::path folder = test::freshFolder("clgrade_chart_test", "files");
  return (folder / name).string();
}

Series series(const std::string& name, std::vector<double> x, std::vector<double> y) {
  Series s;
  s.name = name;
  s.x = std::move(x);
  s.y = std::move(y);
  return s;
}

// Like the RESULT_STEPS sweep: four lines well apart (two dashed), a roofline, one incorrect point.
LineChart sweepChart() {
  LineChart c;
  c.title = "Separable: bandwidth";
  c.xLabel = "RESULT_STEPS";
  c.yLabel = "GB/s";
  const char* names[] = {"horizontal 16x4", "horizontal 32x8", "vertical 16x4", "vertical 32x8"};
  for (int k = 0; k < 4; ++k) {
    Series s = series(names[k], {}, {});
    for (int r = 1; r <= 8; ++r) {
      s.x.push_back(r);
      s.y.push_back(100.0 * (k + 1) + 5.0 * r);
    }
    s.dashed = k >= 2;
    c.series.push_back(s);
  }
  c.series[1].ok.assign(8, true);
  c.series[1].ok[6] = false;
  c.lines.push_back({"copy roofline", 500.0});
  return c;
}

BarChart scoreChart() {
  BarChart b;
  b.title = "Scores";
  b.xLabel = "points";
  b.yLabel = "students";
  b.categories = {"0", "1", "2", "3", "4"};
  b.values = {2, 0, 7, kNaN, 4};
  return b;
}

::testing::AssertionResult parses(const std::string& svg, XMLDocument* doc) {
  if (doc->Parse(svg.c_str(), svg.size()) != tinyxml2::XML_SUCCESS) {
    return ::testing::AssertionFailure() << "not well-formed: " << doc->ErrorStr() << "\n" << svg.substr(0, 2000);
  }
  if (!doc->RootElement() || std::strcmp(doc->RootElement()->Name(), "svg") != 0) {
    return ::testing::AssertionFailure() << "root element is not <svg>";
  }
  return ::testing::AssertionSuccess();
}

// Every element of the given name, depth first.
void collect(const XMLElement* e, const char* name, std::vector<const XMLElement*>* out) {
  for (; e; e = e->NextSiblingElement()) {
    if (std::strcmp(e->Name(), name) == 0) out->push_back(e);
    collect(e->FirstChildElement(), name, out);
  }
}
std::vector<const XMLElement*> elements(const XMLDocument& doc, const char* name) {
  std::vector<const XMLElement*> out;
  collect(doc.RootElement(), name, &out);
  return out;
}

std::vector<std::string> texts(const XMLDocument& doc) {
  std::vector<std::string> out;
  for (const XMLElement* e : elements(doc, "text")) out.push_back(e->GetText() ? e->GetText() : "");
  return out;
}

bool hasText(const XMLDocument& doc, const std::string& s) {
  for (const std::string& t : texts(doc)) {
    if (t == s) return true;
  }
  return false;
}

std::string attr(const XMLElement* e, const char* name) {
  const char* v = e->Attribute(name);
  return v ? v : "";
}

std::vector<chart::Point> points(const XMLElement* polyline) {
  std::vector<chart::Point> out;
  const std::string s = attr(polyline, "points");
  const char* p = s.c_str();
  double x, y;
  int used;
  while (std::sscanf(p, " %lf,%lf%n", &x, &y, &used) == 2) {
    out.push_back({x, y});
    p += used;
  }
  return out;
}

// The polylines drawn in colour c.
std::vector<const XMLElement*> polylines(const XMLDocument& doc, RgbColour c) {
  std::vector<const XMLElement*> out;
  for (const XMLElement* e : elements(doc, "polyline")) {
    if (attr(e, "stroke") == chart::hexColour(c)) out.push_back(e);
  }
  return out;
}

bool same(RgbColour a, RgbColour b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

RgbColour pixel(const RgbImage& img, int x, int y) {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return {};
  const uint8_t* p = &img.rgb[(static_cast<size_t>(y) * img.width + x) * 3];
  return {p[0], p[1], p[2]};
}

// Whether a pixel of colour c lies within one pixel of (x, y): a 2-pixel line always has a
// fully covered pixel there, wherever it passes through the pixel grid.
bool colourNear(const RgbImage& img, double x, double y, RgbColour c) {
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      if (same(pixel(img, static_cast<int>(std::floor(x)) + dx, static_cast<int>(std::floor(y)) + dy), c)) return true;
    }
  }
  return false;
}

// Reads a PNG with libpng's simplified API as 8-bit RGB.
bool readPng(const std::string& path, RgbImage* out) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) return false;
  image.format = PNG_FORMAT_RGB;
  out->rgb.assign(PNG_IMAGE_SIZE(image), 0);
  if (!png_image_finish_read(&image, nullptr, out->rgb.data(), 0, nullptr)) return false;
  out->width = static_cast<int>(image.width);
  out->height = static_cast<int>(image.height);
  return true;
}

TEST(ChartSvg, IsWellFormedAndNamesEverything) {
  const std::string svg = svgOf({sweepChart()});
  XMLDocument doc;
  ASSERT_TRUE(parses(svg, &doc));
  EXPECT_STREQ(doc.RootElement()->Attribute("width"), "560");
  EXPECT_STREQ(doc.RootElement()->Attribute("height"), "420");
  for (const char* s : {"horizontal 16x4", "horizontal 32x8", "vertical 16x4", "vertical 32x8", "copy roofline",
                        "incorrect", "Separable: bandwidth", "RESULT_STEPS", "GB/s"}) {
    EXPECT_TRUE(hasText(doc, s)) << s;
  }
  // Every RESULT_STEPS value is a tick: there is room for 8 one-digit labels.
  for (int r = 1; r <= 8; ++r) EXPECT_TRUE(hasText(doc, std::to_string(r))) << r;
}

TEST(ChartSvg, PanelsSitSideBySide) {
  LineChart time = sweepChart();
  time.title = "Separable: time";
  XMLDocument doc;
  ASSERT_TRUE(parses(svgOf({sweepChart(), time}, {400, 300}), &doc));
  EXPECT_STREQ(doc.RootElement()->Attribute("width"), "800");
  EXPECT_STREQ(doc.RootElement()->Attribute("height"), "300");
  EXPECT_TRUE(hasText(doc, "Separable: bandwidth"));
  EXPECT_TRUE(hasText(doc, "Separable: time"));
  // The first series' line and legend sample, in the first panel, then in the second one.
  const std::vector<const XMLElement*> first = polylines(doc, paletteColour(0));
  ASSERT_EQ(first.size(), 4u);
  for (size_t i = 0; i < first.size(); ++i) {
    for (const chart::Point& p : points(first[i])) {
      EXPECT_EQ(p.x > 400.0, i >= 2) << i << ": " << p.x;
    }
  }
}

TEST(ChartSvg, EscapesMarkupInLabels) {
  LineChart c = sweepChart();
  c.title = "x < y && z > \"q\"";
  c.series[0].name = "a<b & 'c'";
  const std::string svg = svgOf({c});
  EXPECT_EQ(svg.find("a<b"), std::string::npos);
  EXPECT_NE(svg.find("a&lt;b &amp; &apos;c&apos;"), std::string::npos);
  XMLDocument doc;
  ASSERT_TRUE(parses(svg, &doc));
  EXPECT_TRUE(hasText(doc, "a<b & 'c'"));
  EXPECT_TRUE(hasText(doc, "x < y && z > \"q\""));
}

TEST(ChartSvg, ReplacesWhatXmlForbidsAndKeepsUtf8) {
  LineChart c = sweepChart();
  c.yLabel = "time (\xC2\xB5s)";
  c.series[0].name = std::string("bell\x07 nul") + '\0' + "x";
  c.series[1].name = "broken \xFF\xC3 utf8";
  XMLDocument doc;
  ASSERT_TRUE(parses(svgOf({c}), &doc));
  EXPECT_TRUE(hasText(doc, "time (\xC2\xB5s)"));
  // The reports' own cleaning (util/markup): U+FFFD for controls and for each byte of broken UTF-8.
  EXPECT_TRUE(hasText(doc, "bell\xEF\xBF\xBD nul\xEF\xBF\xBDx"));
  EXPECT_TRUE(hasText(doc, "broken \xEF\xBF\xBD\xEF\xBF\xBD utf8"));
}

TEST(ChartSvg, SaysIncorrectOnlyWhenAPointIs) {
  LineChart c = sweepChart();
  c.series[1].ok.clear();
  XMLDocument doc;
  ASSERT_TRUE(parses(svgOf({c}), &doc));
  EXPECT_FALSE(hasText(doc, "incorrect"));
  EXPECT_TRUE(polylines(doc, incorrectColour()).empty());
  c.series[3].ok = {true, false};  // shorter than the points: the rest count as correct
  ASSERT_TRUE(parses(svgOf({c}), &doc));
  EXPECT_TRUE(hasText(doc, "incorrect"));
  // One cross of two strokes in the plot, one in the legend.
  EXPECT_EQ(polylines(doc, incorrectColour()).size(), 4u);
}

TEST(ChartSvg, SeriesTakePaletteColoursAndDashes) {
  LineChart c = sweepChart();
  c.series[3].colour = 0;  // shares the first series' colour, dashed
  XMLDocument doc;
  ASSERT_TRUE(parses(svgOf({c}), &doc));
  // Per colour: the series' lines, then the legend samples.
  EXPECT_EQ(polylines(doc, paletteColour(0)).size(), 4u);
  EXPECT_EQ(polylines(doc, paletteColour(1)).size(), 2u);
  EXPECT_EQ(polylines(doc, paletteColour(2)).size(), 2u);
  EXPECT_EQ(polylines(doc, paletteColour(3)).size(), 0u);
  const std::vector<const XMLElement*> first = polylines(doc, paletteColour(0));
  EXPECT_EQ(attr(first[0], "stroke-dasharray"), "");
  EXPECT_NE(attr(first[1], "stroke-dasharray"), "");
  EXPECT_EQ(points(first[0]).size(), 8u);
  for (int i = 0; i < 8; ++i) {
    const RgbColour p = paletteColour(i);
    EXPECT_FALSE(same(p, incorrectColour())) << i;
    for (int k = 0; k < i; ++k) EXPECT_FALSE(same(p, paletteColour(k))) << i << " " << k;
  }
  EXPECT_TRUE(same(paletteColour(-1), paletteColour(7)));
}

TEST(ChartPng, HasTheRequestedSize) {
  std::string err;
  RgbImage img;
  ASSERT_TRUE(writePng(tempPath("sweep.png"), {sweepChart(), sweepChart()}, {300, 200}, &err)) << err;
  ASSERT_TRUE(readPng(tempPath("sweep.png"), &img));
  EXPECT_EQ(img.width, 600);
  EXPECT_EQ(img.height, 200);
  ASSERT_TRUE(writePng(tempPath("bars.png"), scoreChart(), {640, 480}, &err)) << err;
  ASSERT_TRUE(readPng(tempPath("bars.png"), &img));
  EXPECT_EQ(img.width, 640);
  EXPECT_EQ(img.height, 480);
  std::remove(tempPath("sweep.png").c_str());
  std::remove(tempPath("bars.png").c_str());
}

TEST(ChartPng, FileHoldsTheRasterPixels) {
  std::string err;
  ASSERT_TRUE(writePng(tempPath("same.png"), {sweepChart()}, {}, &err)) << err;
  RgbImage file;
  ASSERT_TRUE(readPng(tempPath("same.png"), &file));
  const RgbImage raster = rasterOf({sweepChart()});
  EXPECT_EQ(file.width, raster.width);
  EXPECT_EQ(file.height, raster.height);
  EXPECT_TRUE(file.rgb == raster.rgb);
  std::remove(tempPath("same.png").c_str());
}

TEST(ChartPng, ReportsAnUnwritablePath) {
  std::string err;
  EXPECT_FALSE(writePng("/nonexistent-dir/chart.png", scoreChart(), {}, &err));
  EXPECT_NE(err.find("/nonexistent-dir/chart.png: No such file or directory"), std::string::npos) << err;
}

TEST(ChartPng, LinesAreDrawnInTheSeriesColourWhereTheSvgHasThem) {
  const LineChart c = sweepChart();
  XMLDocument doc;
  ASSERT_TRUE(parses(svgOf({c}), &doc));
  const RgbImage img = rasterOf({c});
  ASSERT_EQ(img.width, 560);
  ASSERT_EQ(img.height, 420);
  for (int k = 0; k < 4; ++k) {
    SCOPED_TRACE(c.series[k].name);
    const std::vector<const XMLElement*> lines = polylines(doc, paletteColour(k));
    ASSERT_FALSE(lines.empty());
    const std::vector<chart::Point> pts = points(lines[0]);
    ASSERT_EQ(pts.size(), 8u);
    for (size_t i = 0; i + 1 < pts.size(); ++i) {
      // Along each segment, away from the dots at its ends: solid lines are coloured all the
      // way, dashed ones have pixels of the colour and gaps without any near them.
      int near = 0, gaps = 0, samples = 0;
      for (int j = 20; j <= 80; ++j, ++samples) {
        const double t = j / 100.0;
        const double x = pts[i].x + t * (pts[i + 1].x - pts[i].x), y = pts[i].y + t * (pts[i + 1].y - pts[i].y);
        const bool coloured = colourNear(img, x, y, paletteColour(k));
        near += coloured ? 1 : 0;
        gaps += coloured ? 0 : 1;
      }
      if (c.series[k].dashed) {
        EXPECT_GT(near, samples / 3) << "segment " << i;
        EXPECT_GT(gaps, 0) << "segment " << i;
      } else {
        EXPECT_EQ(near, samples) << "segment " << i;
      }
    }
  }
  // The incorrect point (series 1, RESULT_STEPS 7) is a red cross over the line.
  const std::vector<chart::Point> line1 = points(polylines(doc, paletteColour(1))[0]);
  const chart::Point p = line1[6];
  EXPECT_TRUE(colourNear(img, p.x, p.y, incorrectColour()));
  const chart::Point q = line1[5];
  EXPECT_FALSE(colourNear(img, q.x, q.y, incorrectColour()));
}

TEST(ChartPng, BarsAreFilledWhereTheSvgHasThem) {
  XMLDocument doc;
  ASSERT_TRUE(parses(svgOf(scoreChart()), &doc));
  std::vector<const XMLElement*> bars;
  for (const XMLElement* e : elements(doc, "rect")) {
    if (attr(e, "fill") == chart::hexColour(paletteColour(0))) bars.push_back(e);
  }
  // 2, 7 and 4 have bars; 0 has none to see, NaN none at all.
  ASSERT_EQ(bars.size(), 3u);
  const RgbImage img = rasterOf(scoreChart());
  double previousX = -1.0;
  for (const XMLElement* b : bars) {
    const double x = b->DoubleAttribute("x") + b->DoubleAttribute("width") / 2;
    const double y = b->DoubleAttribute("y") + b->DoubleAttribute("height") / 2;
    EXPECT_GT(x, previousX);
    previousX = x;
    EXPECT_TRUE(same(pixel(img, static_cast<int>(x), static_cast<int>(y)), paletteColour(0))) << x << "," << y;
  }
  EXPECT_NEAR(bars[1]->DoubleAttribute("height") / bars[0]->DoubleAttribute("height"), 7.0 / 2.0, 0.05);
  for (const char* s : {"Scores", "points", "students", "0", "1", "2", "3", "4", "7"})
    EXPECT_TRUE(hasText(doc, s)) << s;
}

TEST(ChartTicks, StepsAreOneTwoFive) {
  EXPECT_DOUBLE_EQ(chart::niceStep(1.0), 1.0);
  EXPECT_DOUBLE_EQ(chart::niceStep(1.01), 2.0);
  EXPECT_DOUBLE_EQ(chart::niceStep(0.2), 0.2);
  EXPECT_DOUBLE_EQ(chart::niceStep(0.3), 0.5);
  EXPECT_DOUBLE_EQ(chart::niceStep(7.0), 10.0);
  EXPECT_DOUBLE_EQ(chart::niceStep(420.0), 500.0);
  EXPECT_EQ(chart::niceStep(0.0), 0.0);
  EXPECT_EQ(chart::niceStep(kNaN), 0.0);
  EXPECT_EQ(chart::niceStep(kInf), 0.0);
}

TEST(ChartTicks, CoverTheDataInWholeSteps) {
  chart::Range r;
  r.add(0.0);
  r.add(97.0);
  chart::Ticks t = chart::niceTicks(r, 6, true);
  EXPECT_DOUBLE_EQ(t.step, 20.0);
  EXPECT_DOUBLE_EQ(t.lo, 0.0);
  EXPECT_DOUBLE_EQ(t.hi, 100.0);
  EXPECT_EQ(t.labels, (std::vector<std::string>{"0", "20", "40", "60", "80", "100"}));
  chart::Range steps;
  steps.add(1.0);
  steps.add(8.0);
  t = chart::niceTicks(steps, 8, false);
  EXPECT_DOUBLE_EQ(t.lo, 1.0);
  EXPECT_DOUBLE_EQ(t.hi, 8.0);
  EXPECT_EQ(t.values.size(), 8u);
  t = chart::niceTicks(steps, 4, false);
  EXPECT_EQ(t.labels, (std::vector<std::string>{"2", "4", "6", "8"}));
}

TEST(ChartTicks, DegenerateRangesStillHaveTicks) {
  chart::Range none;
  none.add(kNaN);
  none.add(kInf);
  EXPECT_TRUE(none.empty);
  chart::Ticks t = chart::niceTicks(none, 5, true);
  EXPECT_DOUBLE_EQ(t.lo, 0.0);
  EXPECT_DOUBLE_EQ(t.hi, 1.0);
  chart::Range one;
  one.add(42.0);
  t = chart::niceTicks(one, 5, true);
  EXPECT_LT(t.lo, 42.0);
  EXPECT_GT(t.hi, 42.0);
  EXPECT_GE(t.values.size(), 2u);
  chart::Range zero;
  zero.add(0.0);
  t = chart::niceTicks(zero, 5, false);
  EXPECT_LT(t.lo, 0.0);
  EXPECT_GT(t.hi, 0.0);
  chart::Range huge;
  huge.add(-1e308);
  huge.add(1e308);
  t = chart::niceTicks(huge, 5, true);  // the span overflows: no step, no endless loop
  EXPECT_EQ(t.labels.size(), t.values.size());
}

TEST(ChartTicks, LabelsUseFewDecimalsAndThousands) {
  EXPECT_EQ(chart::tickLabels({0.0, 0.5, 1.0}, 0.5), (std::vector<std::string>{"0.0", "0.5", "1.0"}));
  EXPECT_EQ(chart::tickLabels({0.0, 5000.0, 10000.0, 15000.0}, 5000.0),
            (std::vector<std::string>{"0", "5k", "10k", "15k"}));
  EXPECT_EQ(chart::tickLabels({2e6, 2.5e6}, 5e5), (std::vector<std::string>{"2.0M", "2.5M"}));
  EXPECT_EQ(chart::tickLabels({-0.2, -0.0, 0.2}, 0.2), (std::vector<std::string>{"-0.2", "0.0", "0.2"}));
  EXPECT_EQ(chart::valueLabel(12.0), "12");
  EXPECT_EQ(chart::valueLabel(12.5), "12.5");
  EXPECT_EQ(chart::valueLabel(1.0 / 3.0), "0.33");
  EXPECT_EQ(chart::valueLabel(-0.001), "0");
  EXPECT_EQ(chart::valueLabel(15300.0), "15.3k");
  EXPECT_EQ(chart::valueLabel(kNaN), "");
}

TEST(ChartText, RasterFontGetsPrintableAscii) {
  EXPECT_EQ(chart::rasterText("time (\xC2\xB5s)"), "time (us)");
  EXPECT_EQ(chart::rasterText("caf\xC3\xA9\x01\x7F!"), "caf?  !");
  EXPECT_EQ(chart::rasterText("\xFF\xFE"), "??");
  EXPECT_DOUBLE_EQ(chart::textWidth(""), 0.0);
  EXPECT_GT(chart::textWidth("WWW"), chart::textWidth("W"));
  // Text is drawn: a title adds dark pixels.
  LineChart plain;
  LineChart titled;
  titled.title = "TITLE";
  auto dark = [](const RgbImage& img) {
    int n = 0;
    for (size_t i = 0; i < img.rgb.size(); i += 3) n += img.rgb[i] < 100 && img.rgb[i + 1] < 100 ? 1 : 0;
    return n;
  };
  EXPECT_GT(dark(rasterOf({titled})), dark(rasterOf({plain})) + 50);
}

// Draws the chart both ways and checks the SVG parses and the raster has the expected size.
template <class Chart>
void drawsBothWays(const std::vector<Chart>& charts, ChartSize size, int width, int height) {
  XMLDocument doc;
  EXPECT_TRUE(parses(svgOf(charts, size), &doc));
  const RgbImage img = rasterOf(charts, size);
  EXPECT_EQ(img.width, width);
  EXPECT_EQ(img.height, height);
  EXPECT_EQ(img.rgb.size(), static_cast<size_t>(width) * height * 3);
}

TEST(ChartDegenerate, LineChartsDrawWithoutCrashing) {
  std::vector<LineChart> cases;
  cases.push_back(LineChart{});
  LineChart c;
  c.series.push_back(Series{});  // no points, no name
  cases.push_back(c);
  c.series = {series("one point", {3.0}, {7.0})};
  cases.push_back(c);
  c.series = {series("flat", {1, 2, 3}, {5, 5, 5})};
  cases.push_back(c);
  c.yFromZero = false;
  cases.push_back(c);
  c.series = {series("zeros", {1, 1, 1}, {0, 0, 0})};
  cases.push_back(c);
  c.series = {series("non-finite", {1, 2, kNaN, 4, 5, kInf}, {1, kNaN, 3, -kInf, 5, 6})};
  cases.push_back(c);
  c.series = {series("all NaN", {kNaN, kNaN}, {kNaN, kNaN})};
  c.lines = {{"NaN line", kNaN}, {"", 3.0}};
  cases.push_back(c);
  c.series = {series("sizes differ", {1, 2, 3, 4}, {1, 2})};
  c.series[0].ok = {false, false, false, false, false, false};
  c.series[0].colour = 1000;
  cases.push_back(c);
  c.series = {series("huge", {-1e308, 1e308}, {1e308, -1e308}), series("tiny", {1e-310, 2e-310}, {1e-300, 3e-300})};
  cases.push_back(c);
  c.lines = {{"far line", 1e300}};
  c.series = {series("negative", {-3, -2, -1}, {-50, -20, -70})};
  c.yFromZero = true;
  cases.push_back(c);
  c.series = {series(std::string(400, 'W'), {1, 2}, {1, 2})};
  c.title = std::string(300, 'T');
  c.xLabel = std::string(300, 'x');
  c.yLabel = std::string(300, 'y');
  cases.push_back(c);
  Series dense = series("dense", {}, {});
  for (int i = 0; i < 5000; ++i) {
    dense.x.push_back(i);
    dense.y.push_back(std::sin(i * 0.01));
  }
  dense.dashed = true;
  c = LineChart{};
  c.series = {dense};
  cases.push_back(c);
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    drawsBothWays(std::vector<LineChart>{cases[i]}, {}, 560, 420);
    drawsBothWays(std::vector<LineChart>{cases[i]}, {40, 40}, 40, 40);
  }
  drawsBothWays(std::vector<LineChart>{}, {}, 560, 420);
  drawsBothWays(cases, {100, 100}, 100 * static_cast<int>(cases.size()), 100);
  // Sizes outside the limits are clamped to them.
  drawsBothWays(std::vector<LineChart>{sweepChart()}, {0, -5}, 32, 32);
  drawsBothWays(std::vector<LineChart>{sweepChart()}, {100000, 100000}, 4096, 4096);
  drawsBothWays(std::vector<LineChart>(600, sweepChart()), {200, 50}, 512 * 32, 50);
}

TEST(ChartDegenerate, BarChartsDrawWithoutCrashing) {
  std::vector<BarChart> cases;
  cases.push_back(BarChart{});
  BarChart b;
  b.categories = {"a", "b", "c"};
  cases.push_back(b);
  b.categories.clear();
  b.values = {1, 2, 3};
  cases.push_back(b);
  b.values = {0, 0, 0};
  cases.push_back(b);
  b.values = {kNaN, kInf, -kInf};
  cases.push_back(b);
  b.values = {-5, 3, -1e308, 1e308};
  b.categories = {"negative", "<&>", std::string(200, 'c')};
  cases.push_back(b);
  b.values.assign(3000, 1.0);
  cases.push_back(b);
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    XMLDocument doc;
    EXPECT_TRUE(parses(svgOf(cases[i]), &doc));
    const RgbImage img = rasterOf(cases[i], {50, 60});
    EXPECT_EQ(img.width, 50);
    EXPECT_EQ(img.height, 60);
  }
  drawsBothWays(std::vector<BarChart>{}, {}, 560, 420);
  drawsBothWays(cases, {}, 560 * static_cast<int>(cases.size()), 420);
}

}  // namespace
}  // namespace clgrade
