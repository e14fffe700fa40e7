// Task 2 reference: a separable convolution, a horizontal pass into an intermediate image and
// a vertical pass over that.
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/reference.h"

namespace clgrade::ref {
namespace {

// The radius R of a weight vector of 2R + 1 taps.
int separableRadius(const std::vector<float>& w) {
  if (w.empty() || w.size() % 2 == 0) {
    throw std::invalid_argument("separable reference: need an odd number of weights, got " + std::to_string(w.size()));
  }
  return static_cast<int>(w.size() - 1) / 2;
}

}  // namespace

Image convolveHorizontal(const Image& src, const std::vector<float>& w) {
  const int r = separableRadius(w);
  Image out(src.width, src.height, src.channels);
  for (int c = 0; c < src.channels; ++c) {
    for (int y = 0; y < src.height; ++y) {
      for (int x = 0; x < src.width; ++x) {
        // Offset k runs left to right; the pixel at x + k meets weight w[R - k], so w[0]
        // multiplies the rightmost tap (a true convolution; it matters for asymmetric weights).
        float sum = 0.0f;
        for (int k = -r; k <= r; ++k) {
          const int sx = x + k;
          if (sx < 0 || sx >= src.width) continue;  // taps outside the row are skipped
          sum += src.at(c, sx, y) * w[r - k];
        }
        out.at(c, x, y) = sum;
      }
    }
  }
  return out;
}

Image convolveVertical(const Image& src, const std::vector<float>& w) {
  const int r = separableRadius(w);
  Image out(src.width, src.height, src.channels);
  for (int c = 0; c < src.channels; ++c) {
    for (int y = 0; y < src.height; ++y) {
      for (int x = 0; x < src.width; ++x) {
        // The same in y: k runs top to bottom, the pixel at y + k meets w[R - k].
        float sum = 0.0f;
        for (int k = -r; k <= r; ++k) {
          const int sy = y + k;
          if (sy < 0 || sy >= src.height) continue;
          sum += src.at(c, x, sy) * w[r - k];
        }
        out.at(c, x, y) = sum;
      }
    }
  }
  return out;
}

}  // namespace clgrade::ref
