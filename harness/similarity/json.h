// The similarity report as JSON: class.json's "similarity" (written by report/outputs.cpp), for the
// instructor and for tools. The side-by-side texts stay out (they are in each sources/ folder).
#pragma once

#include <nlohmann/json.hpp>

#include "similarity/model.h"

namespace clgrade {

/// {"measured", "problem" (when not measured), "never_a_grade", "method", "tasks": [{"task", "file",
/// "compared", "pairs", "distribution": {"median", "mad", "q1", "q3", "highest"}, "flagged",
/// "note"?, "problem"?, "top": [{"first", "second", "first_in_second", "second_in_first", "score",
/// "z", "flagged"}]}]}. Numbers are rounded to 2 decimals, so the same class gives the same text.
nlohmann::ordered_json similarityJson(const ClassSimilarity& similarity);

}  // namespace clgrade
