// The terminal table: task, criterion, points, status, one-line reason.
#pragma once

#include <string>

#include "model/report.h"

namespace clgrade {

/// The table as text; `width` caps the reason column so lines fit a terminal. Every function here
/// returns text safe to print: control characters of student text are shown as `\x1b` (terminalText).
/// With `performance`, the timed kernels' figures follow the table.
std::string terminalTable(const GradeReport& report, size_t width = 120, bool performance = true);

/// One line per failing criterion with the shortest useful reason (the finding of its first failing
/// check, and in how many places it recurs), then where the report is: what fits a screen.
/// Empty when nothing failed.
std::string whatToFix(const GradeReport& report, size_t width = 120);

/// What went wrong in full, per task: each finding once with where it recurs, and for each check it
/// recurs in its first case's reason, first details (wrong pixels, compiler errors) and evidence
/// files under `reportDir`. Empty when nothing failed.
std::string failureDetails(const GradeReport& report, const std::string& reportDir, size_t detailLines = 4);

}  // namespace clgrade
