// Task 4 reference: grayscale conversion and a 64-bin histogram.
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/reference.h"

namespace clgrade::ref {

Image grayscale(const Image& rgb) {
  if (rgb.channels < 3) {
    throw std::invalid_argument("grayscale: need 3 channels, got " + std::to_string(rgb.channels));
  }
  Image gray(rgb.width, rgb.height, 1);
  for (int y = 0; y < rgb.height; ++y) {
    for (int x = 0; x < rgb.width; ++x) {
      // Luma weights summed left to right in float: ((0.3 R) + (0.59 G)) + (0.11 B). Another
      // order could round differently, and bin edges make single ulps matter.
      float g = 0.3f * rgb.at(0, x, y);
      g = g + 0.59f * rgb.at(1, x, y);
      g = g + 0.11f * rgb.at(2, x, y);
      gray.at(0, x, y) = g;
    }
  }
  return gray;
}

std::vector<int32_t> histogram(const Image& gray, int bins) {
  if (bins < 1) throw std::invalid_argument("histogram: need at least one bin");
  std::vector<int32_t> counts(static_cast<size_t>(bins), 0);
  const float scale = static_cast<float>(bins);
  for (size_t i = 0; i < gray.planeSize(); ++i) {
    // gray * bins, truncated toward zero: gray in [k/bins, (k+1)/bins) lands in bin k. Exactly 1.0
    // would be bin `bins`, one past the end, so the clamp puts it in the last bin.
    float v = gray.pixels[i] * scale;
    // Clamp before the conversion as well: converting a float outside int's range (or NaN) to
    // int is undefined in C++. NaN goes to bin 0, where GPUs' float-to-int conversion puts it.
    if (!(v >= -1.0f)) v = -1.0f;
    if (v > scale) v = scale;
    int bin = static_cast<int>(v);
    if (bin < 0) bin = 0;
    if (bin > bins - 1) bin = bins - 1;
    counts[static_cast<size_t>(bin)] += 1;
  }
  return counts;
}

}  // namespace clgrade::ref
