// Grading one kernels folder: rubric -> device -> every task's cases -> checks -> points -> report.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cl/runtime.h"
#include "grading/hardware.h"
#include "intake/kernel_sources.h"
#include "model/report.h"
#include "model/status.h"
#include "model/trusted_timings.h"
#include "protocol/stop_info.h"
#include "rubric/rubric.h"
#include "tasks/inputs.h"

namespace clgrade {

struct GradeOptions {
  std::string kernelsDir;
  /// The submission's files as the keeper read them (intake/kernel_sources.h); null: read from
  /// kernelsDir by this grade.
  const KernelSources* sources = nullptr;
  std::string outDir;
  bool visibleOnly = false;       ///< the students' self-check: visible cases only
  int evidenceCasesPerCheck = 1;  ///< image files for the first N failing cases of a check (0: all)
  bool pfmEvidence = false;       ///< PFM difference files beside the PNGs (checks/evidence.h)
  /// PNG bytes one submission's evidence may take (0: no limit); each task of the rubric gets an equal
  /// share, so the same files are kept whether tasks are graded together, apart or side by side.
  uint64_t imageBudgetBytes = uint64_t(2) << 20;
  std::string toolsDir;                ///< clgrade, the Oclgrind plugin and ICD folder (empty: toolsFolder())
  std::string referenceKernelsDir;     ///< the instructor's kernels, timed for the ratio (empty: the source tree's)
  std::vector<std::string> onlyTasks;  ///< grade only these task ids (empty: every task of the rubric)
  std::string timingLock;              ///< a file to flock while timing (parallel jobs on one GPU)
  /// What stopped an earlier runner of the task (the rerun protocol): left out this time.
  StopInfo stopped;
  /// Generated inputs shared with other grades of the same submission (the keeper replays its tasks
  /// one after another); null: this grade makes its own, with `hiddenSeed` and `store`.
  InputCache* inputs = nullptr;
  /// Where this grade's own inputs are read from (and written to, if writable): a runner's read-only
  /// view of the keeper's store (store/course_store.h); none: all made here.
  CourseStore store;
  /// The seed of the hidden cases' inputs when this grade makes its own (tasks/inputs.h). The CLI
  /// draws one per grade and batch; the library's default is the documented golden seed.
  uint64_t hiddenSeed = kGoldenHiddenSeed;
  /// A runner's grade: the seeds the keeper derived from its run's seed (tasks/inputs.h), used
  /// instead of `hiddenSeed`, which the runner is never given (spec section 5c).
  std::optional<HiddenSeeds> hiddenSeeds;
  /// The bank-conflict counters were read by the submission's one profiler session (the keeper's,
  /// keeper/hardware_session.h): no ncu is started for them here. A replay gets the task's share from
  /// `hardware`, called when the counters are judged (it waits for the session); a runner, which
  /// judges nothing, none.
  bool hardwareElsewhere = false;
  std::function<HardwareRun()> hardware;
  /// The batch's figures of the trusted kernels (reference, naive, copy roofline), timed once for
  /// many grades (model/trusted_timings.h); null: timed in this grade.
  std::shared_ptr<const TrustedTimings> trustedTimings;
  /// Past the sandbox wall the reference and naive kernels are timed by the keeper's trusted process
  /// (keeper/trusted_child.h), never where student code runs (spec section 5c): a runner
  /// (`trustedElsewhere`) times neither and holds neither; a replay waits for their figures through
  /// `trustedBeside` (null with the reason when there are none). Both still time the copy.
  bool trustedElsewhere = false;
  std::function<std::shared_ptr<const TrustedTimings>(std::string* problem)> trustedBeside;
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

/// A report with no task yet: clgrade's version, the mode, the rubric, its settings and the device.
GradeReport reportHeader(const Rubric& rubric, const DeviceInfo& device, const std::string& kernelsDir,
                         bool visibleOnly);

/// The report entry of a task that did not finish or could not start: every check of the task with
/// `status` and `message` (one outcome in `caseId` when known, "(task)" otherwise, with `evidence`),
/// the criteria scored from them (0 points), the file's presence and hash as the source policy read it.
TaskReport unfinishedTask(const TaskRubric& taskRubric, const KernelSources& sources, Status status,
                          const std::string& message, const std::string& caseId = "",
                          const std::vector<Evidence>& evidence = {});

}  // namespace clgrade
