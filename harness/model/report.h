// The one result model every renderer reads (terminal table, report.json and the formats of
// reports/README.md: report.html, Gradescope, PrairieLearn, JUnit, the class gradebook and summary).
// Plain data with no OpenCL (a CMake check keeps it so: cmake/no_opencl): the keeper builds it,
// one codec (model/report_json.h) writes and reads report.json, renderers format it; none scores.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/device_info.h"
#include "model/figures.h"
#include "model/settings.h"
#include "model/status.h"

namespace clgrade {

/// What a criterion earned.
struct CriterionResult {
  std::string id;
  std::string title;
  double points = 0;
  double max = 0;
  /// Below 0 for a deduction (a rubric <deduction>): the most it takes away. A deduction has
  /// max 0 and earns `min` when its checks fail (spec section 5: stray writes cost a little).
  double min = 0;
  Status status = Status::NotMeasured;
  std::string message;
  std::vector<std::string> checks;
  std::vector<Evidence> evidence;  ///< of the failing checks' cases
  /// The rubric's visibility="..." of the criterion (or its task): who sees it on Gradescope, and
  /// when; empty: the renderer's rule.
  std::string visibility;
  /// An instructor's override (report/overrides.h): `points` is then the instructor's, `status` and
  /// `message` stay what was measured.
  bool overridden = false;
  double originalPoints = 0;  ///< the measured points, before the override
  std::string overrideComment;
  std::string overrideAuthor;
};

/// One build of the task's file, as the report lists it.
struct BuildRecord {
  std::string options;
  bool ok = false;
  std::string error;
  std::string logPath;  ///< relative to the report folder
  std::string log;
  bool hidden = false;  ///< built for hidden cases only: its options are theirs (the student sees none)
};

/// One kernel's figures from one provider, as a report lists them side by side.
struct CounterRow {
  std::string kernel;
  std::string provider;  ///< "simulated (Oclgrind, 32 banks of 4 bytes, warps of 32)", "hardware (ncu, ...)"
  std::vector<std::pair<std::string, double>> values;  ///< in display order
};

/// A generated input as the report lists it, for reproducibility.
struct InputRecord {
  std::string name;  ///< "photo_780x575", "scene_1280x720.normals", ...
  int width = 0, height = 0, channels = 0;
  std::string sha256;  ///< of the PFM bytes
};

/// A report's inputs in the order it lists them: by name. Threads (a grade's tasks, the inputs
/// prepared ahead) make them in an order that is not the same from one grade to the next.
inline void sortInputsByName(std::vector<InputRecord>* inputs) {
  std::sort(inputs->begin(), inputs->end(), [](const InputRecord& a, const InputRecord& b) { return a.name < b.name; });
}

/// Lines of a submitted file that a finding points at (a compiler error, a race, a bank conflict),
/// quoted so that a person sees the code without opening the file.
struct SourceQuote {
  std::string file;   ///< relative to the kernels folder (an #include'd file by its own name)
  int line = 0;       ///< the line pointed at
  int firstLine = 0;  ///< the number of lines[0]
  std::vector<std::string> lines;
  std::string why;  ///< what points here: "build: error: expected ';'", "bank_conflicts", ...
};

/// How the process that ran a task's kernels (its runner, in the sandbox) ended; isolated grades only.
struct ProcessRecord {
  bool recorded = false;  ///< false: the task was graded in one process (--in-process), nothing to say
  /// "ok", "ok after a rerun", "timed out", "memory", "build time", "signal SIGSEGV", "refused", ...
  std::string outcome;
  double seconds = 0;
  /// Of `seconds`, waiting while other grading jobs timed on the device (not counted towards the
  /// task's time limit).
  double waitedSeconds = 0;
  /// What the keeper's replay of the record (the verdicts, CPU references, evidence) took after the
  /// runner ended: it follows the record while the runner writes it, so this is only its tail.
  double replaySeconds = 0;
  double peakMemoryMiB = 0;
  std::string kernelOutput;  ///< what the kernels printed: a file relative to the report folder ("" none)
  uint64_t kernelOutputBytes = 0;
  bool kernelOutputTruncated = false;  ///< more than the output limit: the file holds the start
  /// Run as a part of the submission's one process for its tasks (`clgrade run-tasks`): `seconds`
  /// are the part's, `peakMemoryMiB` that process's peak up to the part's end.
  bool sharedProcess = false;
  /// Why a task that was to run in that process ran in one of its own instead ("" otherwise): a part
  /// of it, or of a task before it, that did not end well or left the process unfit.
  std::string ranAloneBecause;
};

/// The wall time of one phase of a task's grading ("cases", "simulator", "counters", "sweep",
/// "timing"), as the process that ran the kernels measured it, and what of it went to kinds of work
/// ("builds", "inputs", "input hashes", "cpu reference", "stored reads", "stored writes", "timed
/// launches"; they may overlap: a CPU reference may generate its inputs). Figures for people (`clgrade profile`):
/// nothing is graded on them.
struct PhaseTime {
  std::string name;
  double seconds = 0;
  std::vector<std::pair<std::string, double>> within;

  /// The seconds of `work` within the phase (0 when none).
  double of(const std::string& work) const;
};

/// A second runner for a task whose first one was stopped in one kernel or while timing: it left
/// that kernel (or the performance phase) out so that the other checks keep what they earn.
struct RerunRecord {
  bool ran = false;
  std::string firstOutcome, firstMessage;  ///< how the first runner was stopped
  std::string leftOut;                     ///< "kernel compute_histogram", "the performance phase"
  /// How the rerun ended when it was stopped too (empty when it finished).
  std::string outcome, message;
};

struct TaskReport {
  std::string id;
  std::string title;
  std::string file;      ///< file name in the kernels folder
  bool present = false;  ///< the file was found and read
  std::string sha256;    ///< of the kernel file
  /// Files its #include directives expanded (relative to the kernels folder) -> their SHA-256.
  std::vector<std::pair<std::string, std::string>> includedFiles;
  std::string problem;  ///< why the task could not run at all (missing file, #include), empty otherwise
  /// Why the grading machine, not the submission, kept the task from being graded (its runner could
  /// not start, load or open the device before any of the task's code ran): empty when it was graded.
  /// A task with one has no grade: `grade` and `check` exit 3, a batch writes no total for it.
  std::string machineFault;
  double points = 0;
  double max = 0;
  std::vector<CriterionResult> criteria;
  std::vector<CheckResult> checks;
  std::vector<BuildRecord> builds;
  std::vector<SourceQuote> sourceQuotes;  ///< the lines the failures point at, with some around them
  std::vector<CounterRow> counters;       ///< per kernel and provider (simulator, hardware), for people
  PerformanceReport performance;          ///< the rubric's <performance> case, when it has one
  SweepReport sweep;                      ///< the rubric's <sweep>, when it has one
  ProcessRecord process;
  RerunRecord rerun;
  std::vector<PhaseTime> phases;  ///< in the order they ran

  /// `points` from the criteria: their sum, never below 0 (deductions take away what the task
  /// earned, not points of other tasks).
  void sumPoints();
};

struct GradeReport {
  std::string version;  ///< clgrade's
  std::string mode;     ///< "grade" (all cases) or "check" (visible cases only)
  /// How student code was contained while it ran: "bubblewrap: ..." or "none (...)".
  std::string sandbox;
  std::string kernelsDir;
  std::string startedAt;  ///< UTC, ISO 8601
  double seconds = 0;     ///< wall time of the whole grade
  std::string rubricId, rubricTitle, rubricPath, rubricSha256;
  GradeSettings settings;
  DeviceInfo device;
  std::vector<InputRecord> inputs;
  /// The seed the hidden cases' inputs were made from (`grade` only; never in a student-facing output).
  std::optional<uint64_t> hiddenSeed;
  std::vector<TaskReport> tasks;
  double total = 0;
  double max = 0;
  /// What the student and the instructor should know about how the submission was taken in, that
  /// costs no points and refuses nothing (a task's `problem` does): files of an archive left out, .cl
  /// files beside a kernels/ folder that were not graded. Each a line of text; capped by the caller.
  std::vector<std::string> notices;

  /// The total and the maximum from the tasks.
  void sumPoints();
  /// True when every criterion that was measured passed (what `clgrade check` exits 0 on).
  bool allMeasuredPassed() const;
  /// "task: why" of the first task the grading machine kept from being graded; empty when none.
  std::string machineFault() const;
};

}  // namespace clgrade
