// The class as the roster sees it: every student once, those who handed in nothing included, and the
// submissions that are no student's, so that a gradebook or an LMS export leaves nobody out silently.
#pragma once

#include <string>
#include <vector>

#include "report/class_report.h"
#include "roster/roster.h"

namespace clgrade {

/// The entries in roster order, each with its student (roster/roster_match.h): a student with a
/// submission gets its entry; one without gets an entry with handedIn false, not graded, problem "no
/// submission"; then the submissions that are no student's, problem "not on the roster" before their
/// own. Without a roster the entries come back as they are. `messages` (when given) gets one line per
/// student without a submission list, unmatched submission list and matching problem, for the
/// instructor ("roster.csv: 2 of 30 students handed in nothing: 4711 (Ada Lovelace), ...").
std::vector<ClassEntry> classWithRoster(std::vector<ClassEntry> entries, const Roster& roster,
                                        std::vector<std::string>* messages = nullptr);

}  // namespace clgrade
