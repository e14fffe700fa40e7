// Reading report.json back: the part of the result model that the terminal table, the exit code of
// `check` and the class results need. A merged report exists only as JSON (each task was graded
// in its own process), so this is how the parent shows it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "report/model.h"

namespace clgrade {

/// "passed" -> Status::Passed, ...; unknown names read as error.
Status parseStatusName(const std::string& name);

/// The report's version, mode, rubric, device, and per task: id, title, file, presence, problem,
/// points, criteria (points, status, message, checks) and checks with their cases (status,
/// message, details, evidence). Counters, builds, timings and inputs are not read.
GradeReport reportSummary(const nlohmann::ordered_json& report);

/// One submission's entry in class.json: totals per task and criterion, statuses, and each task's
/// problem. Only what grading decides: no times, no dates, no paths, so a batch killed and resumed
/// writes the same bytes as one that ran in one go.
nlohmann::ordered_json classJsonEntry(const std::string& submission, const nlohmann::ordered_json& report);

}  // namespace clgrade
