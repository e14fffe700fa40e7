#include "checks/evidence.h"

#include <cmath>
#include <filesystem>

#include "checks/failure_picture.h"
#include "image/pfm.h"
#include "image/png.h"
#include "util/files.h"

namespace clgrade {

namespace {

/// The widest difference map written: wider images are shrunk by a whole factor, worst pixel kept.
constexpr int kOverviewWidth = 640;

/// True when `relativePath` stays inside the folder it is relative to, whatever ids it was built
/// from: not absolute, no "..", ".", hidden or empty component, no NUL. The rubric refuses such ids
/// already; this is the last word before a file is created.
bool staysInside(const std::string& relativePath) {
  if (relativePath.empty() || relativePath.find('\0') != std::string::npos) return false;
  const std::filesystem::path p(relativePath);
  if (p.is_absolute() || p.has_root_name()) return false;
  for (const std::filesystem::path& part : p) {
    const std::string s = part.string();
    if (s.empty() || s[0] == '.') return false;
  }
  return true;
}

}  // namespace

std::string EvidenceWriter::prepare(const std::string& relativePath) {
  if (!staysInside(relativePath)) return "";
  const std::filesystem::path full = std::filesystem::path(reportDir_) / relativePath;
  makeDirectories(full.parent_path().string(), nullptr);
  return full.string();
}

std::vector<Evidence> EvidenceWriter::comparison(const std::string& stem, const Comparison& result,
                                                 const Image& expected, const Image& actual, double failAt) {
  std::vector<Evidence> out;
  if (discard_) return out;
  std::string err;
  float lo = 0, hi = 0;
  bool first = true;
  for (float v : expected.pixels) {
    if (!std::isfinite(v)) continue;
    if (first || v < lo) lo = v;
    if (first || v > hi) hi = v;
    first = false;
  }
  if (hi <= lo) hi = lo + 1;
  const std::string e = "evidence/" + stem;
  if (!staysInside(e)) return out;
  if (policy_.pfm && writePfm(prepare(e + "_diff.pfm"), result.difference, &err))
    out.push_back({"difference image (PFM, squared error)", e + "_diff.pfm"});
  // Tone-map each channel's error into one plane: the worst channel per pixel.
  Image worst(result.difference.width, result.difference.height, 1);
  for (int y = 0; y < worst.height; ++y)
    for (int x = 0; x < worst.width; ++x) {
      float w = 0;
      for (int c = 0; c < result.difference.channels; ++c) {
        const float v = result.difference.at(c, x, y);
        if (std::isnan(v) || std::isnan(w))
          w = NAN;
        else if (v > w)
          w = v;
      }
      worst.at(0, x, y) = w;
    }
  // Most telling first: the first wrong pixels up close, where the errors are over the whole
  // image, then what the kernel wrote, then what it should have.
  // The first pixel the rule counted as wrong (not one of an ungraded last row); a failure of the
  // mean alone has none: then the first pixel over the limit, if any.
  int fx = 0, fy = 0;
  bool wrongPixel = false;
  if (!result.firstBad.empty()) {
    fx = result.firstBad.front().x;
    fy = result.firstBad.front().y;
    wrongPixel = true;
  } else {
    wrongPixel = firstFailingPixel(worst, static_cast<float>(failAt), &fx, &fy);
  }
  if (wrongPixel) {
    const CropWindow window = cropAround(fx, fy, worst.width, worst.height);
    const RgbImage crop = failureCrop(expected, actual, worst, static_cast<float>(failAt), lo, hi, window);
    if (writeRgbPng(prepare(e + "_crop.png"), crop.width, crop.height, crop.rgb, &err) &&
        withinBudget(prepare(e + "_crop.png")))
      out.push_back({"the first wrong pixels up close: expected | actual | difference, x " + std::to_string(window.x0) +
                         ".." + std::to_string(window.x0 + window.width - 1) + ", y " + std::to_string(window.y0) +
                         ".." + std::to_string(window.y0 + window.height - 1) + ", first wrong pixel (" +
                         std::to_string(fx) + ", " + std::to_string(fy) + ")",
                     e + "_crop.png"});
  }
  // A page shows the map a few hundred pixels wide: shrunk by the browser, a one-pixel column of
  // errors fades away. Shrunk here instead, each pixel keeps the worst of those it covers.
  const int factor = (worst.width + kOverviewWidth - 1) / kOverviewWidth;
  const std::string scaleNote = factor > 1 ? ", each pixel the worst of " + std::to_string(factor) + "x" +
                                                 std::to_string(factor) + " (the crop shows them one by one)"
                                           : std::string();
  if (writeDifferencePng(prepare(e + "_diff.png"), worstPool(worst, factor), static_cast<float>(failAt), &err) &&
      withinBudget(prepare(e + "_diff.png")))
    out.push_back(
        {"difference image (PNG: red fails, yellow the worst error, blue rounding, magenta NaN" + scaleNote + ")",
         e + "_diff.png"});
  if (writePng(prepare(e + "_actual.png"), actual, lo, hi, &err) && withinBudget(prepare(e + "_actual.png")))
    out.push_back({"actual output (PNG)", e + "_actual.png"});
  if (writePng(prepare(e + "_expected.png"), expected, lo, hi, &err) && withinBudget(prepare(e + "_expected.png")))
    out.push_back({"expected output (PNG)", e + "_expected.png"});
  return out;
}

bool EvidenceWriter::withinBudget(const std::string& full) {
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(full, ec);
  if (ec) return false;
  if (policy_.imageBudgetBytes && imageBytes_ + size > policy_.imageBudgetBytes) {
    std::filesystem::remove(full, ec);
    ++imagesOverBudget_;
    return false;
  }
  imageBytes_ += size;
  return true;
}

Evidence EvidenceWriter::text(const std::string& relativePath, const std::string& label, const std::string& contents) {
  std::string err;
  if (discard_) return {label, ""};
  const std::string full = prepare(relativePath);
  if (full.empty() || !writeFileAtomically(full, contents, &err)) return {label, ""};
  return {label, relativePath};
}

}  // namespace clgrade
