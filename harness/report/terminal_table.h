// The terminal table: task, criterion, points, status, one-line reason.
#pragma once

#include <string>

#include "model/report.h"

namespace clgrade {

/// The table as text; `width` caps the reason column so lines fit a terminal. Both functions return
/// text safe to print: control characters of student text are shown as `\x1b` (terminalText).
std::string terminalTable(const GradeReport& report, size_t width = 120);

/// What went wrong, for each failed or errored check: its cases' reasons, the first details
/// (wrong pixels, compiler errors) and the evidence files under `reportDir`. Empty when nothing failed.
std::string failureDetails(const GradeReport& report, const std::string& reportDir, size_t detailLines = 4);

}  // namespace clgrade
