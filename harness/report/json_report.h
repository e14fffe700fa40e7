// report.json: the machine-readable report (schema in reports/README.md).
#pragma once

#include <string>

#include "report/model.h"

namespace clgrade {

/// The report as JSON text (pretty-printed, stable key order).
std::string toJson(const GradeReport& report);

}  // namespace clgrade
