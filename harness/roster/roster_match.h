// Which submission is whose: the class folder's names (a folder or an archive per submission) matched
// to the roster's students, so that a class folder as an LMS's "download all submissions" gives it
// ("Ada Lovelace_4711_assignsubmission_file_" from Moodle, "Lovelace_Ada_alovelace_1234" from ILIAS)
// is graded and exported without renaming anything by hand.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "roster/roster.h"

namespace clgrade {

struct RosterMatch {
  std::map<std::string, size_t> studentOf;  ///< submission name -> its student (index in the roster)
  std::map<std::string, std::string> how;   ///< submission name -> how it was matched ("login", "name", ...)
  std::vector<size_t> missing;              ///< students with no submission, in roster order
  std::vector<std::string> unmatched;       ///< submissions that are no student's, sorted
  /// Students matched by more than one submission -> those submissions (also in `unmatched`).
  std::map<size_t, std::vector<std::string>> contested;
  /// Submissions that could be more than one student's, or students with more than one submission,
  /// one message each; those submissions are in `unmatched` (an LMS must not get a guess).
  std::vector<std::string> problems;
};

/// Matches each submission name (a class folder's name, an archive's without its suffix) to a student:
///  1. the student whose submission column names it (an archive's suffix may be given or not); a
///     student with a submission column is matched only that way;
///  2. else the student whose login or email is a word of the name (words are split at "_", spaces,
///     "-", parentheses, brackets and commas; compared without case or accents);
///  3. else the student whose id is a word of the name and whose name does not point at another student;
///  4. else the student all of whose name's words are words of the name, in any order (umlauts also as
///     "ae", "oe", "ue", "ss").
/// More than one student at a step, or one student matched by more than one submission, is a problem,
/// never a guess.
RosterMatch matchRoster(const Roster& roster, const std::vector<std::string>& submissions);

}  // namespace clgrade
