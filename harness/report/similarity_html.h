// summary.html's #similarity, "Similar kernels": per task file, the class's distribution of pair
// scores in one line, the flagged pairs then the most similar others, and the top flagged pairs'
// two sources side by side (template lines greyed). For the instructor to look at; it never
// changes a grade, and says so.
#pragma once

#include <string>

#include "similarity/model.h"

namespace clgrade {

/// The section (escaped text, inline style, no script). Not measured: the section says why
/// (similarity.problem), never an empty section.
std::string similaritySection(const ClassSimilarity& similarity);

}  // namespace clgrade
