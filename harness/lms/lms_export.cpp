#include "lms/lms_export.h"

namespace clgrade {

const std::vector<LmsExport>& lmsExports() {
  static const std::vector<LmsExport> table = {
      {"canvas", "canvas.csv", "Canvas: Gradebook > Import (CSV, students by SIS User ID, roster needed)", true,
       canvasGradebookCsv},
      {"moodle", "moodle.csv",
       "Moodle: Grades > Import > CSV file (map 'ID number', 'Username' or 'Email address'; roster needed)", true,
       moodleGradesCsv},
      {"moodle-worksheet", "moodle-worksheet.csv",
       "Moodle assignment: Upload grading worksheet (folders from 'Download all submissions')", false,
       moodleWorksheetCsv},
      {"ilias", "ilias-status.csv",
       "ILIAS exercise: status file of the ExerciseStatusFile plugin (folders from 'Download all submissions')",
       false, iliasStatusCsv},
  };
  return table;
}

std::string whoIs(const ClassGrade& g) {
  if (!g.student) return "'" + g.submission + "'";
  return g.student->id + (g.student->name.empty() ? "" : " (" + g.student->name + ")");
}

}  // namespace clgrade
