// The trusted kernels' figures of a batch: the reference kernels, the naive ones and the copy
// roofline of each task's performance case, timed once by a process that runs no student code and
// handed to every grade of the batch until they are re-timed (a grade then times only the
// submission's kernels). What a report says about them: when they were taken.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "model/figures.h"

namespace clgrade {

struct TrustedTimings {
  std::string takenAt;  ///< UTC, ISO 8601
  std::string device;   ///< as PerformanceReport::device
  std::string policy;   ///< "re-timed every 15 minutes or 100 submissions", for the report's note
  /// By task id: copy, reference and naive of the task's performance case (kernels empty), with
  /// their note (no reference kernels, say).
  std::map<std::string, PerformanceReport> byTask;
  /// Tasks whose figures were not fit to serve the batch, with why (their grades time them).
  std::map<std::string, std::string> left;
};

/// The batch's figures as one grade is served them, with the grade's hold on its GPU: the batch times
/// the reference again only once every grade it served has let go of `running` (spec 5c: no student
/// code on the GPU while the reference it is scored against is timed). Held for the whole grade.
struct ServedFigures {
  std::shared_ptr<const TrustedTimings> figures;  ///< null: none, the grade times them itself
  std::shared_ptr<void> running;                  ///< released when the grade's processes have ended
};

/// As JSON text, and back (false with the reason for anything else).
std::string trustedTimingsJson(const TrustedTimings& t);
bool readTrustedTimings(const std::string& text, TrustedTimings* t, std::string* err);

}  // namespace clgrade
