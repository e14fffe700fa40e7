// Two audiences (issue 14, item 5): the instructor sees everything a grade measured; a student sees
// the same report without what would give the hidden cases away (their names, sizes and pixels).
#pragma once

#include <string>

#include "model/report.h"

namespace clgrade {

enum class Audience { Instructor, Student };

/// "instructor", "student".
const char* audienceName(Audience audience);
/// The inverse of audienceName; false for another word.
bool audienceFromName(const std::string& name, Audience* audience);

/// What a student may see of `report`. Each hidden case keeps its status and becomes "hidden-1",
/// "hidden-2", ... (numbered over the report in order of first appearance); its message becomes "a
/// hidden case failed: <its finding>" ("... passed" / "... was not measured"), with no details,
/// pictures or timings. Every other text that quoted a hidden case (a check's or criterion's
/// message "case box_1280x720: 719 of 920320 values wrong", the analysis case's name, the
/// performance and sweep case) says the alias and the redacted message instead. The hidden seed
/// goes, and so does the list of generated inputs when there are hidden cases (their sizes).
/// A report without hidden cases comes back unchanged but for the seed.
GradeReport forStudents(const GradeReport& report);

/// What a student is told of a failing hidden case: its finding, or its message with every number
/// of three or more digits as "N" (an image size, a pixel count).
std::string hiddenFailureKind(const CaseOutcome& outcome);

}  // namespace clgrade
