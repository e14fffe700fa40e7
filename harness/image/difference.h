// Per-pixel squared error between an expected and an actual image.
#pragma once

#include "image/image.h"

namespace clgrade {

/// e = (expected - actual)^2 per pixel and channel; NaN where either side is NaN or inf.
/// Both images must have the same size and channel count.
Image squaredError(const Image& expected, const Image& actual);

}  // namespace clgrade
