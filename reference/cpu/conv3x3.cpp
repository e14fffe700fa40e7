// Task 1 reference: a 3x3 convolution (strictly: correlation, the kernel is not flipped).
#include <array>

#include "cpu/reference.h"

namespace clgrade::ref {

std::array<float, 11> conv3x3Constants(const std::array<float, 9>& weights, float offset) {
  std::array<float, 11> c{};
  // Sum the weights in index order. A kernel whose weights sum to more than 0 (blur, sharpen)
  // is normalised by that sum so brightness is kept; an edge detector (sum 0) or a kernel with a
  // negative sum keeps its raw weights (multiplier 1).
  float sum = 0.0f;
  for (int i = 0; i < 9; ++i) {
    c[i] = weights[i];
    sum += weights[i];
  }
  c[9] = sum > 0.0f ? 1.0f / sum : 1.0f;
  c[10] = offset;
  return c;
}

Image convolve3x3(const Image& src, const std::array<float, 11>& constants) {
  const int w = src.width, h = src.height;
  Image out(w, h, src.channels);
  const float multiplier = constants[9];
  const float offset = constants[10];
  for (int c = 0; c < src.channels; ++c) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        // Correlation: the weight at (dx, dy) multiplies the pixel at (x + dx, y + dy), so the
        // top-left weight (index 0) meets the top-left neighbour. Rows (dy) outer, columns inner.
        float sum = 0.0f;
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            const int sx = x + dx, sy = y + dy;
            if (sx < 0 || sx >= w || sy < 0 || sy >= h) continue;  // outside: no tap at all
            sum += src.at(c, sx, sy) * constants[3 * (dy + 1) + (dx + 1)];
          }
        }
        // Scale first, then add the offset (emboss uses 0.5 to centre the result on gray).
        out.at(c, x, y) = sum * multiplier + offset;
      }
    }
  }
  return out;
}

}  // namespace clgrade::ref
