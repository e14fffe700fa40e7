// Raster backend. Lines and discs are "capsules" (all points within a radius of a segment) with
// coverage from the distance of each pixel centre, which anti-aliases at any angle and width
// with one formula; text is stb_easy_font's rectangles scaled to whole pixels, so it stays crisp.
#include "chart/raster_canvas.h"

#include <algorithm>
#include <cmath>

#include "chart/font.h"

namespace clgrade::chart {
namespace {

// Clips segment a-b to the box [lo, hi]^2 (Liang-Barsky). Returns false if nothing is inside,
// else the parameters t0 <= t1 of the part inside.
bool clipSegment(Point a, Point b, double xlo, double ylo, double xhi, double yhi, double* t0, double* t1) {
  *t0 = 0.0;
  *t1 = 1.0;
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {a.x - xlo, xhi - a.x, a.y - ylo, yhi - a.y};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0.0) {
      if (q[i] < 0.0) return false;
      continue;
    }
    const double r = q[i] / p[i];
    if (p[i] < 0.0)
      *t0 = std::max(*t0, r);
    else
      *t1 = std::min(*t1, r);
  }
  return *t0 <= *t1;
}

Point lerp(Point a, Point b, double t) { return {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t}; }

// Rounds to whole pixels after clamping, so huge or non-finite values cannot overflow an int.
int pixel(double v) {
  if (!std::isfinite(v)) return 0;
  return static_cast<int>(std::lround(std::clamp(v, -1e6, 1e6)));
}

}  // namespace

RasterCanvas::RasterCanvas(int width, int height) {
  img_.width = std::max(0, width);
  img_.height = std::max(0, height);
  img_.rgb.assign(static_cast<size_t>(img_.width) * img_.height * 3, 255);
}

RgbImage RasterCanvas::take() {
  RgbImage out = std::move(img_);
  img_ = RgbImage{};
  return out;
}

RasterCanvas::Coverage RasterCanvas::coverageFor(const std::vector<Point>& points, double radius) const {
  Coverage cov;
  double xlo = INFINITY, ylo = INFINITY, xhi = -INFINITY, yhi = -INFINITY;
  for (const Point& p : points) {
    xlo = std::min(xlo, p.x);
    ylo = std::min(ylo, p.y);
    xhi = std::max(xhi, p.x);
    yhi = std::max(yhi, p.y);
  }
  // One pixel beyond the radius holds the soft edge; clamp in double before converting to int.
  const double pad = radius + 1.0;
  const int x0 = static_cast<int>(std::floor(std::clamp(xlo - pad, 0.0, static_cast<double>(img_.width))));
  const int y0 = static_cast<int>(std::floor(std::clamp(ylo - pad, 0.0, static_cast<double>(img_.height))));
  const int x1 = static_cast<int>(std::ceil(std::clamp(xhi + pad, 0.0, static_cast<double>(img_.width))));
  const int y1 = static_cast<int>(std::ceil(std::clamp(yhi + pad, 0.0, static_cast<double>(img_.height))));
  if (x1 <= x0 || y1 <= y0) return cov;
  cov.x0 = x0;
  cov.y0 = y0;
  cov.w = x1 - x0;
  cov.h = y1 - y0;
  cov.a.assign(static_cast<size_t>(cov.w) * cov.h, 0.0f);
  return cov;
}

void RasterCanvas::addCapsule(Coverage* cov, Point a, Point b, double radius) {
  if (cov->a.empty()) return;
  const double pad = radius + 1.0;
  const int x0 = std::max(cov->x0, static_cast<int>(std::floor(std::max(std::min(a.x, b.x) - pad, -1.0))));
  const int y0 = std::max(cov->y0, static_cast<int>(std::floor(std::max(std::min(a.y, b.y) - pad, -1.0))));
  const int x1 = std::min(cov->x0 + cov->w, static_cast<int>(std::ceil(std::min(std::max(a.x, b.x) + pad, 1e9))));
  const int y1 = std::min(cov->y0 + cov->h, static_cast<int>(std::ceil(std::min(std::max(a.y, b.y) + pad, 1e9))));
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double len2 = dx * dx + dy * dy;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      const double px = x + 0.5 - a.x, py = y + 0.5 - a.y;
      const double t = len2 > 0.0 ? std::clamp((px * dx + py * dy) / len2, 0.0, 1.0) : 0.0;
      const double ex = px - t * dx, ey = py - t * dy;
      // Full inside radius - 0.5, none beyond radius + 0.5: a one-pixel ramp.
      const double c = std::clamp(radius + 0.5 - std::sqrt(ex * ex + ey * ey), 0.0, 1.0);
      float& slot = cov->a[static_cast<size_t>(y - cov->y0) * cov->w + (x - cov->x0)];
      slot = std::max(slot, static_cast<float>(c));
    }
  }
}

void RasterCanvas::blend(const Coverage& cov, RgbColour colour) {
  const double src[3] = {static_cast<double>(colour.r), static_cast<double>(colour.g), static_cast<double>(colour.b)};
  for (int y = 0; y < cov.h; ++y) {
    for (int x = 0; x < cov.w; ++x) {
      const double a = cov.a[static_cast<size_t>(y) * cov.w + x];
      if (a <= 0.0) continue;
      uint8_t* px = &img_.rgb[(static_cast<size_t>(cov.y0 + y) * img_.width + (cov.x0 + x)) * 3];
      for (int c = 0; c < 3; ++c) px[c] = static_cast<uint8_t>(std::lround(px[c] + (src[c] - px[c]) * a));
    }
  }
}

void RasterCanvas::polyline(const std::vector<Point>& points, RgbColour colour, double width, bool dashed) {
  std::vector<Point> pts;
  for (const Point& p : points) {
    if (finite(p)) pts.push_back(p);
  }
  if (pts.size() < 2 || !(width > 0.0)) return;
  const double radius = width / 2.0;
  // Segments are clipped to just beyond the picture first, so far-away points cost nothing.
  const double m = radius + 2.0;
  const double xlo = -m, ylo = -m, xhi = img_.width + m, yhi = img_.height + m;
  std::vector<Point> clipped;
  for (size_t i = 1; i < pts.size(); ++i) {
    double t0, t1;
    if (!clipSegment(pts[i - 1], pts[i], xlo, ylo, xhi, yhi, &t0, &t1)) continue;
    clipped.push_back(lerp(pts[i - 1], pts[i], t0));
    clipped.push_back(lerp(pts[i - 1], pts[i], t1));
  }
  if (clipped.empty()) return;
  Coverage cov = coverageFor(clipped, radius);
  if (cov.a.empty()) return;
  const double period = kDash + kGap;
  double phase = 0.0;  // distance drawn so far, so the dash pattern runs on across joins
  for (size_t i = 0; i + 1 < clipped.size(); i += 2) {
    const Point a = clipped[i], b = clipped[i + 1];
    if (!dashed) {
      addCapsule(&cov, a, b, radius);
      continue;
    }
    const double len = std::hypot(b.x - a.x, b.y - a.y);
    if (!(len > 0.0)) continue;
    double t = 0.0;
    while (t < len) {
      const double into = std::fmod(phase, period);
      const bool on = into < kDash;
      const double run = std::min(on ? kDash - into : period - into, len - t);
      if (on) addCapsule(&cov, lerp(a, b, t / len), lerp(a, b, (t + run) / len), radius);
      t += run;
      phase += run;
    }
  }
  blend(cov, colour);
}

void RasterCanvas::disc(Point centre, double radius, RgbColour colour) {
  if (!finite(centre) || !(radius > 0.0)) return;
  Coverage cov = coverageFor({centre}, radius);
  addCapsule(&cov, centre, centre, radius);
  blend(cov, colour);
}

void RasterCanvas::fillPixels(int x0, int y0, int x1, int y1, RgbColour colour) {
  x0 = std::max(x0, 0);
  y0 = std::max(y0, 0);
  x1 = std::min(x1, img_.width);
  y1 = std::min(y1, img_.height);
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      uint8_t* px = &img_.rgb[(static_cast<size_t>(y) * img_.width + x) * 3];
      px[0] = colour.r;
      px[1] = colour.g;
      px[2] = colour.b;
    }
  }
}

void RasterCanvas::fillRect(const Rect& r, RgbColour colour) {
  if (!(r.w > 0.0) || !(r.h > 0.0)) return;
  fillPixels(pixel(r.x), pixel(r.y), pixel(r.x + r.w), pixel(r.y + r.h), colour);
}

void RasterCanvas::text(Point at, const std::string& s, RgbColour colour, const TextStyle& style) {
  if (!finite(at) || s.empty()) return;
  const double width = textWidth(s, style.bold);
  const double along = style.anchor == Anchor::Start ? 0.0 : (style.anchor == Anchor::Middle ? width / 2 : width);
  const int k = kFontScale;
  // Whole-pixel origin: the top-left corner of the capitals (horizontal), or bottom-left of the
  // rotated text, where reading starts (vertical).
  const int ox = pixel(style.vertical ? at.x - kCapHeight / 2 : at.x - along);
  const int oy = pixel(style.vertical ? at.y + along : at.y - kCapHeight / 2);
  for (const Rect& g : glyphRects(s)) {
    const int u0 = pixel(g.x * k), u1 = pixel((g.x + g.w) * k);
    const int v0 = pixel(g.y * k), v1 = pixel((g.y + g.h) * k);
    for (int pass = 0; pass < (style.bold ? 2 : 1); ++pass) {
      // Bold is the same glyph again one pixel further along the reading direction.
      if (style.vertical)
        fillPixels(ox + v0, oy - u1 - pass, ox + v1, oy - u0 - pass, colour);
      else
        fillPixels(ox + u0 + pass, oy + v0, ox + u1 + pass, oy + v1, colour);
    }
  }
}

}  // namespace clgrade::chart
