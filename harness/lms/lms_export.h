// The LMS exports: one row per format in one table (the CLI's `clgrade export FORMAT`, its help and
// the docs read it), each rendered by a function in a file of its own. What each column is and where
// it was read: docs/lms.md.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lms/class_grades.h"

namespace clgrade {

struct ExportSettings {
  std::string assignment;       ///< the LMS's column or item for this grade ("Lab 3 (12345)" for Canvas)
  std::optional<double> passAt;  ///< ILIAS status: passed at this total or above, else failed
  std::string now;              ///< "2026-11-27 10:00" (UTC): Moodle's "Last modified (grade)"
};

/// The file's text; every student left out or without a grade is one line of `warnings`.
using ExportRenderer =
    std::function<std::string(const ClassGrades&, const ExportSettings&, std::vector<std::string>* warnings)>;

struct LmsExport {
  std::string name;         ///< the argument of `clgrade export`: "canvas"
  std::string file;         ///< the default file in the class folder: "canvas.csv"
  std::string description;  ///< one line for --help
  bool needsRoster = false;  ///< the LMS matches students on an id only the roster has
  ExportRenderer render;
};

/// Every format, in the order --help lists them.
const std::vector<LmsExport>& lmsExports();

// The renderers (one file each).
std::string canvasGradebookCsv(const ClassGrades& grades, const ExportSettings& settings,
                               std::vector<std::string>* warnings);
std::string moodleGradesCsv(const ClassGrades& grades, const ExportSettings& settings,
                            std::vector<std::string>* warnings);
std::string moodleWorksheetCsv(const ClassGrades& grades, const ExportSettings& settings,
                               std::vector<std::string>* warnings);
std::string iliasStatusCsv(const ClassGrades& grades, const ExportSettings& settings,
                           std::vector<std::string>* warnings);

/// "4711 (Ada Lovelace)", or the submission's name without a student: how warnings name a row.
std::string whoIs(const ClassGrade& g);

}  // namespace clgrade
