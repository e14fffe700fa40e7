#include "checks/failure_picture.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "chart/canvas.h"
#include "chart/font.h"
#include "chart/raster_canvas.h"
#include "image/png.h"

namespace clgrade {
namespace {

constexpr int kMargin = 8, kGap = 16, kTitle = 26, kCaption = 30;
const RgbColour kBox{0, 190, 255};

uint8_t tone(float v, float lo, float hi) {
  float t = (v - lo) / (hi - lo);
  if (!(t > 0.0f)) t = 0.0f;
  if (t > 1.0f) t = 1.0f;
  return static_cast<uint8_t>(t * 255.0f + 0.5f);
}

/// The colour of image pixel (x, y): gray for one channel, RGB for three, magenta when not finite.
RgbColour pixelColour(const Image& img, int x, int y, float lo, float hi) {
  RgbColour c;
  uint8_t v[3];
  for (int ch = 0; ch < 3; ++ch) {
    const float f = img.at(img.channels >= 3 ? ch : 0, x, y);
    if (!std::isfinite(f)) return {255, 0, 255};
    v[ch] = tone(f, lo, hi);
  }
  c.r = v[0];
  c.g = v[1];
  c.b = v[2];
  return c;
}

void outline(chart::RasterCanvas& canvas, double x, double y, double w, double h, RgbColour colour) {
  canvas.fillRect({x - 2, y - 2, w + 4, 2}, colour);
  canvas.fillRect({x - 2, y + h, w + 4, 2}, colour);
  canvas.fillRect({x - 2, y, 2, h}, colour);
  canvas.fillRect({x + w, y, 2, h}, colour);
}

}  // namespace

bool firstFailingPixel(const Image& worst, float failAt, int* x, int* y) {
  for (int j = 0; j < worst.height; ++j)
    for (int i = 0; i < worst.width; ++i) {
      const float e = worst.at(0, i, j);
      if (std::isnan(e) || e >= failAt) {
        *x = i;
        *y = j;
        return true;
      }
    }
  return false;
}

CropWindow cropAround(int x, int y, int imageWidth, int imageHeight, int width, int height, int scale) {
  CropWindow w;
  w.width = std::max(1, std::min(width, imageWidth));
  w.height = std::max(1, std::min(height, imageHeight));
  w.x0 = std::clamp(x - w.width / 2, 0, std::max(0, imageWidth - w.width));
  w.y0 = std::clamp(y - w.height / 2, 0, std::max(0, imageHeight - w.height));
  w.firstX = x;
  w.firstY = y;
  w.scale = std::max(1, scale);
  return w;
}

RgbImage failureCrop(const Image& expected, const Image& actual, const Image& worst, float failAt, float lo, float hi,
                     const CropWindow& w) {
  const int panelW = w.width * w.scale, panelH = w.height * w.scale;
  const std::string caption = "x " + std::to_string(w.x0) + ".." + std::to_string(w.x0 + w.width - 1) + ", y " +
                              std::to_string(w.y0) + ".." + std::to_string(w.y0 + w.height - 1) + ", " +
                              std::to_string(w.scale) + "x; boxed: the first wrong pixel (" + std::to_string(w.firstX) +
                              ", " + std::to_string(w.firstY) + ")";
  const int width = std::max(2 * kMargin + 3 * panelW + 2 * kGap, int(chart::textWidth(caption)) + 2 * kMargin);
  const int height = kTitle + panelH + kCaption;
  chart::RasterCanvas canvas(width, height);
  const float worstError = largestFinite(worst);
  const char* titles[3] = {"expected", "actual", "difference"};
  for (int panel = 0; panel < 3; ++panel) {
    const double left = kMargin + panel * (panelW + kGap);
    canvas.text({left, kTitle / 2.0}, titles[panel], {31, 35, 40}, {chart::Anchor::Start, true, false});
    for (int j = 0; j < w.height; ++j)
      for (int i = 0; i < w.width; ++i) {
        const int x = w.x0 + i, y = w.y0 + j;
        RgbColour c;
        if (panel == 0)
          c = pixelColour(expected, x, y, lo, hi);
        else if (panel == 1)
          c = pixelColour(actual, x, y, lo, hi);
        else {
          const Rgb8 d = differenceColour(worst.at(0, x, y), failAt, worstError);
          c = {d.r, d.g, d.b};
        }
        canvas.fillRect({left + i * w.scale, double(kTitle + j * w.scale), double(w.scale), double(w.scale)}, c);
      }
    if (w.firstX >= w.x0 && w.firstX < w.x0 + w.width && w.firstY >= w.y0 && w.firstY < w.y0 + w.height)
      outline(canvas, left + (w.firstX - w.x0) * w.scale, kTitle + (w.firstY - w.y0) * w.scale, w.scale, w.scale, kBox);
  }
  canvas.text({double(kMargin), kTitle + panelH + kCaption / 2.0}, caption, {31, 35, 40}, {});
  return canvas.take();
}

}  // namespace clgrade
