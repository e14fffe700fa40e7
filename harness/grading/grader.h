// Grading one kernels folder: rubric -> device -> every task's cases -> checks -> points -> report.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "checks/result.h"
#include "cl/runtime.h"
#include "report/model.h"
#include "rubric/rubric.h"
#include "tasks/inputs.h"

namespace clgrade {

/// A kernel that stopped an earlier grading process of the task (it hung, or the driver crashed on
/// it): the task is graded again without launching it, so that its other checks keep their results.
struct StoppedKernel {
  std::string kernel;         ///< "compute_histogram_local_memory"
  std::string caseId;         ///< the case it stopped in
  Status status = Status::Failed;
  std::string message;        ///< what stopped it, as the first process's report said
};

struct GradeOptions {
  std::string kernelsDir;
  std::string outDir;
  bool visibleOnly = false;  ///< the students' self-check: visible cases only
  int evidenceCasesPerCheck = 1;  ///< image files for the first N failing cases of a check (0: all)
  std::string toolsDir;           ///< clgrade, the Oclgrind plugin and ICD folder (empty: defaultToolsDir())
  std::string referenceKernelsDir;  ///< the instructor's kernels, timed for the ratio (empty: the source tree's)
  std::vector<std::string> onlyTasks;
  std::string timingLock;           ///< a file to flock while timing (parallel jobs on one GPU)  ///< grade only these task ids (empty: every task of the rubric)
  std::vector<StoppedKernel> stoppedKernels;  ///< not launched again (see StoppedKernel)
  /// Not empty: an earlier process of the task was stopped in its performance phase (why); the task
  /// is graded again without it. The swept checks get `performanceStoppedStatus`: failed or error
  /// when a kernel or a build of the sweep stopped it (the sweep checks correctness), not_measured
  /// when only the timing did.
  std::string performanceStopped;
  Status performanceStoppedStatus = Status::NotMeasured;
  /// Files of the stopped process (its messages, what its kernels printed), for the checks it stopped.
  std::vector<Evidence> stoppedEvidence;
  /// Generated inputs shared with other grades of the same submission (the keeper replays its tasks
  /// one after another); null: this grade makes its own.
  InputCache* inputs = nullptr;
  /// No evidence files (a runner: the keeper writes them from the record).
  bool discardEvidence = false;
  /// Called as each task starts (the CLI's watchdog uses it to name a task that never finishes).
  std::function<void(const std::string& taskId)> onTaskStart;
};

/// Grades `options.kernelsDir` by `rubric` on `runtime`, writing evidence under options.outDir,
/// and returns the report (also what a renderer needs). Never throws for bad kernels.
GradeReport gradeSubmission(const Runtime& runtime, const Rubric& rubric, const GradeOptions& options);

/// clgrade's version string.
std::string clgradeVersion();

}  // namespace clgrade
