// Writes the files a person opens to see why a check failed.
#pragma once

#include <string>
#include <vector>

#include "checks/comparison.h"
#include "model/status.h"

namespace clgrade {

/// Files go under <report folder>/evidence/; returned paths are relative to the report folder.
class EvidenceWriter {
 public:
  explicit EvidenceWriter(std::string reportDir) : reportDir_(std::move(reportDir)) {}
  /// Writes nothing: a runner's report is thrown away (the keeper writes the evidence when it
  /// replays the runner's record), so its images and logs would cost time for nothing.
  static EvidenceWriter discarding() {
    EvidenceWriter w("");
    w.discard_ = true;
    return w;
  }

  /// For a failed comparison: the difference image (PFM with every channel, and a tone-mapped PNG of
  /// the worst channel per pixel), actual and expected as PNG on the expected image's value range.
  /// `stem` like "conv3x3/edge/output".
  std::vector<Evidence> comparison(const std::string& stem, const Comparison& result, const Image& expected,
                                   const Image& actual, double failAt);

  /// A text file (a build log, a listing); empty path if it could not be written or `relativePath`
  /// could leave the report folder.
  Evidence text(const std::string& relativePath, const std::string& label, const std::string& contents);

  const std::string& reportDir() const { return reportDir_; }

 private:
  /// Creates the parent folders of reportDir/relativePath and returns the full path; "" (nothing
  /// written) when the path could leave the report folder.
  std::string prepare(const std::string& relativePath);
  std::string reportDir_;
  bool discard_ = false;
};

}  // namespace clgrade
