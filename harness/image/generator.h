// Deterministic course inputs: the same bytes on every machine.
// Only +, -, *, / and sqrt (all correctly rounded in IEEE 754) and an own PRNG are used:
// no libm transcendental, no std:: distribution, so no platform can change a bit.
#pragma once

#include <cstdint>

#include "image/image.h"

namespace clgrade {

/// A photo-like 3-channel image in [0, 1] (the course's 780 x 575 "input"): smooth gradients,
/// shapes with sharp edges, fine texture and noise, so every filter has something to do.
Image makePhoto(int width, int height, uint64_t seed);

/// A synthetic rendered scene (the course's 1280 x 720 colour, normals and depth).
struct Scene {
  Image colour;   ///< 3 channels in [0, 1], shaded, with Monte-Carlo-like noise
  Image normals;  ///< 3 channels, unit xyz normal per pixel
  Image depth;    ///< 1 channel in [0, 1]
};

/// Geometry with real depth and normal edges (a floor, boxes, spheres at distinct depths).
/// Every pair of horizontal or vertical neighbours is kept clear of the discontinuity
/// thresholds (|n.n'| vs 0.9, |d - d'| vs 0.025) by a margin, so fast-math kernels
/// cannot flip a flag by rounding.
Scene makeScene(int width, int height, uint64_t seed);

/// How far every neighbour pair of a scene keeps from an ambiguous flag decision: |n.n'| is not
/// within this of 0.9 unless the depth test is clearly true, and likewise |d - d'| vs 0.025.
inline constexpr double kSceneFlagMargin = 1e-3;

/// What makeScene's margin fix-up had to do.
struct MarginReport {
  int passes = 0;  ///< passes over the image that moved something (a final clean pass not counted)
  int moves = 0;   ///< pixel moves in total (a depth or a normal changed to clear a threshold)
};

/// makeScene that also reports the margin fix-up (`report` may be null).
Scene makeScene(int width, int height, uint64_t seed, MarginReport* report);

/// makePhoto with a region of exact 0.0 and exact 1.0 pixels (all channels) and gray values
/// on bin edges, for the histogram's clamping.
Image makeHistogramExtremes(int width, int height, uint64_t seed);

}  // namespace clgrade
