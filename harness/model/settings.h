// The rubric settings a report records with its verdicts: the course's comparison rule and what
// else decides pass or fail.
#pragma once

namespace clgrade {

/// The course's correctness rule: per pixel, e = (expected - actual)^2.
struct CompareRule {
  double maxSquaredError = 1e-8;    ///< every pixel: e < this (|diff| < 1e-4)
  double meanSquaredError = 1e-10;  ///< mean of e over the compared pixels < this
  bool skipLastRow = true;          ///< the course excluded y = H-1; its state is still reported
};

/// Rubric settings that decide pass or fail beyond the comparison itself.
struct GradeSettings {
  CompareRule rule;
  /// Image files are written for the first N failing cases of each check (0: all). Images of
  /// every failing case of a template submission would take hundreds of MB per student.
  int evidenceCasesPerCheck = 1;
  /// The bank model of the simulated counters (the plugin's CLGRADE_BANKS, ...).
  int banks = 32, bankBytes = 4, warpSize = 32;
  /// Longest a simulator run may take before it is killed and reported as an error.
  double analysisTimeoutSeconds = 600;
  /// A data race or out-of-bounds access found by the simulator fails the kernel's checks.
  bool sanitizerFindingsFail = true;
  /// Also track uninitialized values in the simulator (about 4 times slower).
  bool uninitializedCheck = false;
  /// Hardware counters are noisy: conflicts per shared store instruction up to this pass.
  double hardwareConflictTolerance = 0.02;
  /// Separable passes (tasks 2 and 3) may apply their weights as k[R-k] or k[R+k] (spec section 2);
  /// false (<settings weight_order="reference">): only the reference's k[R-k].
  bool eitherWeightOrder = true;
};

}  // namespace clgrade
