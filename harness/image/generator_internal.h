// Private helpers of the deterministic generator (generator*.cpp only): an integer PRNG and
// smooth functions built from +, -, *, / and sqrt alone, so every machine computes the same bits.
#pragma once

#include <cstdint>
#include <functional>

#include "image/generator.h"
#include "image/image.h"

namespace clgrade::gen {

/// The splitmix64 finaliser: a strong 64-bit integer mix.
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// A hash of a seed and up to three integer coordinates (negative ones included).
inline uint64_t hash(uint64_t seed, int64_t a, int64_t b = 0, int64_t c = 0) {
  uint64_t h = mix64(seed + 0x9e3779b97f4a7c15ull);
  h = mix64(h ^ static_cast<uint64_t>(a));
  h = mix64((h + 0x632be59bd9b4e019ull) ^ static_cast<uint64_t>(b));
  return mix64((h + 0x85157af5ull) ^ static_cast<uint64_t>(c));
}

/// Top 53 bits as a double in [0, 1): the integer-to-double conversion is exact.
inline double unit(uint64_t u) { return static_cast<double>(u >> 11) * (1.0 / 9007199254740992.0); }

/// splitmix64 as a sequential generator, for the handful of scene and shape parameters.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  /// The next 64 random bits.
  uint64_t next() { return mix64(state_ += 0x9e3779b97f4a7c15ull); }
  /// Uniform in [0, 1).
  double uniform() { return unit(next()); }
  /// Uniform in [lo, hi).
  double range(double lo, double hi) { return lo + (hi - lo) * uniform(); }

 private:
  uint64_t state_;
};

/// floor(x) as an integer without libm, saturated far outside any use here.
inline int64_t floorInt(double x) {
  if (x >= 1e15) return 1000000000000000ll;
  if (x <= -1e15) return -1000000000000000ll;
  const int64_t i = static_cast<int64_t>(x);  // truncates toward zero
  return (static_cast<double>(i) > x) ? i - 1 : i;
}

/// x - floor(x), in [0, 1).
inline double fract(double x) { return x - static_cast<double>(floorInt(x)); }

inline double clamp01(double x) { return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x); }

/// The cubic 3t^2 - 2t^3: a smooth 0-to-1 ramp standing in for a sine or exp.
inline double smooth(double t) { return t * t * (3.0 - 2.0 * t); }

/// Value noise in [0, 1): random values on an integer lattice, blended with `smooth` weights.
inline double valueNoise(uint64_t seed, double x, double y) {
  const int64_t ix = floorInt(x);
  const int64_t iy = floorInt(y);
  const double fx = smooth(x - static_cast<double>(ix));
  const double fy = smooth(y - static_cast<double>(iy));
  const double v00 = unit(hash(seed, ix, iy));
  const double v10 = unit(hash(seed, ix + 1, iy));
  const double v01 = unit(hash(seed, ix, iy + 1));
  const double v11 = unit(hash(seed, ix + 1, iy + 1));
  const double top = v00 + (v10 - v00) * fx;
  const double bottom = v01 + (v11 - v01) * fx;
  return top + (bottom - top) * fy;
}

/// Approximately normal noise with mean 0 and standard deviation 1: the sum of four uniforms
/// (Irwin-Hall), rescaled; enough for render-like grain.
inline double gaussianish(uint64_t seed, int64_t a, int64_t b, int64_t c) {
  const uint64_t h1 = hash(seed, a, b, c);
  const uint64_t h2 = mix64(h1 ^ 0x5851f42d4c957f2dull);
  // Four 26-bit uniforms from two hashes; the conversions are exact.
  const double s = static_cast<double>(h1 & 0x3ffffff) + static_cast<double>((h1 >> 32) & 0x3ffffff) +
                   static_cast<double>(h2 & 0x3ffffff) + static_cast<double>((h2 >> 32) & 0x3ffffff);
  const double u = s * (1.0 / 67108864.0);  // sum of four U(0,1): mean 2, variance 1/3
  return (u - 2.0) * 1.7320508075688772;    // sqrt(3): unit variance
}

/// Runs `rows(y0, y1)` over bands of [0, height) on up to one thread a core (at most 16): every
/// pixel of a generator depends on its coordinates only, so the bytes do not depend on the split.
/// Where no thread can be started (a sandbox's process limit), the bands run here, one after another.
void parallelRows(int height, const std::function<void(int y0, int y1)>& rows);

/// Moves depths or normals until no neighbour pair is within `margin` of a discontinuity
/// threshold in a way that could flip its flag. Throws std::logic_error if it does not converge.
MarginReport enforceFlagMargin(Image* normals, Image* depth, double margin);

/// True if the flag decision of a pair with |n.n'| = a and |d - d'| = b could flip by rounding.
bool ambiguousPair(float a, float b, double margin);

}  // namespace clgrade::gen
