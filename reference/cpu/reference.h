// CPU references of the four tasks: the semantics of docs/assignment.md, written plainly so students can read them.
// Every function works on unpadded planar images (see image/image.h) and treats pixels outside the
// image as absent (taps skipped), exactly as the spec says. Floats are summed in the order written
// here; the build forbids FMA contraction so the result is the same on every machine.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "image/image.h"

namespace clgrade::ref {

/// Task 1's constant buffer: [0..8] weights row-major (index 3*(dy+1)+(dx+1)), [9] multiplier,
/// [10] offset. Multiplier = 1 / sum(weights) if that sum > 0, else 1.
std::array<float, 11> conv3x3Constants(const std::array<float, 9>& weights, float offset);

/// Task 1: out(x,y) = (sum_{dy,dx in -1..1} src(x+dx,y+dy) * K[dy+1][dx+1]) * mult + offset,
/// dy outer loop, dx inner, taps outside skipped. Applied to every channel.
Image convolve3x3(const Image& src, const std::array<float, 11>& constants);

/// Task 2, horizontal: tmp(x,y) = sum_{k=-R..R} src(x+k,y) * w[R-k], k increasing, taps in [0,W).
/// R = (w.size() - 1) / 2. Every channel.
Image convolveHorizontal(const Image& src, const std::vector<float>& w);
/// Task 2, vertical: out(x,y) = sum_{k=-R..R} src(x,y+k) * w[R-k], k increasing, taps in [0,H).
Image convolveVertical(const Image& src, const std::vector<float>& w);

/// Flag bits of task 3.
enum DiscontinuityBits : int { kLeft = 1, kRight = 2, kUp = 4, kDown = 8 };

/// Task 3: one flag word per pixel (width*height, row-major, unpadded). A neighbour pair p,q is
/// discontinuous iff |n_p . n_q| < 0.9 (xyz, summed x,y,z) or |d_p - d_q| > 0.025. Bit 1 = left
/// neighbour discontinuous or x == 0; 2 = right or x == W-1; 4 = up or y == 0; 8 = down or y == H-1.
std::vector<int32_t> discontinuityFlags(const Image& normals, const Image& depth);

/// Task 3 edge-stopping horizontal pass: sum = src(x)*w[R], wsum = w[R]; walk left with the
/// offset k = 0, -1, ..: before each step stop if the pixel at x+k has bit 1 or x+k == 0, else
/// step (k -= 1) and add src(x+k)*w[R-k], w[R-k]; at most R steps. Then right likewise with bit 2
/// and x+k == W-1. out = sum / wsum. Every channel.
Image bilateralHorizontal(const Image& src, const std::vector<int32_t>& flags, const std::vector<float>& w);
/// Same in y with bits 4 (up, y+k == 0) and 8 (down, y+k == H-1).
Image bilateralVertical(const Image& src, const std::vector<int32_t>& flags, const std::vector<float>& w);

/// Task 4: gray = 0.3f*R + 0.59f*G + 0.11f*B accumulated in that order in float. 1 channel.
Image grayscale(const Image& rgb);
/// Task 4: counts of bin = clamp((int)(gray * bins), 0, bins-1) over every pixel (bins as float).
std::vector<int32_t> histogram(const Image& gray, int bins = 64);

}  // namespace clgrade::ref
