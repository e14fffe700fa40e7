// The simulator run behind the simulated checks: the task's host code runs the analysis case on
// Oclgrind with clgrade's counting plugin, in a child process (Oclgrind is slow, can abort, and
// takes its options from the environment), and the counters come back as a file.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checks/sanitizer.h"
#include "cl/runtime.h"
#include "counters/counters.h"
#include "model/hidden_seeds.h"
#include "rubric/rubric.h"

namespace clgrade {

struct AnalysisRun {
  enum class Outcome { Ran, Unavailable, Failed } outcome = Outcome::Failed;
  std::string message;  ///< why it is unavailable or failed
  std::string logPath;  ///< the simulator's output, relative to the report folder
  CounterReport counters;
  SanitizerLog sanitizer;  ///< what Oclgrind's checkers found
  double seconds = 0;
  /// The value checks of the analysis case as the simulator judged them (check id -> status and
  /// message): Oclgrind interprets the kernels, so a kernel cannot touch what its child reports.
  std::map<std::string, std::pair<Status, std::string>> outputs;
  std::map<std::string, std::string> findings;  ///< check id -> the finding of its failure (CaseOutcome::finding)
};

/// Runs `clgrade analyze` for one task in a child process (a device step of `rt`: recorded by a
/// runner, replayed by the keeper) and reads the log and counters it leaves.
/// `source` is the task's kernel file as the source policy read it (its includes expanded): the
/// child gets it and the rubric's part for the task as files, and reads neither the kernels folder
/// nor the rubric file.
/// `drawn`: the drawn analysis case (TaskRubric::drawnAnalysisCase), its files named "_drawn";
/// `seeds`: the grade's hidden seeds, so that a hidden case's inputs are the device's (none: golden).
AnalysisRun runAnalysis(const Runtime& rt, const std::string& toolsDir, const std::string& source, const Rubric& rubric,
                        const TaskRubric& task, const std::string& reportDir, bool drawn = false,
                        const std::optional<HiddenSeeds>& seeds = std::nullopt);

/// The folders a simulator or hardware run works with.
struct AnalysisFolders {
  std::string tools;    ///< clgrade, the plugin, the Oclgrind ICD folder
  std::string kernels;  ///< the submission (the profiler session's hwcount reads it)
  std::string source;   ///< the task's kernel file as the source policy read it: what the simulator runs
  std::string report;   ///< where evidence goes
  /// A grade's hidden seeds: the simulator's hidden cases get the inputs the device graded, and the
  /// drawn analysis case runs (spec 5c). None in a check: the golden inputs, no drawn case.
  std::optional<HiddenSeeds> hiddenSeeds;
};

/// The value checks whose results technique check `techniqueCheck` must get right (spec 5c): those its
/// criteria name beside it (tile_load: output; discontinuity_local_memory: discontinuity; local_memory:
/// local), every value check of the task where they name none. A wrong filter pass is not the
/// discontinuity kernels' technique's matter.
std::set<std::string> valuesOfTechnique(const Task& task, const TaskRubric& taskRubric,
                                        const std::string& techniqueCheck);

/// Spec 5c: whether the device computed wrong values at case `caseId` in one of `valueChecks`, with
/// `what` naming the check and its message. A technique counts at the drawn case only where not.
bool deviceWrongAt(const Task& task, const std::string& caseId, const std::set<std::string>& valueChecks,
                   const std::map<std::string, CheckResult>& checks, std::string* what);

/// Runs the simulator for a task with an <analysis> case: judges the simulated checks a criterion
/// needs (adding their outcomes to `checks`), applies the sanitizers' findings to the device checks,
/// and adds the simulated counts to `rows`.
void judgeWithSimulator(const Runtime& rt, const Task& task, const TaskRubric& taskRubric, const Rubric& rubric,
                        const AnalysisFolders& folders, std::map<std::string, CheckResult>* checks,
                        std::vector<CounterRow>* rows);

}  // namespace clgrade
