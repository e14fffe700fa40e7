// The rubric as data: tasks, criteria with points, the cases each task runs, and settings.
// Instructors change the assignment by editing the XML file, never the C++.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "perf/sweep.h"
#include "perf/timer.h"
#include "tasks/case_spec.h"
#include "tasks/task_context.h"

namespace clgrade {

/// A step of a performance criterion: at least `ratio` times the reference's speed earns `points`.
struct SpeedLevel {
  double ratio = 0;
  double points = 0;
};

/// Points a student earns when every check listed passes; a performance criterion (non-empty
/// `kernels`) then earns the points of the highest speed level its kernels reach.
struct Criterion {
  std::string id;
  std::string title;
  double points = 0;
  std::vector<std::string> checks;  ///< check ids of the task; all must pass
  /// Checks named "id@visible" or "id@hidden": only those cases of the check count for this criterion
  /// (a technique criterion needs correct output in the course configuration, spec section 5).
  std::map<std::string, std::string> caseSets;
  std::vector<std::string> kernels;  ///< timed kernels whose speed against the reference counts
  std::vector<SpeedLevel> levels;    ///< ascending ratio
  /// A <deduction>: earns 0 when its checks pass and takes `points` away from the task when one
  /// fails (never below 0 for the task). It adds nothing to the task's maximum. One defect costs
  /// points in one place (spec section 5: stray writes are a check of their own).
  bool deduction = false;
  /// Who sees the criterion's test on Gradescope and when: "visible", "hidden", "after_due_date",
  /// "after_published"; empty: the task's, else clgrade's rule (report/gradescope.h).
  std::string visibility;
  int line = 0;
};

/// The case whose kernels are timed, at the size given here (0: the case's own); on a CPU device
/// the case's own size is used, since the figures are only indicative there.
struct PerformanceSpec {
  bool present = false;
  std::string caseId;
  int width = 0, height = 0;
  /// size_on_cpu="timing": a CPU device times at width x height too (its figures stay indicative;
  /// the output the timed launches leave is still checked there).
  bool timingSizeOnCpu = false;
  int line = 0;
};

/// The case rerun over RESULT_STEPS and group sizes: correctness at every point, times for the chart.
struct SweepSpec {
  bool present = false;
  std::string caseId;
  std::vector<int> steps;                  ///< set as both h_steps and v_steps
  std::vector<std::array<int, 2>> groups;  ///< set as both h_group and v_group
  int width = 0, height = 0;               ///< the timing size on a GPU (0: the case's own)
  int line = 0;
};

/// The case the simulator runs for the simulated checks: one of the task's cases, at its own size
/// (the shipped rubrics name a small graded case, so the simulator sees a size the kernel is graded
/// at: spec section 5b) or at a small size of its own (counts scale exactly with the number of
/// work-groups, and Oclgrind is slow).
struct AnalysisSpec {
  bool present = false;
  std::string caseId;
  int width = 0, height = 0;  ///< 0: the case's own
  int line = 0;
  /// A second case the technique is judged at (drawn="id"): the course configuration at a size and
  /// input drawn from the grade's hidden seed (grading/drawn_analysis.h adds it); empty: none.
  std::string drawnCaseId;
};

struct TaskRubric {
  std::string id;          ///< a task id of the registry: conv3x3, separable, bilateral, histogram
  std::string visibility;  ///< of its criteria that do not say their own (Criterion::visibility)
  std::vector<Criterion> criteria;
  std::vector<CaseSpec> cases;
  AnalysisSpec analysis;
  PerformanceSpec performance;
  SweepSpec sweep;
  int line = 0;
  double maxPoints() const;
  /// The analysis case: the named case with the analysis size, id "analysis". False without <analysis>.
  bool analysisCase(CaseSpec* spec) const;
  /// The drawn analysis case (AnalysisSpec::drawnCaseId) at its own size, id "analysis_drawn"; false
  /// when there is none.
  bool drawnAnalysisCase(CaseSpec* spec) const;
  /// The performance case, id "performance"; `gpu` false keeps the case's own size. False without <performance>.
  bool performanceCase(bool gpu, CaseSpec* spec) const;
  /// The named case, or nullptr.
  const CaseSpec* findCase(const std::string& id) const;
  /// Whether a criterion (or deduction) of the task names check `id`.
  bool needsCheck(const std::string& id) const;
};

struct Rubric {
  std::string id;
  std::string title;
  std::string path;
  std::string sha256;  ///< of the file, for the report
  std::string text;    ///< the file as it was read (rubricForTask)
  GradeSettings settings;
  PerfSettings perf;
  std::vector<TaskRubric> tasks;
  double maxPoints() const;
};

/// Reads and validates a rubric file. Every problem becomes one "file:line: message" entry in
/// *errors; the rubric is usable only when the function returns true.
bool loadRubric(const std::string& path, Rubric* rubric, std::vector<std::string>* errors);

/// loadRubric, its problems printed on stderr after "<who>: the rubric cannot be used:".
bool loadRubricOrComplain(const std::string& path, Rubric* rubric, const std::string& who = "clgrade");

/// Same from text (tests, a runner's request); `path` is used in messages only.
bool parseRubric(const std::string& text, const std::string& path, Rubric* rubric, std::vector<std::string>* errors);

/// The rubric's text with its settings and only the task `taskId`: what a task's runner is told
/// (protocol/runner_request.h), so that it sees no other task's cases. Empty when the text is not XML.
std::string rubricForTask(const Rubric& rubric, const std::string& taskId);
/// Same with the tasks `taskIds` (the profiler session's, which counts several tasks in one process).
std::string rubricForTasks(const Rubric& rubric, const std::vector<std::string>& taskIds);

}  // namespace clgrade
