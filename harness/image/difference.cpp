// Squared error per pixel: the quantity the course's PASS rule is defined on.
#include "image/difference.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace clgrade {

Image squaredError(const Image& expected, const Image& actual) {
  if (expected.width != actual.width || expected.height != actual.height || expected.channels != actual.channels) {
    throw std::invalid_argument("squaredError: size mismatch, expected " + std::to_string(expected.width) + " x " +
                                std::to_string(expected.height) + " x " + std::to_string(expected.channels) +
                                ", actual " + std::to_string(actual.width) + " x " + std::to_string(actual.height) +
                                " x " + std::to_string(actual.channels));
  }
  Image e(expected.width, expected.height, expected.channels);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (size_t i = 0; i < e.pixels.size(); ++i) {
    const float a = expected.pixels[i];
    const float b = actual.pixels[i];
    // inf - inf would be NaN but inf - 1 is inf: make every non-finite input NaN so it always fails
    // and is drawn the same way, whatever the other side held.
    if (!std::isfinite(a) || !std::isfinite(b)) {
      e.pixels[i] = nan;
      continue;
    }
    const float d = a - b;
    e.pixels[i] = d * d;
  }
  return e;
}

}  // namespace clgrade
