// Which submission is whose: the class folder's names (a folder or an archive per submission) matched
// to the roster's students, so that a class folder as an LMS's "download all submissions" gives it
// ("Ada Lovelace_4711_assignsubmission_file_" from Moodle, "Lovelace_Ada_alovelace_1234" from ILIAS)
// is graded and exported without renaming anything by hand.
#pragma once

#include <cstddef>
#include <map>
#include <set>
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
  /// Students a submission could not be told apart from (a matching problem names them): not missing,
  /// but without a grade until the instructor says whose it is; never given a 0 for it.
  std::set<size_t> uncertain;
  /// Submissions that could be more than one student's, or students with more than one submission,
  /// one message each; those submissions are in `unmatched` (an LMS must not get a guess).
  std::vector<std::string> problems;
};

/// Matches each submission name (a class folder's name, an archive's without its suffix) to a student:
///  1. the student whose submission column names it (an archive's suffix may be given or not); a
///     student with a submission column is matched only that way;
///  2. else by the words of the name (split at "_", spaces, "-", parentheses, brackets and commas;
///     compared without case or accents), without the numbers an LMS's download adds (Moodle's
///     participant number and what follows it, ILIAS's user id: no student id): the student whose login
///     or email (else id) is a word of it, and the student all of whose name's words are words of it,
///     in any order (umlauts also as "ae", "oe", "ue", "ss"); when both are found they must be the
///     same student (a login can be a common word of another's name: "lee").
/// More than one student at a step, or one student matched by more than one submission, is a problem,
/// never a guess.
RosterMatch matchRoster(const Roster& roster, const std::vector<std::string>& submissions);

}  // namespace clgrade
