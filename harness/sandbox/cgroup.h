// A control group per sandbox, so that what one submission's code does cannot take what another
// needs: its memory bounded with everything it charges (tmpfs and shared memory included, which a
// resident-size watch never sees), its tasks (processes and threads) counted, and the CPU shared
// equally between sandboxes however many processes each starts. cgroup v2 where it is mounted with
// the memory controller for clgrade's own group, v1 otherwise (a machine that mounts both, with the
// controllers on v1, as this project's CI machine does); pids and cpu where they are there too.
// Making groups needs root (or a delegated v2 group); report.json's `sandbox` line says what is
// enforced, and what is not and why.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clgrade {

/// What one sandbox's group bounds.
struct CgroupLimits {
  uint64_t memoryBytes = 0;  ///< memory with page cache, tmpfs and shared memory (0: not bounded)
  int maxTasks = 0;          ///< processes and threads at once (0: not bounded)
};

/// Whether groups can be made here: the version, the controllers they get, the folders they go
/// under, or why not. Memory is required; tasks (pids) and the CPU share are enforced where their
/// controllers are there too, and the sandbox line says which are not.
struct CgroupSupport {
  bool available = false;
  int version = 0;
  std::vector<std::string> controllers;  ///< of "memory", "pids", "cpu": the ones enforced, memory first
  /// The folders the sandboxes' groups are made in: one for v2, one per controller for v1.
  std::vector<std::string> parents;
  std::string missing;  ///< controllers not enforced, and why ("" when all are)
  std::string reason;   ///< when not available
};

/// Looks once per process (the answer is kept): as root, v2 with the controllers enabled for
/// clgrade's group (enabling them where it may), else the v1 hierarchies of memory, pids and cpu.
const CgroupSupport& cgroupSupport();

/// What the groups enforce, for the sandbox line: "cgroup v1 per sandbox: memory (tmpfs and shared
/// memory included), tasks, an equal CPU share" (and what is not, and why), or "no cgroup: <why>".
std::string cgroupDescription();

/// The CPUs a CPU quota lends the groups in `folders` (a group's folder, then its parents'): the
/// least of cgroup v2's `cpu.max` ("400000 100000": 4) and v1's `cpu.cfs_quota_us` over
/// `cpu.cfs_period_us` found in them, rounded up; 0 where none is bounded or none can be read.
int cpuQuotaCoresOf(const std::vector<std::string>& folders);

/// cpuQuotaCoresOf this process's own groups, in every cgroup hierarchy with the CPU controller: a
/// container started with `--cpus 4` still shows every core of the host to sched_getaffinity (and
/// nproc), and `clgrade batch` counted its jobs from those.
int cpuQuotaCores();

class SandboxCgroup {
 public:
  /// Makes one sandbox's groups with `limits`; null with `err` when they cannot be made.
  static std::shared_ptr<SandboxCgroup> make(const CgroupLimits& limits, std::string* err);
  /// Kills whatever is still in the groups and removes them.
  ~SandboxCgroup();
  SandboxCgroup(const SandboxCgroup&) = delete;
  SandboxCgroup& operator=(const SandboxCgroup&) = delete;

  /// The files a process writes "0" into to join every group (ProcessSpec::joinGroups).
  std::vector<std::string> procsFiles() const;
  /// Whether the group's out-of-memory killer ended a process of it (its memory limit was reached).
  bool outOfMemory() const;
  /// The most memory the group held at once (0 when the kernel does not say).
  uint64_t peakBytes() const;

 private:
  SandboxCgroup(int version, std::vector<std::string> folders) : version_(version), folders_(std::move(folders)) {}
  int version_;
  std::vector<std::string> folders_;  ///< v2: one; v1: one per controller enforced, memory's first
};

}  // namespace clgrade
