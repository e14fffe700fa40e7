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

/// JSON text as class.json and the completion markers hold it (indented, a final newline); bytes that
/// are not UTF-8 (a student's file name or directive in a message) become U+FFFD instead of an
/// exception. `clgrade batch` and `clgrade merge` both write through it, so their files compare.
std::string classFileText(const nlohmann::ordered_json& j);

}  // namespace clgrade
