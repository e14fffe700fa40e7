// A class's grades as an LMS export reads them: each student's total (overrides applied), their
// feedback line and how the LMS knows them, from the class folder's class.json and the roster.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "roster/roster.h"

namespace clgrade {

struct ClassGrade {
  std::optional<RosterStudent> student;  ///< none: no roster, or a submission that is no student's
  std::string submission;                ///< its name in the class folder; empty: handed in nothing
  bool handedIn = true;
  bool graded = false;  ///< total and max hold the grade (overrides applied)
  double total = 0, max = 0;
  /// One line for the student: "conv3x3 5/5, separable 6/8, ...; histogram: does not compile: ...".
  std::string feedback;
  std::string problem;  ///< why it has no grade ("no submission", a machine fault, two submissions)
};

struct ClassGrades {
  std::string rubricTitle;
  double max = 0;  ///< the class's max (of the first graded submission)
  std::vector<ClassGrade> grades;  ///< roster order, then the submissions that are no student's
  bool roster = false;             ///< a roster was given or kept in class.json
  /// For the instructor: students who handed in nothing, submissions no student's, matching problems.
  std::vector<std::string> notes;
};

/// Reads `classDir`/class.json as `clgrade batch` or `clgrade merge` wrote it, with `roster` when given
/// (else the roster class.json keeps, if any). False with *err when there is no readable class.json.
bool readClassGrades(const std::string& classDir, const Roster* roster, ClassGrades* out, std::string* err);

/// The number an LMS's "download all submissions" put in the folder name: Moodle's participant
/// number ("Ada Lovelace_1234567_assignsubmission_file_" -> "1234567"), ILIAS's user id (the digits
/// after the last "_" of a name of four parts at least: "Lovelace_Ada_alovelace_6789" -> "6789");
/// "" when the name has none.
std::string moodleParticipant(const std::string& submission);
std::string iliasUserId(const std::string& submission);

}  // namespace clgrade
