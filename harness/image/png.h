// PNG export for people: any channel, an RGB image, or a tone-mapped difference image.
#pragma once

#include <string>

#include "image/image.h"

namespace clgrade {

/// Writes a 1-channel image as gray or a 3-channel image as RGB, mapping [lo, hi] linearly
/// to [0, 255] (clamped). NaN and infinity are drawn magenta so they stand out.
bool writePng(const std::string& path, const Image& img, float lo, float hi, std::string* err);

/// Writes a 1-channel image of squared errors e as a heat map a person can read:
/// e == 0 black; 0 < e < failAt a dim blue ramp on a log scale (harmless rounding);
/// e >= failAt a red-to-yellow ramp on a log scale (the pixels that fail); NaN magenta.
bool writeDifferencePng(const std::string& path, const Image& squaredError, float failAt,
                        std::string* err);

}  // namespace clgrade
