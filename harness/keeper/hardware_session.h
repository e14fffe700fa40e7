// All of a submission's hardware counters in one session (issue 12), run by the keeper in one
// sandbox (`clgrade hwsession`): one `clgrade hwcount` process replays the analysis case of every
// task through CUDA, each task's kernels named `<task>__<kernel>` so that the rows say whose they
// are, and the histogram's atomics are counted in the same replay (a copy of the launch with a
// counter before each atomic, counters/nvidia/ptx_atomics.h). Who counts the shared accesses and
// global loads: by default the replay's own PTX counters (counters/nvidia/ptx_accesses.h, issue 29),
// with no profiler and so no turn to take on the GPU; ncu (under the profiler lock, one session at a
// time per GPU) where they cannot count a kernel, or where CLGRADE_COUNTERS says so. The runners
// start no session of their own. The keeper reads what the sandbox leaves (CSV and atomics records)
// as untrusted.
#pragma once

#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "grading/hardware.h"
#include "model/hidden_seeds.h"
#include "model/report.h"
#include "rubric/rubric.h"
#include "util/subprocess.h"

namespace clgrade {

/// Runs a command that runs student code: where the keeper says (its sandbox), with a time limit,
/// its stdout and stderr into `logPath`.
using ProfiledRunner = std::function<ProcessResult(const std::vector<std::string>& argv, double timeoutSeconds,
                                                   const std::string& logPath)>;

struct SessionRequest {
  std::string ncu;      ///< ncuFor(device); "" where there is none (the PTX counters need none)
  std::string clgrade;  ///< the executable whose `hwcount` ncu profiles
  std::string kernelsDir;
  std::string rubricPath;
  std::vector<std::string> tasks;  ///< those with an analysis case
  /// Task -> the kernels whose atomics its rubric needs counted per work-item (atomicsKernelsToCount),
  /// in the counters' replay (hwcount --atomics).
  std::map<std::string, std::vector<std::string>> atomics;
  /// Task -> the kernels whose counters its rules read (countersReadBy; empty: all of the task's):
  /// only those are profiled, and a task absent from it is replayed for its atomics alone. Unset:
  /// every task's kernels are profiled.
  std::optional<std::map<std::string, std::vector<std::string>>> profiled;
  std::string workDir;    ///< where ncu and hwcount write (the sandbox's scratch folder, made by the runner)
  std::string logDir;     ///< where the keeper keeps the profiled process's output
  std::string reportDir;  ///< each task's ncu.csv and hardware.log go to evidence/<task>/ here
  double timeoutSeconds = 300;
  /// A grade's hidden seeds: each task's drawn analysis case is counted too (a check has none).
  std::optional<HiddenSeeds> seeds;
  /// Who counts (sessionCounters()): "ptx", the replay's PTX counters, with no profiler and so no
  /// turn to take (ncu, under the profiler lock, where they cannot count a kernel); "ncu"; "cupti".
  std::string counters = "ptx";
  /// The lock a profiler (ncu, CUPTI) holds while it counts: one session at a time on the GPU.
  std::string profilerLock;
};

/// Who counts a session: CLGRADE_COUNTERS=ncu or cupti where set, else "ptx".
std::string sessionCounters();

/// The session's counts per task, each as the task's own run would have given them (evidence files
/// included). A session that fails as a whole (a kernel that never ends, a crash) is tried again
/// once per task, so that one task's kernel costs the others nothing.
std::map<std::string, HardwareRun> runHardwareSession(const SessionRequest& request, const ProfiledRunner& run);

/// runHardwareSession on a thread of its own, beside the runners; a session counted by a profiler
/// holds the profiler lock of `timingLock` (one at a time on the GPU: a batch's other jobs have theirs).
std::shared_future<std::map<std::string, HardwareRun>> startHardwareSession(const SessionRequest& request,
                                                                            ProfiledRunner run,
                                                                            const std::string& timingLock);

/// A task whose runner ran well and whose technique criterion was left unmeasured because its
/// counters failed for the machine's reasons (HardwareRun::machineFault: no simulator judged it
/// either) is not graded: its
/// TaskReport::machineFault says why, and a batch grades it again (issue 27, item 3).
void markUncountedTechnique(const Rubric& rubric, const std::map<std::string, HardwareRun>& counted,
                            GradeReport* report);

/// The command line of a session over `tasks` (`clgrade hwsession ...`), and where its output goes.
std::vector<std::string> sessionArgv(const SessionRequest& request, const std::vector<std::string>& tasks);
std::string sessionLogPath(const SessionRequest& request, const std::vector<std::string>& tasks);

/// A session run by another process than its own: the submission's runner of several tasks, after
/// their parts (RunnerLauncher::runTogether's SessionLaunch). Thread-safe.
class ServedSession {
 public:
  /// `workDir`: the session's --out; `outputPath`: where the other process leaves its output.
  ServedSession(std::vector<std::string> argv, std::string workDir, std::string outputPath);
  const std::vector<std::string>& argv() const { return argv_; }
  const std::string& outputPath() const { return outputPath_; }
  /// How it ended (nullopt: it did not run or did not end) and the folder of the files it left in
  /// its --out; the first call counts.
  void end(std::optional<ProcessResult> p, const std::string& files);
  /// Its end, once known: what ran its run reads it, moving its files to `workDir` first.
  std::optional<ProcessResult> takeEnd(const std::string& logPath) const;

 private:
  struct End {
    std::optional<ProcessResult> process;
    std::string files;
  };
  std::vector<std::string> argv_;
  std::string workDir_, outputPath_;
  std::mutex mutex_;
  bool said_ = false;
  std::promise<End> promise_;
  std::shared_future<End> ended_;
};

/// Runs the session `served` was made for (the same command line, the first run asked) as it ended
/// there, its files moved to its --out and its output to the run's log (after the run has cleared
/// both of an earlier session's); runs it with `own` where it did not end, and every other session.
ProfiledRunner servedFirst(std::shared_ptr<ServedSession> served, ProfiledRunner own);

/// The part of one session's counts and CSV that belongs to `task` (names without the prefix).
HardwareRun sessionShare(const std::vector<HardwareCounts>& all, const std::string& task);

}  // namespace clgrade
