// The terminal table: task, criterion, points, status, reason (wrapped to the terminal).
#pragma once

#include <string>

#include "model/report.h"

namespace clgrade {

/// The table as text; `width` (0: no terminal, every reason whole on its line) wraps the reason column
/// at spaces so lines fit a terminal, ids never cut. Every function here
/// returns text safe to print: control characters of student text are shown as `\x1b` (terminalText).
/// With `performance`, the timed kernels' figures follow the table.
std::string terminalTable(const GradeReport& report, size_t width = 120, bool performance = true);

/// One line per failing criterion with the shortest useful reason (the finding of its first failing
/// check, and in how many places it recurs), then where the report is: what fits a screen.
/// Empty when nothing failed. `width` as terminalTable's.
std::string whatToFix(const GradeReport& report, size_t width = 120);

/// What went wrong in full, per task: each finding once with where it recurs, and for each check it
/// recurs in its first case's reason, first details (wrong pixels, compiler errors) and evidence
/// files under `reportDir`. Empty when nothing failed.
std::string failureDetails(const GradeReport& report, const std::string& reportDir, size_t detailLines = 4);

}  // namespace clgrade
