// Task 3 reference: discontinuity flags from normals and depth, and the edge-stopping
// ("bilateral") passes that average only across neighbours on the same surface.
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/reference.h"

namespace clgrade::ref {
namespace {

// p and q lie on different surfaces if their normals differ by more than about 25 degrees
// (|n_p . n_q| < 0.9; the absolute value ignores which way a normal faces) or their depths
// differ by more than 0.025. The dot product is summed x, y, z in float.
bool discontinuous(const Image& n, const Image& d, int px, int py, int qx, int qy) {
  const float dotNormals =
      n.at(0, px, py) * n.at(0, qx, qy) + n.at(1, px, py) * n.at(1, qx, qy) + n.at(2, px, py) * n.at(2, qx, qy);
  const float depthStep = d.at(0, px, py) - d.at(0, qx, qy);
  return std::fabs(dotNormals) < 0.9f || std::fabs(depthStep) > 0.025f;
}

int bilateralRadius(const std::vector<float>& w) {
  if (w.empty() || w.size() % 2 == 0) {
    throw std::invalid_argument("bilateral reference: need an odd number of weights, got " + std::to_string(w.size()));
  }
  return static_cast<int>(w.size() - 1) / 2;
}

void checkFlags(const Image& src, const std::vector<int32_t>& flags) {
  if (flags.size() != src.planeSize()) {
    throw std::invalid_argument("bilateral reference: " + std::to_string(flags.size()) + " flags for " +
                                std::to_string(src.planeSize()) + " pixels");
  }
}

}  // namespace

std::vector<int32_t> discontinuityFlags(const Image& normals, const Image& depth) {
  if (normals.channels < 3 || depth.channels < 1 || normals.width != depth.width || normals.height != depth.height) {
    throw std::invalid_argument("discontinuityFlags: need 3-channel normals and a depth image of the same size");
  }
  const int w = normals.width, h = normals.height;
  std::vector<int32_t> flags(static_cast<size_t>(w) * h, 0);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      // The image border counts as a discontinuity, so a walk never steps outside.
      int f = 0;
      if (x == 0 || discontinuous(normals, depth, x, y, x - 1, y)) f |= kLeft;
      if (x == w - 1 || discontinuous(normals, depth, x, y, x + 1, y)) f |= kRight;
      if (y == 0 || discontinuous(normals, depth, x, y, x, y - 1)) f |= kUp;
      if (y == h - 1 || discontinuous(normals, depth, x, y, x, y + 1)) f |= kDown;
      flags[static_cast<size_t>(y) * w + x] = f;
    }
  }
  return flags;
}

Image bilateralHorizontal(const Image& src, const std::vector<int32_t>& flags, const std::vector<float>& w) {
  const int r = bilateralRadius(w);
  checkFlags(src, flags);
  const int width = src.width;
  Image out(src.width, src.height, src.channels);
  for (int c = 0; c < src.channels; ++c) {
    for (int y = 0; y < src.height; ++y) {
      const int32_t* row = flags.data() + static_cast<size_t>(y) * width;
      for (int x = 0; x < width; ++x) {
        // The centre tap always counts.
        float sum = src.at(c, x, y) * w[r];
        float wsum = w[r];
        // Walk left, one pixel at a time, until a discontinuity or R steps. Before leaving the
        // pixel at x + k we look at its "left" bit: set means the next pixel is on another
        // surface (or outside), so the walk stops there. The offset k is negative, so the
        // weight index R - k runs R + 1 .. 2R, as in the plain separable convolution.
        for (int k = 0; k > -r;) {
          if ((row[x + k] & kLeft) != 0 || x + k == 0) break;
          k -= 1;
          sum += src.at(c, x + k, y) * w[r - k];
          wsum += w[r - k];
        }
        // Walk right likewise with the "right" bit; the weight index R - k runs R - 1 .. 0.
        for (int k = 0; k < r;) {
          if ((row[x + k] & kRight) != 0 || x + k == width - 1) break;
          k += 1;
          sum += src.at(c, x + k, y) * w[r - k];
          wsum += w[r - k];
        }
        // Normalise by the weights actually used, so a cut-off filter still averages.
        out.at(c, x, y) = sum / wsum;
      }
    }
  }
  return out;
}

Image bilateralVertical(const Image& src, const std::vector<int32_t>& flags, const std::vector<float>& w) {
  const int r = bilateralRadius(w);
  checkFlags(src, flags);
  const int width = src.width, height = src.height;
  Image out(src.width, src.height, src.channels);
  for (int c = 0; c < src.channels; ++c) {
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        auto flagAt = [&](int yy) { return flags[static_cast<size_t>(yy) * width + x]; };
        float sum = src.at(c, x, y) * w[r];
        float wsum = w[r];
        // Up with bit 4, then down with bit 8; the same walk as the horizontal pass, in y.
        for (int k = 0; k > -r;) {
          if ((flagAt(y + k) & kUp) != 0 || y + k == 0) break;
          k -= 1;
          sum += src.at(c, x, y + k) * w[r - k];
          wsum += w[r - k];
        }
        for (int k = 0; k < r;) {
          if ((flagAt(y + k) & kDown) != 0 || y + k == height - 1) break;
          k += 1;
          sum += src.at(c, x, y + k) * w[r - k];
          wsum += w[r - k];
        }
        out.at(c, x, y) = sum / wsum;
      }
    }
  }
  return out;
}

}  // namespace clgrade::ref
