// A class: every submission of a batch with its report, for the outputs that span the class
// (gradebook.csv, summary.html).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/report.h"
#include "roster/roster.h"

namespace clgrade {

struct ClassEntry {
  std::string submission;  ///< its name (the folder)
  bool graded = false;     ///< `report` holds its report (with overrides applied)
  GradeReport report;
  std::string problem;  ///< why there is no report (the grade crashed, report.json unreadable)
  std::string
      reportHtml;  ///< its report.html relative to the folder of summary.html ("alice/report.html"); empty: no link
  /// Overrides of it not applied: written for another grade of it (report/override_ledger.h).
  std::vector<std::string> staleOverrides;
  /// The roster's student whose submission it is (a class with a roster: report/class_roster.h); none
  /// without a roster, or for a submission that is no student's.
  std::optional<RosterStudent> student;
  /// False for a student on the roster who handed in nothing: no submission name, not graded, 0 points.
  bool handedIn = true;
};

/// The columns of a class: each task (in order of first appearance over the graded reports) with its
/// criteria (likewise). Reports of one rubric all share one layout.
struct ClassColumn {
  std::string task;
  std::string taskTitle;
  double max = 0;  ///< the task's max in the first report that has it
  std::vector<std::string> criteria;
  std::vector<double> criterionMax;
};
std::vector<ClassColumn> classColumns(const std::vector<ClassEntry>& entries);

/// What kept a task from being graded as a whole, in a few words for a gradebook: its problem (a
/// missing file, a runner stopped), else "does not compile: Convolution3x3.cl:7: expected ';' ..." when
/// a build failed; "" when none.
std::string taskProblem(const TaskReport& task);

/// Each task's problem as "conv3x3: does not compile: ...", joined with "; " ("" when none).
std::string submissionProblems(const GradeReport& report);

}  // namespace clgrade
