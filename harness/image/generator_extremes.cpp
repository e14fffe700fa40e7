// The histogram's hard cases on top of the photo: gray exactly 0, exactly 1 (bin 64 before the
// clamp to 63) and gray values exactly on, and one float below, the bin edges k/64.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "image/generator.h"

namespace clgrade {
namespace {

// The task 4 gray value, written exactly like the reference (three products summed left to
// right in float), so an edge value found here is an edge value there.
float gray(float r, float g, float b) {
  float s = 0.3f * r;
  s = s + 0.59f * g;
  s = s + 0.11f * b;
  return s;
}

// Finds r, g, b in [0, 1] with gray(r, g, b) == target exactly: first a gray pixel r = g = b a few
// floats around the target, else r = g fixed and b searched (b moves gray in finer steps).
// The search only walks floats, so it is deterministic everywhere.
bool findGray(float target, std::array<float, 3>* rgb) {
  float up = target, down = target;
  for (int i = 0; i < 4096; ++i) {
    for (float v : {up, down}) {
      if (v >= 0.0f && v <= 1.0f && gray(v, v, v) == target) {
        *rgb = {v, v, v};
        return true;
      }
    }
    up = std::nextafter(up, 2.0f);
    down = std::nextafter(down, -1.0f);
  }
  up = down = target;
  for (int i = 0; i < 65536; ++i) {
    for (float b : {up, down}) {
      if (b >= 0.0f && b <= 1.0f && gray(target, target, b) == target) {
        *rgb = {target, target, b};
        return true;
      }
    }
    up = std::nextafter(up, 2.0f);
    down = std::nextafter(down, -1.0f);
  }
  return false;
}

void fillBlock(Image* img, int x0, int y0, int w, int h, float value) {
  for (int y = y0; y < std::min(img->height, y0 + h); ++y) {
    for (int x = x0; x < std::min(img->width, x0 + w); ++x) {
      for (int c = 0; c < 3; ++c) img->at(c, x, y) = value;
    }
  }
}

}  // namespace

Image makeHistogramExtremes(int width, int height, uint64_t seed) {
  Image img = makePhoto(width, height, seed);
  if (width < 1 || height < 1) return img;
  // Blocks of exact 0 (top left) and exact 1 (top right), an eighth of each side.
  const int bw = std::max(1, width / 8), bh = std::max(1, height / 8);
  fillBlock(&img, 0, 0, bw, bh, 0.0f);
  fillBlock(&img, width - bw, 0, bw, bh, 1.0f);

  // Pixels on each inner bin edge k/64 and one float below it (which belongs to bin k-1), in
  // scan order from the middle row on; a small image just gets the ones that fit.
  std::vector<std::array<float, 3>> edges;
  for (int k = 1; k < 64; ++k) {
    const float onEdge = static_cast<float>(k) / 64.0f;  // exact: a power-of-two denominator
    std::array<float, 3> rgb{};
    if (findGray(onEdge, &rgb)) edges.push_back(rgb);
    if (findGray(std::nextafter(onEdge, 0.0f), &rgb)) edges.push_back(rgb);
  }
  const long start = static_cast<long>(height / 2) * width;
  const long total = static_cast<long>(width) * height;
  for (size_t i = 0; i < edges.size() && start + static_cast<long>(i) < total; ++i) {
    const long p = start + static_cast<long>(i);
    for (int c = 0; c < 3; ++c) img.at(c, static_cast<int>(p % width), static_cast<int>(p / width)) = edges[i][c];
  }
  return img;
}

}  // namespace clgrade
