// `clgrade batch`: every subfolder of a folder is one submission, graded with each task isolated
// (keeper/keeper.h), several submissions at once. Results go to <out>/<submission>/ atomically
// (graded in <out>/.partial/<submission>, then renamed into place with a completion marker), so a
// batch killed at any point and started again grades exactly what is missing, and once more a task
// whose runner was killed from outside (the out-of-memory killer); class.json is rewritten after
// every submission from the completed folders only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "batch/shard.h"
#include "batch/trusted_timer.h"
#include "cl/device.h"
#include "keeper/keeper.h"
#include "report/audience.h"
#include "report/overrides.h"
#include "roster/roster.h"
#include "rubric/rubric.h"

namespace clgrade {

struct BatchOptions {
  std::string submissionsDir;
  std::string outDir;
  int jobs = 0;                        ///< 0: defaultJobs(device, usableCores(), GPUs placed)
  /// --gpus: the NVIDIA GPUs the jobs go to, as positions among those this process sees (0 the
  /// first); empty: every one (batch/gpu_placement.h).
  std::vector<int> gpus;
  /// A folder of <out> whose completion marker (batch/completion_marker.h) matches is kept; these are
  /// graded again all the same: every submission, or those named (each must be one of the batch's).
  bool regradeAll = false;
  std::vector<std::string> regrade;
  /// Submissions whose overrides are applied to their current grade although they are stale
  /// (report/override_ledger.h): the instructor looked at the regrade and keeps the overrides.
  std::vector<std::string> confirmOverrides;
  std::vector<std::string> onlyTasks;  ///< empty: every task of the rubric
  KeeperSettings keeper;               ///< memoryLimitBytes 0: defaultTaskMemoryBytes(jobs)
  /// `--task-processes auto` on a GPU: keeper.tasksTogether holds only where tasksTogetherFor says so
  /// for the submissions this run grades (else it stands as given: `one` or `each`).
  bool tasksTogetherByClass = false;
  /// The seed of the hidden cases' inputs, one for the whole batch (keeper.hiddenSeed is set from
  /// it). Empty: the seed of the batch already started in outDir (its completion markers), so a
  /// resumed batch grades everyone on the same inputs; else one drawn (drawHiddenSeed).
  std::optional<uint64_t> hiddenSeed;
  std::vector<Override> overrides;  ///< the instructor's adjustments, merged into every output
  /// The course's students (roster/roster.h): kept in class.json, so the class outputs list every
  /// student, those who handed in nothing too, under their id; empty: no roster.
  Roster roster;
  /// Grade the class although an override names no submission of it (else a usage error: a typo).
  bool allowUnknownOverrides = false;
  /// Who the outputs are for (report/outputs.h): empty, both (report.html and report.student.html).
  std::optional<Audience> audience;
  /// The class's similarity report (similarity/measure.h: class.json's "similarity", summary.html's
  /// #similarity; never a grade) is measured at the end from each submission's kept sources/; false:
  /// not measured, and both say so. The sources are kept either way.
  bool similarity = true;
  /// Active: grade only the submissions of this shard (batch/shard.h). class.json then lists the
  /// shard and the names it was given (`clgrade merge` checks them); gradebook.csv and summary.html
  /// are not written, since they are the whole class's: the merge writes them, and only it can tell
  /// an override naming an unknown submission from one naming another shard's.
  Shard shard;
  /// The reference kernels, the naive ones and the copy roofline are timed once for the batch
  /// (batch/trusted_timer.h) and again when older than this many minutes (0: no age limit) or after
  /// this many submissions (0: no count limit; 1: before every grade).
  double retimeMinutes = kRetimeMinutes;
  int retimeEvery = kRetimeEvery;
};

struct BatchSummary {
  int submissions = 0;  ///< subfolders found (in shard mode: those of the shard)
  int alreadyDone = 0;  ///< complete from an earlier run (kept)
  int changed = 0;      ///< graded before, but their files changed since (resubmissions), graded again
  int staleOverrides = 0;  ///< overrides not applied: written for another grade of their submission
  int graded = 0;       ///< graded by this run
  int stopped = 0;      ///< graded, but some task timed out, crashed or hit a limit
  int notWritten = 0;   ///< graded, but the results could not be written
  int notGraded = 0;    ///< a machine fault kept a task from being graded: no total (exit 3)
  /// Class files (class.json, gradebook.csv, summary.html) and per-submission outputs rewritten at the
  /// end that could not be written: one message each, naming the file and why.
  std::vector<std::string> notWrittenFiles;
  double seconds = 0;
  std::string error;                             ///< why the batch could not run at all (empty when it ran)
  /// A fault of the machine found before the first submission (the tasks' sandbox cannot see the
  /// device or reach a path): nothing was graded (exit 3).
  std::string machineFault;
  std::vector<std::string> skipped, collisions;  ///< SubmissionList's messages, said at the start
};

/// Jobs that grade at once by default, given the `cores` the batch may use (usableCores) and the
/// `gpus` it places jobs on. On a CPU device, the cores (measured on 2 cores: grading is mostly
/// single-threaded compiling, CPU references and comparisons, so two jobs beat one; PoCL's kernels
/// share the cores). On GPUs, per GPU one job for every 4 of its share of the cores, at least 1 and at
/// most 4: a job's timed launches and counters sessions take turns on its GPU's locks, and the other
/// jobs' builds, correctness runs and CPU work fill those waits (docs/performance.md: 4 jobs on one
/// GPU and 16 cores 155.4 and 171.0 s where 2 took 168.4 and 174.0 s).
/// With `tasksTogether` (a submission's tasks in one process, its counters after them, a GPU batch's
/// default) a job runs one GPU process instead of 5: 3 jobs for every 4 cores of a GPU's share, at
/// most 16. And no more GPU jobs than `memoryBytes` of the machine (0: unknown) gives 3 GiB to each
/// runner (such a job counts as 2 runners).
int defaultJobs(const DeviceInfo& device, int cores, int gpus, uint64_t memoryBytes = 0, bool tasksTogether = false);

/// Whether `--task-processes auto` on a GPU puts each submission's tasks in one process: only where
/// the class left to grade would start more processes than the host has cores, a process a task and
/// one for the counters each (`toGrade` x (`tasks` + 1) > `cores`). The one process is there so that
/// many grades at once hold fewer GPU processes; a grade with the host nearly to itself (a
/// resubmission graded again, a handful of late ones) runs its tasks side by side instead. On an
/// H200 with 16 cores the reference alone took 16.5 and 17.5 s with its tasks in one process and
/// 10.7 and 10.9 s with a process a task; 7 submissions 21.2-22.9 s against 20.0-20.6 s
/// (docs/performance.md). The verdicts are the same either way.
bool tasksTogetherFor(size_t toGrade, size_t tasks, int cores);

/// How defaultJobs came to its figure, for the batch's first line ("4 per GPU: 16 cores").
std::string defaultJobsReason(const DeviceInfo& device, int cores, int gpus, uint64_t memoryBytes = 0,
                              bool tasksTogether = false);

/// A submission of a batch: its name in every output (class.json, the gradebook, its report folder,
/// the overrides), and its folder's name as the file system has it.
struct SubmissionName {
  std::string name, folder;
  bool operator==(const SubmissionName& o) const { return name == o.name && folder == o.folder; }
};

/// What a batch finds in its submissions folder.
struct SubmissionList {
  std::vector<SubmissionName> submissions;  ///< sorted by name
  /// Folders that are not graded, one message each ("'.git': skipped: a hidden folder ...").
  std::vector<std::string> skipped;
  /// Folder names that are one name once normalised, one message each naming them all.
  std::vector<std::string> collisions;
};

/// Whether `path` is graded as an archive submission: a file whose name ends like one (util/archive.h)
/// with a name before the suffix.
bool isArchiveSubmission(const std::string& path);

/// The submissions of `dir`: its subfolders (links to folders too) and archives (alice.zip, named by
/// its stem: "alice"; every other file is skipped, and listed), without `exclude` (the output
/// folder when it lies inside). A name is its folder's in Unicode Normalization Form C, so that
/// "Jose" + U+0301 and "José" typed elsewhere (an overrides file) are one student. Folders whose
/// names are the same once normalised keep their own names instead (nothing is merged or lost), and
/// a collision message names them; hidden folders (a name starting with '.') are skipped, and listed.
SubmissionList listSubmissions(const std::string& dir, const std::string& exclude);

/// Where a submission is staged while it is written (<out>/.partial/<id>): an id from its name that
/// no other name shares or extends (hex digits only, so "x" + ".old" can never be another's), and
/// that fits NAME_MAX whatever the name's length. `clgrade merge` stages its copies the same way.
std::string stagingId(const std::string& name);

/// Runs the batch; progress goes to stderr (one line per submission, or a redrawn line on a terminal).
BatchSummary runBatch(const Rubric& rubric, const DeviceEntry& device, const BatchOptions& options);

}  // namespace clgrade
