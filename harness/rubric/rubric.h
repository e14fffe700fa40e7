// The rubric as data: tasks, criteria with points, the cases each task runs, and settings.
// Instructors change the assignment by editing the XML file, never the C++.
#pragma once

#include <string>
#include <vector>

#include "tasks/case_spec.h"
#include "tasks/task_context.h"

namespace clgrade {

/// Points a student earns when every check listed passes.
struct Criterion {
  std::string id;
  std::string title;
  double points = 0;
  std::vector<std::string> checks;  ///< check ids of the task; all must pass
  int line = 0;
};

/// The case the simulator runs for the simulated checks: one of the task's cases at a small size
/// (counts scale exactly with the number of work-groups, and Oclgrind is slow).
struct AnalysisSpec {
  bool present = false;
  std::string caseId;
  int width = 0, height = 0;
  int line = 0;
};

struct TaskRubric {
  std::string id;  ///< a task id of the registry: conv3x3, separable, bilateral, histogram
  std::vector<Criterion> criteria;
  std::vector<CaseSpec> cases;
  AnalysisSpec analysis;
  int line = 0;
  double maxPoints() const;
  /// The analysis case: the named case with the analysis size, id "analysis". False without <analysis>.
  bool analysisCase(CaseSpec* spec) const;
};

struct Rubric {
  std::string id;
  std::string title;
  std::string path;
  std::string sha256;  ///< of the file, for the report
  GradeSettings settings;
  std::vector<TaskRubric> tasks;
  double maxPoints() const;
};

/// Reads and validates a rubric file. Every problem becomes one "file:line: message" entry in
/// *errors; the rubric is usable only when the function returns true.
bool loadRubric(const std::string& path, Rubric* rubric, std::vector<std::string>* errors);

/// Same from text (tests); `path` is used in messages only.
bool parseRubric(const std::string& text, const std::string& path, Rubric* rubric, std::vector<std::string>* errors);

}  // namespace clgrade
