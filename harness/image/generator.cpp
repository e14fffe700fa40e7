// The photo-like input of tasks 1, 2 and 4, and its histogram variant with exact extremes.
// Everything is computed in double from integer hashes and rounded to float once at the end;
// only +, -, *, / and sqrt are used, so the bytes are the same on every machine.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "image/generator.h"
#include "image/generator_internal.h"

namespace clgrade {
namespace {

using gen::Rng;

using Colour = std::array<double, 3>;

Colour randomColour(Rng& rng, double lo, double hi) {
  return {rng.range(lo, hi), rng.range(lo, hi), rng.range(lo, hi)};
}

// A shape with a hard edge, tested in pixel units so circles stay round at any aspect ratio.
struct Shape {
  enum Kind { kDisc, kRing, kBox, kTriangle } kind;
  double cx, cy, size;     // centre and radius-like size in pixels
  double ux, uy;           // unit orientation vector (box axes, made with sqrt instead of sin/cos)
  double tx[3], ty[3];     // triangle corners
  Colour colour, colour2;  // colour2: the far end of a linear gradient across the shape
  bool striped;            // fine hard stripes inside the shape (texture for the filters)

  bool contains(double x, double y) const {
    const double dx = x - cx, dy = y - cy;
    switch (kind) {
      case kDisc:
        return dx * dx + dy * dy <= size * size;
      case kRing: {
        const double r2 = dx * dx + dy * dy;
        return r2 <= size * size && r2 >= 0.49 * size * size;
      }
      case kBox: {
        const double a = dx * ux + dy * uy;   // along the box axis
        const double b = -dx * uy + dy * ux;  // across it
        return a >= -size && a <= size && b >= -0.6 * size && b <= 0.6 * size;
      }
      case kTriangle: {
        // Inside if on the same side of all three edges (either winding).
        double s[3];
        for (int i = 0; i < 3; ++i) {
          const int j = (i + 1) % 3;
          s[i] = (tx[j] - tx[i]) * (y - ty[i]) - (ty[j] - ty[i]) * (x - tx[i]);
        }
        return (s[0] >= 0 && s[1] >= 0 && s[2] >= 0) || (s[0] <= 0 && s[1] <= 0 && s[2] <= 0);
      }
    }
    return false;
  }

  Colour shade(double x, double y) const {
    // Gradient along the orientation vector, from colour (one side) to colour2 (other side).
    double t = ((x - cx) * ux + (y - cy) * uy) / (2.0 * size) + 0.5;
    t = gen::clamp01(t);
    Colour c;
    for (int k = 0; k < 3; ++k) c[k] = colour[k] + (colour2[k] - colour[k]) * t;
    if (striped && gen::fract((x * uy - y * ux) / 5.0) < 0.4) {
      for (double& v : c) v *= 0.7;
    }
    return c;
  }
};

std::vector<Shape> makeShapes(Rng& rng, int width, int height) {
  const double w = width, h = height, m = std::min(w, h);
  std::vector<Shape> shapes;
  const int count = 7;
  for (int i = 0; i < count; ++i) {
    Shape s{};
    s.kind = static_cast<Shape::Kind>(rng.next() % 4);
    s.cx = rng.range(0.1, 0.9) * w;
    s.cy = rng.range(0.1, 0.9) * h;
    s.size = rng.range(0.08, 0.22) * m;
    // A random direction normalised with sqrt: no trigonometry needed.
    double ux = rng.range(-1.0, 1.0), uy = rng.range(-1.0, 1.0);
    double len = std::sqrt(ux * ux + uy * uy);
    if (len < 1e-3) {  // too short to normalise safely: use the x axis
      ux = 1.0;
      uy = 0.0;
      len = 1.0;
    }
    s.ux = ux / len;
    s.uy = uy / len;
    for (int k = 0; k < 3; ++k) {
      s.tx[k] = s.cx + rng.range(-1.5, 1.5) * s.size;
      s.ty[k] = s.cy + rng.range(-1.5, 1.5) * s.size;
    }
    s.colour = randomColour(rng, 0.08, 0.92);
    s.colour2 = randomColour(rng, 0.08, 0.92);
    s.striped = rng.next() % 3 == 0;
    shapes.push_back(s);
  }
  return shapes;
}

}  // namespace

Image makePhoto(int width, int height, uint64_t seed) {
  Image img(width, height, 3);
  if (width < 1 || height < 1) return img;
  Rng rng(gen::mix64(seed ^ 0x70686f746full));  // "photo": keeps streams of the generators apart
  const Colour corner[4] = {randomColour(rng, 0.15, 0.85), randomColour(rng, 0.15, 0.85), randomColour(rng, 0.15, 0.85),
                            randomColour(rng, 0.15, 0.85)};
  const uint64_t lowSeed = rng.next(), fineSeed = rng.next(), grainSeed = rng.next();
  const std::vector<Shape> shapes = makeShapes(rng, width, height);
  // Low-frequency noise has about 4 cells across the image; fine texture a cell of 3 pixels.
  const double lowCell = std::max(width, height) / 4.0;

  gen::parallelRows(height, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      for (int x = 0; x < width; ++x) {
        const double px = x + 0.5, py = y + 0.5;
        const double u = px / width, v = py / height;
        // 1. Smooth background: bilinear blend of four corner colours, modulated by slow noise.
        Colour c;
        for (int k = 0; k < 3; ++k) {
          const double top = corner[0][k] + (corner[1][k] - corner[0][k]) * u;
          const double bottom = corner[2][k] + (corner[3][k] - corner[2][k]) * u;
          const double slow = gen::valueNoise(lowSeed + k, px / lowCell, py / lowCell);
          c[k] = top + (bottom - top) * v + 0.2 * (slow - 0.5);
        }
        // 2. Shapes with hard edges, painted in order (later ones on top).
        for (const Shape& s : shapes) {
          if (s.contains(px, py)) c = s.shade(px, py);
        }
        // 3. Fine texture (about 3-pixel value noise) and 4. mild per-pixel noise.
        const double fine = 0.08 * (gen::valueNoise(fineSeed, px / 3.0, py / 3.0) - 0.5);
        for (int k = 0; k < 3; ++k) {
          const double grain = 0.015 * gen::gaussianish(grainSeed, x, y, k);
          img.at(k, x, y) = static_cast<float>(gen::clamp01(c[k] + fine + grain));
        }
      }
    }
  });
  return img;
}

}  // namespace clgrade
