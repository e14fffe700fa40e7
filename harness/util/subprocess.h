// Running a child process with extra environment, a time limit, resource limits and its output in
// files: how clgrade isolates work that may hang or crash (a simulator run, each task of a grade).
#pragma once

#include <sys/types.h>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clgrade {

struct ProcessResult;

/// Limits set in the child with setrlimit before it starts (0: left as inherited).
struct ResourceLimits {
  /// RLIMIT_FSIZE: the largest file the child may write. SIGXFSZ is ignored in the child, so a
  /// write past the limit fails (EFBIG) instead of killing it.
  uint64_t fileSizeBytes = 0;
  /// RLIMIT_AS: the child's virtual address space. Only for CPU devices: GPU drivers (NVIDIA's
  /// OpenCL) reserve far more address space than they ever touch, so there the resident-memory
  /// watch of ProcessSpec::memoryLimitBytes is the limit.
  uint64_t addressSpaceBytes = 0;
  bool noCoreDumps = false;  ///< RLIMIT_CORE 0: a crashing driver leaves no multi-GB core file
  /// RLIMIT_NPROC: processes and threads of the child's uid (a fork bomb stops there). Only
  /// meaningful for a uid of the child's own (ProcessSpec::uid).
  uint64_t maxProcesses = 0;
};

/// What to run and under which limits.
struct ProcessSpec {
  std::vector<std::string> argv;           ///< argv[0] is the executable's path (no PATH search)
  std::map<std::string, std::string> env;  ///< added to (or replacing in) the current environment
  double timeoutSeconds = 0;               ///< wall clock; then the whole process group is killed (0: none)
  std::string stdoutPath, stderrPath;      ///< empty: /dev/null
  /// > 0: stdout and stderr go through pipes and only their first `outputLimitBytes` reach the
  /// files; the rest is read and counted (a kernel flooding printf costs no disk).
  size_t outputLimitBytes = 0;
  ResourceLimits limits;
  /// > 0: the child's resident memory is watched; above it the child is killed (memoryExceeded).
  uint64_t memoryLimitBytes = 0;
  /// Called about every 20 ms with the seconds since the start; a non-empty reason kills the child
  /// (stoppedBy = that reason): a phase-specific limit such as the build time.
  std::function<std::string(double seconds)> monitor;
  /// Asked about every 100 ms with the child's pid: true while the child waits for something other
  /// jobs hold (the timing lock, util/lock_waiters.h). That time does not count towards
  /// timeoutSeconds, up to `uncountedLimitSeconds` in all (so no child escapes its limit for good).
  std::function<bool(pid_t child)> waitingOnOthers;
  double uncountedLimitSeconds = 0;
  /// The child gets SIGKILL when the thread that started it dies (a batch killed with SIGKILL leaves
  /// no orphan writing into its output).
  bool dieWithParent = true;
  /// >= 0: the child drops to this uid and gid before exec; the keeper is root. Its one supplementary
  /// group is `supplementaryGid` (>= 0), else it has none.
  long uid = -1, gid = -1, supplementaryGid = -1;
  /// The child gets `env` only, nothing of the current environment.
  bool clearEnvironment = false;
  /// Descriptors the child keeps across exec (bwrap's --bind-fd); closed when the last copy of the
  /// spec goes.
  std::shared_ptr<const std::vector<int>> inheritFds;
  /// The memory watch sums every descendant (a sandbox's program runs below bwrap, not as the child).
  bool watchProcessTree = false;
  /// > 0 with watchProcessTree: the child is killed when its tree holds this many processes (a fork
  /// bomb; RLIMIT_NPROC alone leaves it spinning until the time limit).
  int maxTreeProcesses = 0;
  /// Kept by the spec for as long as it lives (a lock held while the child runs).
  std::shared_ptr<const void> heldWhileRunning;
  /// The child reports its program's death by signal N as exit code 128 + N (bwrap does): it is
  /// read back as that signal.
  bool signalsAsExitCodes = false;
  /// Control-group files (`cgroup.procs`) the child writes itself into before anything else, still
  /// as the keeper's user (sandbox/cgroup.h); a child that cannot join one ends with exit code 126
  /// and runs nothing: unbounded is never the fallback.
  std::vector<std::string> joinGroups;
  /// Called once the child was reaped, with what is known of its end (its group says whether its
  /// out-of-memory killer ended it).
  std::function<void(ProcessResult*)> afterEnd;
};

struct ProcessResult {
  bool started = false;
  bool timedOut = false;
  /// Timed out while it waited on another job's lock (ProcessSpec::waitingOnOthers) with its
  /// uncounted time (uncountedLimitSeconds) spent: the other job's hold ran its time out, not its own work.
  bool stoppedWaiting = false;
  bool memoryExceeded = false;    ///< killed for resident memory above ProcessSpec::memoryLimitBytes
  bool tooManyProcesses = false;  ///< killed at ProcessSpec::maxTreeProcesses processes
  std::string stoppedBy;          ///< the monitor's reason when it killed the child
  int exitCode = -1;              ///< when it exited normally
  int signal = 0;                 ///< when a signal ended it (SIGKILL after a time-out or a limit too)
  double seconds = 0;
  double waitedSeconds = 0;        ///< of `seconds`, waiting on other jobs (ProcessSpec::waitingOnOthers): not counted
  uint64_t peakResidentBytes = 0;  ///< the largest resident size seen (sampled)
  uint64_t stdoutBytes = 0, stderrBytes = 0;  ///< everything the child wrote, kept or not
  std::string error;                          ///< why it could not start

  bool ok() const {
    return started && !timedOut && !memoryExceeded && !tooManyProcesses && stoppedBy.empty() && signal == 0 &&
           exitCode == 0;
  }
  /// "exit code 3", "killed by signal 11 (SIGSEGV, Segmentation fault)", "timed out after 60 s".
  std::string describe() const;
};

/// Runs spec.argv with its limits and waits for it.
ProcessResult runProcess(const ProcessSpec& spec);

/// Runs argv[0] with argv, the current environment plus `env`, stdout and stderr into the given
/// files (empty: /dev/null). After `timeoutSeconds` the child's whole process group is killed.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                         double timeoutSeconds, const std::string& stdoutPath, const std::string& stderrPath);

/// "SIGSEGV" for 11, "signal 77" for one without a name.
std::string signalName(int signal);

/// The path of the running executable (/proc/self/exe).
std::string selfExecutable();

/// Physical memory of the machine in bytes (0 when unknown).
uint64_t physicalMemoryBytes();

/// The cores this process may run on: its CPU affinity (a Slurm job's or a container's share of the
/// node), else every core the machine has; at least 1.
int usableCores();

}  // namespace clgrade
