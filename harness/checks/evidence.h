// Writes the files a person opens to see why a check failed.
#pragma once

#include <string>
#include <vector>

#include "checks/comparison.h"
#include "model/status.h"

namespace clgrade {

/// What image evidence a grade leaves on disk. A template submission fails every check: with full-size
/// images of each it took 73 MB a grade (11 MB of PFM), 247 MB for the 16 samples.
struct EvidencePolicy {
  /// The PFM difference file (every channel, full precision) beside each PNG: for people who compute
  /// with it, on request (clgrade grade --pfm).
  bool pfm = false;
  /// PNG bytes this writer may leave (0: no limit). When an image would go beyond it, it is removed
  /// and counted in imagesOverBudget(): the first failing checks keep their pictures, the difference
  /// map first, then actual and expected.
  uint64_t imageBudgetBytes = 0;
};

/// Files go under <report folder>/evidence/; returned paths are relative to the report folder.
class EvidenceWriter {
 public:
  explicit EvidenceWriter(std::string reportDir, EvidencePolicy policy = {})
      : reportDir_(std::move(reportDir)), policy_(policy) {}
  /// Writes nothing: a runner's report is thrown away (the keeper writes the evidence when it
  /// replays the runner's record), so its images and logs would cost time for nothing.
  static EvidenceWriter discarding() {
    EvidenceWriter w("");
    w.discard_ = true;
    return w;
  }

  /// For a failed comparison: the difference image (a tone-mapped PNG of the worst channel per pixel,
  /// and with policy().pfm a PFM with every channel), actual and expected as PNG on the expected
  /// image's value range; within the image budget.
  /// `stem` like "conv3x3/edge/output".
  std::vector<Evidence> comparison(const std::string& stem, const Comparison& result, const Image& expected,
                                   const Image& actual, double failAt);

  /// A text file (a build log, a listing); empty path if it could not be written or `relativePath`
  /// could leave the report folder.
  Evidence text(const std::string& relativePath, const std::string& label, const std::string& contents);

  const std::string& reportDir() const { return reportDir_; }
  /// True for discarding(): nothing this writer is asked for reaches a file, and a caller that writes
  /// files of its own below reportDir() (a chart) must not either (reportDir() is "" then: the
  /// process's working folder, the keeper's own without a sandbox).
  bool discards() const { return discard_; }
  const EvidencePolicy& policy() const { return policy_; }
  /// Images left out so far because the budget was spent.
  int imagesOverBudget() const { return imagesOverBudget_; }

 private:
  /// Keeps the image just written at `full` if it fits the budget; else removes it.
  bool withinBudget(const std::string& full);
  /// Creates the parent folders of reportDir/relativePath and returns the full path; "" (nothing
  /// written) when the path could leave the report folder.
  std::string prepare(const std::string& relativePath);
  std::string reportDir_;
  EvidencePolicy policy_;
  uint64_t imageBytes_ = 0;
  int imagesOverBudget_ = 0;
  bool discard_ = false;
};

}  // namespace clgrade
