// Pictures that show the bug (issue 14, item 2): a crop around the first wrong pixel at full
// resolution, magnified without smoothing, expected | actual | difference side by side with the
// coordinates written under them and the first wrong pixel boxed. A one-pixel column at x = W-1 or
// a shift by one pixel cannot be seen in a full-frame picture shrunk to a page; here it can.
#pragma once

#include "chart/chart.h"
#include "image/image.h"

namespace clgrade {

/// The part of the image a crop shows, in image pixels, and where the first wrong pixel is.
struct CropWindow {
  int x0 = 0, y0 = 0, width = 0, height = 0;
  int firstX = -1, firstY = -1;  ///< the first wrong pixel (row order)
  int scale = 8;                 ///< screen pixels per image pixel
};

/// The first pixel (row order) of the 1-channel squared errors `worst` that fails (>= failAt, or
/// NaN); false when none does.
bool firstFailingPixel(const Image& worst, float failAt, int* x, int* y);

/// A window of at most `width` x `height` pixels with (x, y) as near its middle as the image allows.
CropWindow cropAround(int x, int y, int imageWidth, int imageHeight, int width = 32, int height = 24, int scale = 8);

/// The picture: three panels (expected and actual as gray or RGB on [lo, hi], the difference as the
/// heat map of image/png.h's differenceColour over the whole image's worst error), titles above,
/// "x 1248..1279, y 0..23, 8x; boxed: the first wrong pixel (1279, 0)" below.
RgbImage failureCrop(const Image& expected, const Image& actual, const Image& worst, float failAt, float lo, float hi,
                     const CropWindow& window);

}  // namespace clgrade
