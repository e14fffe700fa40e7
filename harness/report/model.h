// The one result model every renderer reads (terminal table, report.json and the formats of
// reports/README.md: report.html, Gradescope, PrairieLearn, JUnit, the class gradebook and summary).
// Renderers format; they never score.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cl/device.h"
#include "perf/figures.h"
#include "perf/sweep.h"
#include "rubric/scoring.h"
#include "tasks/inputs.h"
#include "tasks/task_context.h"

namespace clgrade {

struct TaskReport {
  std::string id;
  std::string title;
  std::string file;     ///< file name in the kernels folder
  bool present = false; ///< the file was found and read
  std::string sha256;   ///< of the kernel file
  /// Files its #include directives expanded (relative to the kernels folder) -> their SHA-256.
  std::vector<std::pair<std::string, std::string>> includedFiles;
  std::string problem;  ///< why the task could not run at all (missing file, #include), empty otherwise
  double points = 0;
  double max = 0;
  std::vector<CriterionResult> criteria;
  std::vector<CheckResult> checks;
  std::vector<BuildRecord> builds;
  std::vector<CounterRow> counters;  ///< per kernel and provider (simulator, hardware), for people
  PerformanceReport performance;     ///< the rubric's <performance> case, when it has one
  SweepReport sweep;                 ///< the rubric's <sweep>, when it has one
};

struct GradeReport {
  std::string version;     ///< clgrade's
  std::string mode;        ///< "grade" (all cases) or "check" (visible cases only)
  /// How student code was contained while it ran: "bubblewrap: ..." or "none (...)".
  std::string sandbox;
  std::string kernelsDir;
  std::string startedAt;   ///< UTC, ISO 8601
  double seconds = 0;      ///< wall time of the whole grade
  std::string rubricId, rubricTitle, rubricPath, rubricSha256;
  GradeSettings settings;
  DeviceInfo device;
  std::vector<InputRecord> inputs;
  std::vector<TaskReport> tasks;
  double total = 0;
  double max = 0;

  /// True when every criterion that was measured passed (what `clgrade check` exits 0 on).
  bool allMeasuredPassed() const;
};

}  // namespace clgrade
