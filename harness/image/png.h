// PNG export for people: any channel, an RGB image, or a tone-mapped difference image.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "image/image.h"

namespace clgrade {

/// Writes a 1-channel image as gray or a 3-channel image as RGB, mapping [lo, hi] linearly
/// to [0, 255] (clamped). NaN and infinity are drawn magenta so they stand out.
bool writePng(const std::string& path, const Image& img, float lo, float hi, std::string* err);

/// An 8-bit RGB colour.
struct Rgb8 {
  uint8_t r = 0, g = 0, b = 0;
};

/// The heat map's colour of a squared error e: e == 0 black; 0 < e < failAt a dim blue ramp on a
/// log scale (harmless rounding); e >= failAt red (just over the limit) to yellow (`worst`, the
/// largest error of the picture), linear in |difference| = sqrt(e), so that the map of an image wrong
/// everywhere still shows where it is most wrong; NaN (and a negative e) magenta.
Rgb8 differenceColour(float e, float failAt, float worst);

/// The largest finite value of the image (0 for none).
float largestFinite(const Image& img);

/// A 1-channel image `factor` times smaller each way whose pixels are the worst of the factor x factor
/// pixels they cover (NaN beats any number): a downscaled difference map on which a one-pixel column
/// of errors stays visible.
Image worstPool(const Image& squaredError, int factor);

/// Writes a 1-channel image of squared errors as the heat map of differenceColour (worst: its
/// largest finite value).
bool writeDifferencePng(const std::string& path, const Image& squaredError, float failAt, std::string* err);

/// Writes 8-bit RGB rows (3 bytes per pixel, top to bottom) as a PNG.
bool writeRgbPng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgb, std::string* err);

}  // namespace clgrade
