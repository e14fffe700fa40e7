// The sandbox around every process that runs student code (a task's runner, the Oclgrind analysis,
// the NVIDIA counter replay under ncu), after the IOI judges' `isolate`: the keeper (this process)
// stays outside with its privileges; the program runs inside bubblewrap (`bwrap`) in its own user,
// PID, network, IPC and UTS namespaces, as an unprivileged uid, with a read-only view of the system
// libraries, one private writable scratch folder, a cleared environment and a process limit. Nothing
// it starts outlives it (a PID namespace dies with its first process). What it hands back is data in
// the scratch folder; the keeper reads that as untrusted bytes and judges it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "util/subprocess.h"

namespace clgrade {

/// A host path made visible inside the sandbox, at the same path.
struct SandboxMount {
  std::string path;
  bool writable = false;  ///< read-only unless set (a timing-lock file, say)
};

/// What one sandboxed process may see and use besides the system's libraries.
struct SandboxSpec {
  /// The host folder bound writable at the same path: the only place the program can write (also
  /// its /tmp and HOME). Made here, owned by the sandbox's uid.
  std::string scratch;
  std::vector<SandboxMount> mounts;
  /// PoCL's compiler cache kept by the keeper across the sandboxes of one submission: bound writable
  /// and given to the sandbox's uid while it runs, under an exclusive lock (`<cache>.lock`). When
  /// another sandbox holds it (the same folder graded twice at once), this one gets a private cache
  /// in its scratch folder instead. POCL_CACHE_DIR (and CUDA_CACHE_PATH, NVIDIA's JIT cache, below it)
  /// is set to whichever it got. Empty: a private one.
  std::string cache;
  /// The whole environment inside (nothing of the keeper's is passed on).
  std::map<std::string, std::string> env;
  /// Bind the NVIDIA device nodes, /sys and the CUDA/Nsight folders (a GPU run).
  bool gpu = false;
  /// Processes and threads the sandbox's uid may have at once (RLIMIT_NPROC); 0: no limit.
  int maxProcesses = 512;
  /// Processes (not threads) in the sandbox at which it is stopped: a grading run has a handful.
  int maxTreeProcesses = 64;
  /// The memory of its control group (sandbox/cgroup.h), tmpfs and shared memory included; 0: the
  /// process's resident-memory limit (ProcessSpec::memoryLimitBytes) as set when the sandbox is made.
  uint64_t memoryBytes = 0;
};

/// Whether sandboxes can be made on this machine, and why not.
struct SandboxSupport {
  bool available = false;
  std::string bwrap;   ///< the bwrap executable
  std::string reason;  ///< when not available: what is missing and what to do
  /// How the uid is chosen: "a uid of its own per sandbox" (the keeper is root) or "your own uid,
  /// seen as nobody inside" (the keeper is not root: processes count against your limit).
  std::string identity;
};

/// Looks for bwrap and runs one empty sandbox (once per process; the answer is kept).
const SandboxSupport& sandboxSupport();

/// A one-line description of how student code is contained, for the report: "bubblewrap: ..." or
/// "none (--no-sandbox)".
std::string sandboxDescription(bool sandboxed);

/// True when a sandbox started from this thread can reach `path` (every folder above it searchable by
/// the sandbox's uid); bwrap resolves a mount's path as that uid.
bool sandboxCanReach(const std::string& path);

/// The group that root's sandboxes have besides their own uid's (-1 where the keeper is not root,
/// whose sandboxes run as its own uid, or where the machine has a real group of that id): what only
/// clgrade's processes may open (the machine's timing locks, keeper/machine_timing_lock.h) is root's
/// and this group's, and no other user's.
long sandboxLockGroup();

/// Rewrites `process` to run its argv inside a sandbox made from `spec`: argv becomes bwrap's, the
/// environment is spec.env only, and the process drops to the sandbox's uid before bwrap starts.
/// False with `err` when the sandbox cannot be made (no bwrap, the scratch folder cannot be made).
bool sandboxProcess(const SandboxSpec& spec, ProcessSpec* process, std::string* err);

/// The environment OpenCL needs inside a sandbox: the ICD folder, PoCL's cache and HOME in the
/// scratch folder; `extra` added.
std::map<std::string, std::string> openclEnvironment(const std::string& scratch,
                                                     const std::map<std::string, std::string>& extra = {});

}  // namespace clgrade
