// One submission's line in class.json, taken from its report (a resumed batch reads the
// report.json of the submissions graded before it was stopped).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "model/report.h"

namespace clgrade {

/// One submission's entry in class.json: totals per task and criterion, statuses, and each task's
/// problem. Only what grading decides: no times, no dates, no paths, so a batch killed and resumed
/// writes the same bytes as one that ran in one go.
nlohmann::ordered_json classJsonEntry(const std::string& submission, const GradeReport& report);

}  // namespace clgrade
