// A plain float image, the one picture type every part of clgrade shares.
#pragma once

#include <cstddef>
#include <vector>

namespace clgrade {

/// Planar float image: `channels` planes of width*height floats, row-major, no padding.
/// Pitched device layouts are made from it by the OpenCL side, never stored here.
struct Image {
  int width = 0;
  int height = 0;
  int channels = 0;
  std::vector<float> pixels;  ///< pixels[(c * height + y) * width + x]

  Image() = default;
  Image(int w, int h, int c, float fill = 0.0f);

  float& at(int c, int x, int y) { return pixels[(static_cast<size_t>(c) * height + y) * width + x]; }
  float at(int c, int x, int y) const { return pixels[(static_cast<size_t>(c) * height + y) * width + x]; }
  float* plane(int c) { return pixels.data() + static_cast<size_t>(c) * width * height; }
  const float* plane(int c) const { return pixels.data() + static_cast<size_t>(c) * width * height; }
  size_t planeSize() const { return static_cast<size_t>(width) * height; }

  /// One-channel copy of channel `c`.
  Image channel(int c) const;
};

}  // namespace clgrade
