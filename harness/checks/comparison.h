// Comparing a kernel's output with the CPU reference, per the course rule, with evidence.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "image/image.h"
#include "model/settings.h"

namespace clgrade {

/// Where errors are: near the image border, near the edges of a work-group tile, or inside.
/// A pixel within `haloX` columns / `haloY` rows of the image edge is "border"; else within
/// the halo of a tile edge (tiles of tileX x tileY pixels from the origin) is "tile edge".
struct RegionModel {
  int haloX = 1;
  int haloY = 1;
  int tileX = 0;  ///< 0: no tile classification
  int tileY = 0;
};

struct BadPixel {
  int x = 0, y = 0, channel = 0;
  double expected = 0, actual = 0;
};

/// The outcome of comparing two images (or two flag buffers) pixel by pixel.
struct Comparison {
  bool passed = false;
  long compared = 0;  ///< pixel-channels compared
  long bad = 0;       ///< failing pixel-channels (e >= max, NaN, or unequal for exact compares)
  long nan = 0;
  double maxError = 0;  ///< squared error, or 1 for an exact mismatch
  double meanError = 0;
  long borderBad = 0, tileEdgeBad = 0, interiorBad = 0;
  std::vector<BadPixel> firstBad;                  ///< the first few, in row order
  int minX = -1, maxX = -1, minY = -1, maxY = -1;  ///< bounding box of the bad values (-1: none)
  bool lastRowSkipped = false;
  long lastRowBad = 0, lastRowNan = 0;  ///< always measured, compared or not
  Image difference;                     ///< squared error per pixel-channel (exact: 1 where unequal), last row included

  /// One line: "1203 of 448500 pixel values wrong (max |diff| 0.5, 3 NaN): 1100 at the image border, ..."
  std::string summary() const;
  /// Further lines for the report: the first bad pixels, the last row's state.
  std::vector<std::string> details() const;
  /// Where the wrong values are, in words that do not depend on the image size ("wrong values in the
  /// last column (x = W-1)", "... at the edges of work-group tiles"): the same bug gives the same
  /// finding in every case, so a report can say it once. "" when it passed.
  std::string finding() const;
  /// "in the last 5 columns (x >= W-5)" when every wrong value lies in a narrow band at one edge of
  /// the image (at most an eighth of it, or 4 columns or rows), whatever the filter's radius; else "".
  std::string edgeBand() const;
};

/// Float images by the course rule (NaN always fails). Padding columns never reach this function.
Comparison compareImages(const Image& expected, const Image& actual, const CompareRule& rule,
                         const RegionModel& regions);

/// "hint: the output is shifted by one pixel ..." when nearly every interior value of `actual` is the
/// expected value of one neighbouring pixel (an index off by one, a halo offset forgotten); else "".
std::string shiftHint(const Image& expected, const Image& actual, const CompareRule& rule);

/// Integer buffers (discontinuity flags) that must match exactly; `skipLastRow` as above.
Comparison compareExact(const std::vector<int32_t>& expected, const std::vector<int32_t>& actual, int width, int height,
                        bool skipLastRow, const RegionModel& regions);

}  // namespace clgrade
