// The shared planar float image.
#include "image/image.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace clgrade {

Image::Image(int w, int h, int c, float fill) : width(w), height(h), channels(c) {
  // Negative sizes are programming errors; catch them here rather than as a huge allocation.
  if (w < 0 || h < 0 || c < 0) {
    throw std::invalid_argument("Image: negative size " + std::to_string(w) + " x " + std::to_string(h) + " x " +
                                std::to_string(c));
  }
  pixels.assign(static_cast<size_t>(w) * h * c, fill);
}

Image Image::channel(int c) const {
  if (c < 0 || c >= channels) {
    throw std::out_of_range("Image::channel: channel " + std::to_string(c) + " of an image with " +
                            std::to_string(channels));
  }
  Image out(width, height, 1);
  const float* src = plane(c);
  std::copy(src, src + planeSize(), out.pixels.begin());
  return out;
}

}  // namespace clgrade
