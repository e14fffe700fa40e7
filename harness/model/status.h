// What a check says: a status, a reason a person can read, and the evidence behind it.
#pragma once

#include <string>
#include <vector>

namespace clgrade {

/// passed / failed are about the student's kernels; not_measured is a check that does not exist
/// (yet) or could not run on this device; error is a failure of the run itself (driver, harness).
enum class Status { Passed, Failed, NotMeasured, Error };

/// "passed", "failed", "not_measured", "error".
const char* statusName(Status status);
/// The inverse of statusName; false for another word.
bool statusFromName(const std::string& name, Status* status);

/// A file a person can open to see why (relative to the report folder).
struct Evidence {
  std::string label;  ///< "difference image (PNG)", "build log", ...
  std::string path;
};

/// The result of one check on one rubric case.
struct CaseOutcome {
  std::string caseId;
  bool visible = true;
  Status status = Status::NotMeasured;
  std::string message;  ///< one line
  /// What went wrong, said the same way at every image size and in every case ("wrong values in the
  /// last column (x = W-1)"): equal findings are reported once with the cases they recur in, and a
  /// student is told a hidden case's finding instead of its message. Empty: the message says it.
  std::string finding;
  std::vector<std::string> details;  ///< further lines: first bad pixels, regions, last row, warnings
  std::vector<Evidence> evidence;
  std::vector<std::string> timings;  ///< "ConvHorizontal ch0: 0.412 ms (global 224x576, local 32x16)"
};

/// The result of one check over every case it ran on.
struct CheckResult {
  std::string id;     ///< e.g. "horizontal"
  std::string title;  ///< what it checks, for people
  Status status = Status::NotMeasured;
  std::string message;
  std::vector<CaseOutcome> cases;
};

/// Folds case outcomes into the check's status: error beats failed beats not_measured beats passed;
/// the message names the first case of the worst status.
void summarize(CheckResult* check);

}  // namespace clgrade
