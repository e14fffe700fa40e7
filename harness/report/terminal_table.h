// The terminal table: task, criterion, points, status, one-line reason.
#pragma once

#include <string>

#include "report/model.h"

namespace clgrade {

/// The table as text; `width` caps the reason column so lines fit a terminal.
std::string terminalTable(const GradeReport& report, size_t width = 120);

}  // namespace clgrade
