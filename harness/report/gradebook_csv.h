// The class gradebook as CSV (RFC 4180): one row per submission.
#pragma once

#include <string>
#include <vector>

#include "report/class_report.h"

namespace clgrade {

struct GradebookOptions {
  /// Text cells (submission, overrides, problem) that start with = + - @ or a tab get a leading
  /// apostrophe, so a spreadsheet does not run a student's folder name as a formula.
  bool guardFormulas = true;
};

/// Header: submission, one column per task.criterion ("conv3x3.tile_load"), one per task total
/// ("conv3x3 total"), total, max, overrides, problem. A row per entry in the given order: points as
/// numbers ("2", "2.5"; an overridden criterion holds the overridden points), empty cells where the
/// submission has no such criterion or was not graded, `overrides` listing each overridden criterion
/// ("conv3x3.tile_load: 3 (measured 0) by ta1: comment", "; " between), `problem` why an entry was not
/// graded. With a roster (report/class_roster.h), student_id, student_name and student_email follow
/// submission, and a student who handed in nothing has an empty submission, total 0 of the class's
/// max and problem "no submission"; a submission that is no student's says "not on the roster".
/// Lines end with CRLF.
std::string gradebookCsv(const std::vector<ClassEntry>& entries, const GradebookOptions& options = {});

}  // namespace clgrade
