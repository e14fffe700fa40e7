// Moodle's gradebook import from CSV (grade/import/csv): the teacher maps one column to a user field
// ("Map from" a column "Map to" ID number, username or email address: looked up site-wide, and one
// row that matches nobody aborts the whole import) and each other column to a grade item or to its
// feedback; unmapped columns are ignored. Empty or "-": no grade. Decimal point, no thousands.
#include "lms/lms_export.h"
#include "report/text.h"
#include "util/csv.h"

namespace clgrade {

std::string moodleGradesCsv(const ClassGrades& grades, const ExportSettings& settings,
                            std::vector<std::string>* warnings) {
  // A user field is a column only when every student has one: a blank identifier cell makes Moodle
  // give that row the grades of the row before it.
  bool logins = true, emails = true;
  for (const ClassGrade& g : grades.grades)
    if (g.student) {
      logins = logins && !g.student->login.empty();
      emails = emails && !g.student->email.empty();
    }
  std::vector<std::string> header = {"ID number"};
  if (logins) header.push_back("Username");
  if (emails) header.push_back("Email address");
  header.insert(header.end(), {"Full name", settings.assignment, settings.assignment + " feedback"});
  std::string csv = csvRow(header);
  for (const ClassGrade& g : grades.grades) {
    if (!g.student) {
      warnings->push_back(whoIs(g) + ": no student on the roster: not in the file");
      continue;
    }
    std::string grade;
    if (g.graded)
      grade = formatPoints(g.total);
    else if (!g.handedIn)
      grade = "0";
    else
      warnings->push_back(whoIs(g) + ": no grade (" + g.problem + "): left empty");
    std::vector<std::string> row = {g.student->id};
    if (logins) row.push_back(g.student->login);
    if (emails) row.push_back(g.student->email);
    row.insert(row.end(), {g.student->name, grade, g.feedback});
    csv += csvRow(row);
  }
  return csv;
}

}  // namespace clgrade
