#include "checks/comparison.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace clgrade {
namespace {

constexpr size_t kFirstBadShown = 8;

/// Classifies pixel (x, y) of a width x height image by the region model.
enum class Region { Border, TileEdge, Interior };
Region classify(int x, int y, int width, int height, const RegionModel& m) {
  if (x < m.haloX || y < m.haloY || x >= width - m.haloX || y >= height - m.haloY) return Region::Border;
  if (m.tileX > 0 && m.tileY > 0) {
    const int tx = x % m.tileX, ty = y % m.tileY;
    if (tx < m.haloX || tx >= m.tileX - m.haloX || ty < m.haloY || ty >= m.tileY - m.haloY) return Region::TileEdge;
  }
  return Region::Interior;
}

void extend(Comparison* c, int x, int y) {
  if (c->minX < 0 || x < c->minX) c->minX = x;
  if (x > c->maxX) c->maxX = x;
  if (c->minY < 0 || y < c->minY) c->minY = y;
  if (y > c->maxY) c->maxY = y;
}

void count(Comparison* c, Region r) {
  if (r == Region::Border)
    ++c->borderBad;
  else if (r == Region::TileEdge)
    ++c->tileEdgeBad;
  else
    ++c->interiorBad;
}

std::string number(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.7g", v);
  return buffer;
}

}  // namespace

Comparison compareImages(const Image& expected, const Image& actual, const CompareRule& rule,
                         const RegionModel& regions) {
  if (actual.width != expected.width || actual.height != expected.height || actual.channels != expected.channels ||
      actual.pixels.size() != expected.pixels.size())
    throw std::logic_error("compareImages: images of different sizes");
  Comparison c;
  c.lastRowSkipped = rule.skipLastRow;
  c.difference = Image(expected.width, expected.height, expected.channels);
  double sum = 0;
  const int W = expected.width, H = expected.height;
  const float nanValue = std::numeric_limits<float>::quiet_NaN();
  // Row by row through pointers, the rare wrong value off the straight path: a keeper compares
  // every output of every case, and this loop was a tenth of a batch process's CPU.
  for (int y = 0; y < H; ++y) {
    const bool lastRow = (y == H - 1);
    const bool compared = !(lastRow && rule.skipLastRow);
    for (int ch = 0; ch < expected.channels; ++ch) {
      const size_t row = (static_cast<size_t>(ch) * H + y) * W;
      const float* want = expected.pixels.data() + row;
      const float* got = actual.pixels.data() + row;
      float* difference = c.difference.pixels.data() + row;
      for (int x = 0; x < W; ++x) {
        const double d = double(want[x]) - double(got[x]);
        const double e = d * d;
        const bool isNan = !std::isfinite(got[x]) || !std::isfinite(e);
        difference[x] = isNan ? nanValue : static_cast<float>(e);
        if (compared && !isNan) {
          sum += e;
          if (e > c.maxError) c.maxError = e;
        }
        if (!isNan && e < rule.maxSquaredError) continue;
        // A wrong value (NaN included).
        if (lastRow) {
          ++c.lastRowBad;
          c.lastRowNan += isNan;
        }
        if (!compared) continue;
        c.nan += isNan;
        ++c.bad;
        count(&c, classify(x, y, W, H, regions));
        extend(&c, x, y);
        if (c.firstBad.size() < kFirstBadShown) c.firstBad.push_back({x, y, ch, double(want[x]), double(got[x])});
      }
      if (compared) c.compared += W;
    }
  }
  c.meanError = c.compared ? sum / static_cast<double>(c.compared) : 0.0;
  c.passed = c.compared > 0 && c.bad == 0 && c.nan == 0 && c.meanError < rule.meanSquaredError &&
             c.maxError < rule.maxSquaredError;
  return c;
}

Comparison compareExact(const std::vector<int32_t>& expected, const std::vector<int32_t>& actual, int width, int height,
                        bool skipLastRow, const RegionModel& regions) {
  Comparison c;
  c.lastRowSkipped = skipLastRow;
  c.difference = Image(width, height, 1);
  for (int y = 0; y < height; ++y) {
    const bool lastRow = (y == height - 1);
    for (int x = 0; x < width; ++x) {
      const size_t i = static_cast<size_t>(y) * width + x;
      const bool bad = expected[i] != actual[i];
      c.difference.at(0, x, y) = bad ? 1.0f : 0.0f;
      if (lastRow) c.lastRowBad += bad;
      if (lastRow && skipLastRow) continue;
      ++c.compared;
      if (bad) {
        ++c.bad;
        c.maxError = 1;
        count(&c, classify(x, y, width, height, regions));
        extend(&c, x, y);
        if (c.firstBad.size() < kFirstBadShown) c.firstBad.push_back({x, y, 0, double(expected[i]), double(actual[i])});
      }
    }
  }
  c.meanError = c.compared ? double(c.bad) / double(c.compared) : 0.0;
  c.passed = c.compared > 0 && c.bad == 0;
  return c;
}

std::string Comparison::summary() const {
  if (passed) {
    return "matches the CPU reference (" + std::to_string(compared) + " values, max squared error " + number(maxError) +
           ")";
  }
  std::string s = std::to_string(bad) + " of " + std::to_string(compared) + " values wrong";
  if (nan) s += " (" + std::to_string(nan) + " NaN/inf)";
  if (bad == 0) s = "mean squared error " + number(meanError) + " is above the limit";
  // Where they are in the words of the finding: a band at an edge is not "inside tiles" for the
  // student, whatever the region model makes of columns beyond the filter's radius.
  if (const std::string band = edgeBand(); bad > 0 && !band.empty()) {
    s += ", all " + band;
  } else if (bad > 0) {
    s += ": " + std::to_string(borderBad) + " at the image border, " + std::to_string(tileEdgeBad) +
         " at tile/halo edges, " + std::to_string(interiorBad) + " inside tiles";
  }
  return s;
}

std::vector<std::string> Comparison::details() const {
  std::vector<std::string> lines;
  if (bad > 0)
    lines.push_back("wrong values lie in x " + std::to_string(minX) + ".." + std::to_string(maxX) + ", y " +
                    std::to_string(minY) + ".." + std::to_string(maxY));
  for (const BadPixel& p : firstBad) {
    lines.push_back("(x " + std::to_string(p.x) + ", y " + std::to_string(p.y) + ", channel " +
                    std::to_string(p.channel) + "): expected " + number(p.expected) + ", got " + number(p.actual));
  }
  if (bad > long(firstBad.size())) lines.push_back("... " + std::to_string(bad - long(firstBad.size())) + " more");
  std::string last = lastRowSkipped ? "last row (not graded, course rule): " : "last row: ";
  if (lastRowBad == 0)
    last += "correct";
  else
    last += std::to_string(lastRowBad) + " wrong values" +
            (lastRowNan ? ", " + std::to_string(lastRowNan) + " NaN/inf" : "");
  lines.push_back(last);
  if (!passed && bad == 0 && compared > 0)
    lines.push_back("mean squared error " + number(meanError) + ", max " + number(maxError));
  return lines;
}

std::string Comparison::edgeBand() const {
  if (bad == 0) return "";
  const int W = difference.width, H = difference.height;
  // "The last 3 columns" says something only on an image wider than a few columns, and only of a band
  // that is a small part of it: at most an eighth (or 4 columns), whatever the filter's radius.
  auto narrow = [](int n, int size) { return size > 16 && (n <= 4 || n * 8 <= size); };
  auto count = [](int n, const char* one, const char* many) {
    return n == 1 ? std::string(one) : std::to_string(n) + " " + many;
  };
  if (narrow(W - minX, W))
    return "in the last " + count(W - minX, "column", "columns") + " (x >= W-" + std::to_string(W - minX) + ")";
  if (narrow(maxX + 1, W)) return "in the first " + count(maxX + 1, "column", "columns");
  const int lastGraded = H - 1 - (lastRowSkipped ? 1 : 0);
  if (narrow(lastGraded + 1 - minY, H)) return "in the bottom rows (y >= H-" + std::to_string(H - minY) + ")";
  if (narrow(maxY + 1, H)) return "in the top " + count(maxY + 1, "row", "rows");
  return "";
}

std::string Comparison::finding() const {
  if (passed) return "";
  if (compared == 0) return "nothing was compared";
  if (bad == 0) return "small errors everywhere: the mean squared error is above the limit";
  const int W = difference.width, H = difference.height;
  // The last row the rule grades: y = H-1, or H-2 when the course leaves the last row out.
  const int lastGraded = H - 1 - (lastRowSkipped ? 1 : 0);
  const std::string lastRowName = lastRowSkipped ? "y = H-2, the last graded row" : "y = H-1";
  // "The last 3 columns" says something only on an image wider than a few columns.
  std::string where;
  if (minX == maxX && minX == W - 1)
    where = "in the last column (x = W-1)";
  else if (minX == maxX && minX == 0)
    where = "in the first column (x = 0)";
  else if (minY == maxY && minY == 0)
    where = "in the top row (y = 0)";
  else if (minY == maxY && minY == lastGraded && H > 1)
    where = "in the bottom row (" + lastRowName + ")";
  else if (minX == maxX)
    where = "in one column";
  else if (minY == maxY)
    where = "in one row";
  else if (const std::string band = edgeBand(); !band.empty())
    where = band;
  else if (borderBad == bad)
    where = "at the image border only";
  else if (interiorBad == 0)
    where = std::string("at the edges of work-group tiles (the halo)") + (borderBad ? " and the image border" : "");
  else if (bad * 10 >= compared * 9)
    where = "nearly everywhere";
  else if (interiorBad * 10 >= bad * 9 && bad * 4 < compared)
    where = "scattered inside the tiles";
  else
    where = "in parts of the image";
  return "wrong values " + where + (nan ? " (NaN or infinity among them)" : "");
}

std::string shiftHint(const Image& expected, const Image& actual, const CompareRule& rule) {
  if (expected.width != actual.width || expected.height != actual.height || expected.channels != actual.channels ||
      expected.width < 3 || expected.height < 3)
    return "";
  // Interior pixels only, so every neighbour exists; the last row stays out as the rule says.
  const int rows = expected.height - (rule.skipLastRow ? 2 : 1);
  auto matches = [&](int dx, int dy) {
    long n = 0;
    for (int c = 0; c < expected.channels; ++c)
      for (int y = 1; y < rows; ++y)
        for (int x = 1; x < expected.width - 1; ++x) {
          const double d = double(actual.at(c, x, y)) - double(expected.at(c, x + dx, y + dy));
          n += d * d < rule.maxSquaredError;
        }
    return n;
  };
  const long total = long(expected.channels) * (rows - 1) * (expected.width - 2);
  if (total <= 0 || matches(0, 0) * 2 > total) return "";
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      if ((dx || dy) && matches(dx, dy) * 100 >= total * 95)
        return "hint: the output is shifted by one pixel: (x, y) holds the expected value of (x" +
               std::string(dx < 0   ? " - 1"
                           : dx > 0 ? " + 1"
                                    : "") +
               ", y" +
               std::string(dy < 0   ? " - 1"
                           : dy > 0 ? " + 1"
                                    : "") +
               ") nearly everywhere; check the index offsets (the halo's +1, the tile's origin)";
    }
  return "";
}

}  // namespace clgrade
