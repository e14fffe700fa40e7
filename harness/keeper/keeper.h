// The trusted side of one submission (the keeper): each task of the rubric run by a runner in a
// sandbox of its own (runner/runner.h), under limits (wall clock, build time, resident memory,
// processes); the runner only runs the kernels and records what the device hands back
// (protocol/tape.h), and the keeper replays that tape through the same grading code, without
// touching the device, so every verdict is its own. A kernel that never ends, a compiler that runs
// for minutes or eats the machine's memory, a driver that crashes cost only that task; a task
// stopped in one kernel or in its performance phase is run once more without it (keeper/runner_end.h).
// What crosses the wall is listed in protocol/channels.h.
//
// SubmissionKeeper (keeper/submission_keeper.h) does the work with its collaborators; this header is
// what `grade`, `check` and `batch` call.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "cl/device.h"
#include "model/report.h"
#include "model/trusted_timings.h"
#include "rubric/rubric.h"
#include "store/course_store.h"
#include "tasks/inputs.h"

namespace clgrade {

struct TaskRun;

/// The limits and options of a submission's keeper and every runner it starts.
struct KeeperSettings {
  std::string clgrade;          ///< the executable the runners run (this one)
  std::string device = "auto";  ///< the --device spec, passed on unchanged
  /// CUDA_VISIBLE_DEVICES for every process this keeper starts (runners, the counters' session, the
  /// trusted timings): the one GPU of a batch's job (batch/gpu_placement.h); "": the environment's.
  std::string visibleGpus;
  double taskTimeoutSeconds = 300;
  /// --time-limit of one grade: no runner runs past it, so that a platform that kills the grade at
  /// its own limit still gets results (each runner's time limit is the smaller of taskTimeoutSeconds
  /// and the time left, runnerTimeoutSeconds); none: the task timeout alone.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  double buildTimeoutSeconds = 120;  ///< one clBuildProgram (the compiler) at most
  /// Resident memory of one runner; 0: defaultTaskMemoryBytes(1).
  uint64_t memoryLimitBytes = 0;
  /// RLIMIT_AS is set only on CPU devices (PoCL): GPU drivers such as NVIDIA's reserve tens of GB of
  /// virtual address space they never touch, so there the resident-memory watch is the only limit.
  bool cpuDevice = true;
  /// RLIMIT_FSIZE: the largest file a runner writes. Its record holds every buffer it read back: the
  /// separable task with its RESULT_STEPS sweep records about 300 MB.
  uint64_t fileSizeLimitBytes = uint64_t(2) << 30;
  /// The disk one runner may write: its scratch folder (its /tmp and HOME) and what its submission's
  /// PoCL cache grows by while it runs; a runner above it is stopped (checked every quarter second). A grading run writes a few
  /// hundred MB at most (the separable task's record); only a kernel's own native code writes more.
  uint64_t scratchQuotaBytes = uint64_t(4) << 30;
  size_t outputLimitBytes = size_t(1) << 20;  ///< a task's stdout (kernel printf) kept in the report folder
  int evidenceCases = 1;
  bool pfmEvidence = false;                       ///< GradeOptions::pfmEvidence
  uint64_t imageBudgetBytes = uint64_t(2) << 20;  ///< GradeOptions::imageBudgetBytes
  bool visibleOnly = false;                       ///< `check`: the visible cases only
  /// The seed of the hidden cases' inputs, the same for the runners and the keeper's replays.
  uint64_t hiddenSeed = kGoldenHiddenSeed;
  std::string timingLock;  ///< passed on as --timing-lock (parallel jobs on one GPU)
  /// Task runners of one submission at once. Above 1 and with no timingLock, the grade makes its own
  /// lock so that the runners' timings and profiler sessions take turns (util/timing_lock.h).
  int taskJobs = 1;
  /// The tasks' first runners in one process a submission, one after another (`clgrade run-tasks`),
  /// instead of a process a task; a task whose part does not end well, and every one after it, then
  /// runs in a process of its own, as it would have (protocol/runner_part.h). A batch on a GPU's
  /// default (`--task-processes`): NVIDIA's driver makes and ends every process's context under one
  /// lock of the whole host, so fewer processes a submission let the GPUs of a node work apart.
  bool tasksTogether = false;
  std::string toolsDir;  ///< CLGRADE_TOOLS_DIR for the runners (empty: inherited)
  /// The sandbox was probed for this run already (a batch probes once before its first submission,
  /// keeper/sandbox_probe.h): its grades do not probe again.
  bool sandboxProbed = false;
  /// Every runner runs in a bubblewrap sandbox (sandbox/sandbox.h). Off only by --no-sandbox;
  /// where no sandbox can be made and it is on, no task is graded.
  bool sandbox = true;
  /// Processes and threads one sandbox may have (RLIMIT_NPROC on its own uid).
  int sandboxProcesses = 512;
  /// The course's inputs and the CPU's results kept between grades (store/course_store.h): the
  /// keeper's replays read and write it, the runners read its inputs; none: everything made each time.
  CourseStore store;
  /// What a batch's keepers share (tasks/batch_share.h): the stored inputs and CPU results read once,
  /// the hidden inputs and CPU results made once; null: each grade reads and makes its own.
  std::shared_ptr<BatchShare> batchShare;
  /// The batch's figures of the trusted kernels (model/trusted_timings.h), asked once per submission
  /// as its grade starts and held until it ends; none (or null figures): each grade times them itself.
  std::function<ServedFigures()> trustedTimings;
  /// Without the batch's: the trusted figures a grade had timed are kept on the machine and serve the
  /// grades after it for kReuseTrustedMinutes (keeper/trusted_cache.h); `grade` and `check` set it.
  bool reuseTrustedFigures = false;
  /// Called as each task's runner starts (`run` null) and when it has ended (its run; the keeper's
  /// verdicts come later), from the thread that runs it: tasks side by side call it at once.
  std::function<void(const std::string& task, const TaskRun* run)> onTask;
};

/// A default resident-memory limit for one runner when `jobs` grade at once: three quarters of
/// the machine's memory shared by the jobs, at most 8 GiB, at least 1 GiB.
uint64_t defaultTaskMemoryBytes(int jobs);

/// The time limit of a runner started now: the task timeout, or less where the grade's deadline is
/// nearer (at least 1 s, so a runner started at the deadline still ends as stopped, not as a fault).
double runnerTimeoutSeconds(const KeeperSettings& s);

/// How many runners of one submission run at once with --task-jobs `taskJobs`: one per task at most
/// (the GPU default, "every task at once", is a large number, not the number of runners).
int runnersAtOnce(int taskJobs);

/// The address-space limit (RLIMIT_AS) matching a resident limit, on CPU devices: twice the resident
/// limit plus 4 GiB (PoCL's threads and LLVM reserve address space beyond what they touch;
/// every sample grades under 1 GiB of address space).
uint64_t addressSpaceLimitFor(uint64_t memoryLimitBytes);

/// How one task's runner ended, for the report and the batch's log.
struct TaskRun {
  std::string task;
  bool ok = false;  ///< its report was read
  /// "ok", "ok after a rerun" (its first process was stopped in one kernel or while timing; a second
  /// one left that out), "timed out", "memory", "build time", "signal SIGSEGV", "exit 3", ...
  std::string outcome;
  std::string message;  ///< the task's problem when it did not finish (or what stopped the first process)
  double seconds = 0;
  double waitedSeconds = 0;  ///< of `seconds`, waiting for other jobs' timings (not counted towards the limit)
  uint64_t peakResidentBytes = 0;
  uint64_t stdoutBytes = 0;  ///< what the kernels printed (kept: the first outputLimitBytes)
  /// A process of the task was stopped or crashed (a refused kernels folder is not a stop).
  bool stopped() const { return (!ok && outcome != "refused") || outcome == "ok after a rerun"; }
};

/// What a submission's grade produced.
struct SubmissionResult {
  GradeReport report;  ///< what report.json holds
  std::vector<TaskRun> runs;
};

/// Grades `kernelsDir` by `rubric`, each task (of `onlyTasks`, or all) in a sandboxed runner,
/// evidence under `outDir`; returns the merged report (not yet written). `kernelsProblem`, when not
/// empty, refuses every task with that message without starting a runner (a kernels/ folder that is
/// a link to outside the submission).
SubmissionResult keepSubmission(const Rubric& rubric, const DeviceEntry& device, const std::string& kernelsDir,
                                const std::string& outDir, const std::vector<std::string>& onlyTasks,
                                const KeeperSettings& settings, const std::string& kernelsProblem = "");

}  // namespace clgrade
