// Moodle's assignment grading worksheet (mod/assign/feedback/offline): columns found by their
// English header text; "Identifier" is "Participant " and the participant number that Moodle's
// "Download all submissions" also puts in every folder name, so this file needs no roster. A grade
// older than the one in Moodle ("Last modified (grade)") is skipped unless the teacher ticks "Ignore
// last modified date". Other columns (Full name, Email address, Maximum Grade) are ignored by Moodle
// and there for the teacher.
#include <map>

#include "lms/lms_export.h"
#include "report/text.h"
#include "util/csv.h"

namespace clgrade {

std::string moodleWorksheetCsv(const ClassGrades& grades, const ExportSettings& settings,
                               std::vector<std::string>* warnings) {
  std::string csv = csvRow({"Identifier", "Full name", "Email address", "Grade", "Maximum Grade",
                            "Last modified (grade)", "Feedback comments"});
  // Two folders with one participant number (a student's file and online text, say) would both set
  // that participant's grade, the later one winning: neither is written.
  std::map<std::string, int> uses;
  for (const ClassGrade& g : grades.grades)
    if (g.handedIn) ++uses[moodleParticipant(g.submission)];
  for (const ClassGrade& g : grades.grades) {
    if (!g.handedIn) {
      warnings->push_back(whoIs(g) + ": handed in nothing: Moodle has no participant number for them here: not in "
                                     "the file (grade them in Moodle)");
      continue;
    }
    const std::string participant = moodleParticipant(g.submission);
    if (participant.empty()) {
      warnings->push_back(whoIs(g) + ": its folder name has no participant number (Moodle names them \"Full "
                                     "Name_1234567_assignsubmission_file_\"): not in the file");
      continue;
    }
    if (uses[participant] > 1) {
      warnings->push_back(whoIs(g) + ": participant " + participant + " has " + std::to_string(uses[participant]) +
                          " folders: not in the file (grade them in Moodle)");
      continue;
    }
    if (!g.graded) {
      warnings->push_back(whoIs(g) + ": no grade (" + g.problem + "): not in the file");
      continue;
    }
    // Without a roster the name is the folder's: the student's text, kept from running as a formula.
    const std::string name =
        g.student ? g.student->name : spreadsheetSafe(g.submission.substr(0, g.submission.find('_')));
    csv += csvRow({"Participant " + participant, name, g.student ? g.student->email : "", formatPoints(g.total),
                   formatPoints(g.max), settings.now, g.feedback});
  }
  return csv;
}

}  // namespace clgrade
