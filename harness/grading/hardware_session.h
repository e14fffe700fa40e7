// All of a submission's bank-conflict counters in one ncu session (issue 12): one `clgrade hwcount`
// process replays the analysis case of every task, each task's kernels renamed `<task>__<kernel>`,
// so the rows say whose they are. One ncu start costs about 2 s on an H100; four of them, taking
// turns on the profiler lock, made the longest path of a grade whose tasks run side by side.
// The keeper runs the session (student code inside the sandbox it is given) and reads the CSV.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "grading/hardware.h"
#include "util/subprocess.h"

namespace clgrade {

/// Runs a command that runs student code: where the keeper says (its sandbox), with a time limit,
/// its stdout and stderr into `logPath`.
using ProfiledRunner =
    std::function<ProcessResult(const std::vector<std::string>& argv, double timeoutSeconds, const std::string& logPath)>;

struct SessionRequest {
  std::string ncu;         ///< ncuFor(device)
  std::string clgrade;     ///< the executable whose `hwcount` ncu profiles
  std::string kernelsDir;
  std::string rubricPath;
  std::vector<std::string> tasks;  ///< those with an analysis case
  std::string workDir;     ///< where ncu and hwcount write (the sandbox's scratch folder, made by the runner)
  std::string logDir;      ///< where the keeper keeps the profiled process's output
  std::string reportDir;   ///< each task's ncu.csv and hardware.log go to evidence/<task>/ here
  double timeoutSeconds = 300;
};

/// The session's counts per task, each as the task's own run would have given them (evidence files
/// included). A session that fails as a whole (a kernel that never ends, a crash) is tried again
/// once per task, so that one task's kernel costs the others nothing.
std::map<std::string, HardwareRun> runHardwareSession(const SessionRequest& request, const ProfiledRunner& run);

/// The part of one session's counts and CSV that belongs to `task` (names without the prefix).
HardwareRun sessionShare(const std::vector<HardwareCounts>& all, const std::string& task);

}  // namespace clgrade
