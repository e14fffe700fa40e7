// Canvas's Gradebook import (app/models/gradebook_importer.rb): the header's first two cells hold
// "Student" and "ID" and the last student column is "Section"; students are found by ID (Canvas's
// own user id, which a roster does not have: left empty), then SIS User ID, then SIS Login ID, then
// the name. Any other column is an assignment, by "Title (id)", else by exact title, else a new one;
// the "Points Possible" row gives a new assignment its points. Empty or "-": no score.
#include "lms/lms_export.h"
#include "report/text.h"
#include "util/csv.h"

namespace clgrade {

std::string canvasGradebookCsv(const ClassGrades& grades, const ExportSettings& settings,
                               std::vector<std::string>* warnings) {
  std::string csv = csvRow({"Student", "ID", "SIS User ID", "SIS Login ID", "Section", settings.assignment});
  csv += csvRow({"Points Possible", "", "", "", "", formatPoints(grades.max)});
  for (const ClassGrade& g : grades.grades) {
    if (!g.student) {
      warnings->push_back(whoIs(g) + ": no student on the roster: not in the file");
      continue;
    }
    std::string score;
    if (g.graded)
      score = formatPoints(g.total);
    else if (!g.handedIn)
      score = "0";  // handed in nothing
    else
      warnings->push_back(whoIs(g) + ": no grade (" + g.problem + "): left empty");
    csv += csvRow({g.student->name, "", g.student->id, g.student->login, "", score});
  }
  return csv;
}

}  // namespace clgrade
