// The sandbox side of the wall: every program clgrade runs inside a sandbox because it runs student
// code. Each reads what the keeper handed it (protocol/channels.h), runs the kernels on a device and
// hands bytes back; none decides a verdict. The CLI's internal commands only parse their arguments
// and call these.
//   run-task   a task's runner: request in, recording runtime, device tape out (run_task.cpp)
//   run-tasks  several tasks' runners one after another in one process (run_task.cpp)
//   analyze    a task's analysis case on Oclgrind, started by a runner or a replay (analyze.cpp)
//   hwcount    the analysis case replayed through CUDA, profiled by ncu (hwcount.cpp)
//   hwsession  a submission's ncu counters and its atomics counts, in the keeper's sandbox (profiler_session.cpp)
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cl/runtime.h"
#include "model/hidden_seeds.h"
#include "model/report.h"
#include "rubric/rubric.h"

namespace clgrade {

class Task;

/// `clgrade run-task REQUEST`: the one task of the request (protocol/runner_request.h) graded on the
/// device with every device step recorded on the request's tape; its verdicts are thrown away (the
/// keeper replays the tape and judges). Nothing goes to stdout, which holds what the kernels print.
/// Returns a runner exit code (protocol/channels.h).
int runTask(const std::string& requestPath);

/// `clgrade run-tasks REQUEST...`: the tasks of several requests (one submission's), one after
/// another in this one process and one context, each as run-task would grade it: its tape, its
/// progress file, and in the folder of its tape what its kernels printed, its messages and how it
/// ended (protocol/runner_part.h). Stops at a part that does not end well, and after one whose
/// failed device steps may leave the context unfit (partLeavesProcessFit). A batch on a GPU starts
/// one process a submission instead of one a task: NVIDIA's driver makes and ends every process's
/// context under one lock of the whole host (docs/performance.md). Returns the last part's code.
///
/// `session`: the submission's counters session (hwsession's arguments) as a last part, in the same
/// context (profilerSessionInProcess): its output (stdout and stderr in one file) and its end in its
/// folder, as a part's (channel::kSessionOutput, kPartEnded). One GPU process a submission instead of two.
struct SessionPart;
int runTasks(const std::vector<std::string>& requestPaths, const SessionPart* session = nullptr);

/// What a child run of a task's analysis case needs (`clgrade analyze` and `clgrade hwcount`).
struct AnalysisInput {
  const Task* task = nullptr;
  CaseSpec spec;       ///< the analysis case
  std::string source;  ///< the task's kernel file
};

/// Finds the task and its analysis case in `rubric` (`drawn`: its drawn analysis case); false with a
/// message.
bool analysisCase(const Rubric& rubric, const std::string& taskId, AnalysisInput* in, std::string* err,
                  bool drawn = false);

/// The same, with the task's file read from `kernelsDir` under the source policy (hwcount, in the
/// profiler session's sandbox).
bool analysisInput(const std::string& kernelsDir, const Rubric& rubric, const std::string& taskId, AnalysisInput* in,
                   std::string* err);

/// Runs the analysis case on `runtime`, evidence under `evidenceDir`; the outcomes go to stderr,
/// which the parent keeps as the run's log, and are returned by check id.
/// `seeds`: the grade's, so that a hidden case's inputs are the ones the device graded (spec 5c);
/// nullptr: the golden seed's (a check, which runs no hidden case on the device).
std::map<std::string, CaseOutcome> runAnalysisCase(const Runtime& runtime, const Rubric& rubric,
                                                   const AnalysisInput& in, const std::string& evidenceDir,
                                                   const HiddenSeeds* seeds = nullptr);

/// The child's side (`clgrade analyze`): runs the task's analysis case on the Oclgrind device, from
/// the files the keeper wrote into its sandbox: the task's kernel file as the keeper's source policy
/// read it (`sourcePath`) and the rubric's part for the task (`rubricPath`). Returns a process exit code.
int analyzeInChild(const std::string& sourcePath, const std::string& rubricPath, const std::string& taskId,
                   const std::string& reportDir, bool drawn = false,
                   const std::optional<HiddenSeeds>& seeds = std::nullopt);

/// `clgrade hwcount` of several tasks in one process (one profiler session): each task's kernels run
/// as `<task>__<kernel>` (PtxReplay::setEntryPrefix); one task alone runs them under their own names
/// unless `prefixed` (a session whose tasks run in processes of their own merges their rows).
/// `seeds` (a grade's): each task's drawn analysis case as well, on those hidden inputs, its kernels
/// named drawn_<task>__<kernel>. `atomics` ("task:kernel"): before the first replay of each such
/// kernel, a counted copy of the launch (PtxReplay::countAtomicsOf), its record in
/// atomicsRecordPath(reportDir, task, kernel) (".drawn" after the kernel at the drawn case).
/// `counting`: who counts the launches' shared accesses and global loads.
///
/// Who counts in hwcount: from outside (ncu, the default: `csv` empty), or the replay itself,
/// writing `csv` in ncu's CSV: through CUPTI (kHwcountNoCupti before anything ran where it cannot),
/// or by its PTX counters (counters/nvidia/ptx_accesses.h) for the kernels `profile` names
/// ("task" or "task:kernel", as hwsession's --profile; empty: every kernel).
/// `copiesOnly`: no profiler watches the replay (the PTX counters, or atomics alone), so only the
/// counted copies of launches run through CUDA (PtxReplay::setReplayLaunches).
struct HwcountCounting {
  enum class How { Outside, Cupti, Ptx } how = How::Outside;
  std::string csv;
  std::vector<std::string> profile;
  bool copiesOnly = false;
};

/// `shared`: the context and queue of the process's tasks (run-tasks), instead of a device opened here.
int hwcountInChild(const std::string& kernelsDir, const Rubric& rubric, const std::vector<std::string>& taskIds,
                   const std::string& reportDir, bool prefixed, const std::optional<HiddenSeeds>& seeds,
                   const std::vector<std::string>& atomics, const HwcountCounting& counting,
                   const Runtime* shared = nullptr);
/// hwcount's exit code when CUPTI cannot count in its process (no libcupti, too old, no permission).
constexpr int kHwcountNoCupti = 5;

/// What `clgrade hwsession` is asked for (keeper/hardware_session.h's SessionRequest, as arguments).
struct ProfilerSessionArgs {
  std::string ncu, clgrade, kernelsDir, rubricPath;
  std::vector<std::string> tasks;
  std::vector<std::string> atomics;  ///< "task:kernel": counted per work-item in the same replay
  /// "task" or "task:kernel": the kernels whose counters are read; empty: every task's kernels.
  std::vector<std::string> profile;
  bool profileNone = false;  ///< no counters at all: the replay counts the atomics alone, without ncu
  std::string workDir, csvPath;
  double timeoutSeconds = 300;
  std::optional<HiddenSeeds> seeds;  ///< a grade's: the drawn analysis cases too
  /// Who counts: "ncu"; "cupti" (the replay itself through CUPTI, ncu where it cannot); "ptx" (the
  /// replay's PTX counters, no profiler: kHwcountNotCounted where they cannot, for the keeper to
  /// count with ncu under the profiler lock).
  std::string counters = "ncu";
};

/// The sandboxed side (`clgrade hwsession`): the counters of the kernels asked for, written to
/// `csvPath` in ncu's CSV: under ncu, or by the replay itself (`counters`); in the same replay the
/// atomics of `atomics` counted, their records in atomicsRecordPath(workDir, task, kernel); `seeds`: each task's drawn analysis case too
/// (hwcountInChild). Prints the counters' output; returns an exit code (the counters' run: 0 when it
/// ended well).
int profilerSessionInChild(const ProfilerSessionArgs& a);

/// The same session in this process, on `shared` (the context of run-tasks's parts) instead of a
/// `clgrade hwcount` of its own: only where no profiler watches (the PTX counters, or atomics
/// alone); any other exits kSessionNeedsItsOwnProcess, having run nothing.
int profilerSessionInProcess(const ProfilerSessionArgs& a, const Runtime& shared);
constexpr int kSessionNeedsItsOwnProcess = 7;

/// A counters session run by run-tasks after its tasks' parts; its output and end in `folder`.
struct SessionPart {
  std::string folder;
  ProfilerSessionArgs args;
};

}  // namespace clgrade
