// The real runner launch (keeper/runner_launcher.h): `clgrade run-task REQUEST` in a bubblewrap
// sandbox of its own (what it sees: the system's libraries, clgrade and its tools, its request, the
// reference and naive kernels and the store's inputs, read-only; the timing locks; its scratch
// folder, the only place it writes; not the kernels folder nor the rubric file, whose parts it needs
// are in its request), under the keeper's limits (wall
// clock without the time it waits for other jobs' timings, build time from its progress file,
// resident memory, address space on CPU devices, file size, processes, what it prints).
#pragma once

#include <string>
#include <vector>

#include "keeper/hardware_session.h"
#include "keeper/keeper.h"
#include "keeper/runner_launcher.h"
#include "util/subprocess.h"

namespace clgrade {

/// Where the sandboxed processes of one submission run, and under which limits.
struct RunnerPlace {
  const KeeperSettings* settings = nullptr;  ///< memoryLimitBytes and timingLock as applied
  std::string kernelsDir;                    ///< the submission's (names its compiler caches; never mounted)
};

/// The store's inputs folder as the runners see it: read-only, at the same path; "" when they make
/// their own (no store; a folder their uid cannot reach would be copied, gigabytes, for every runner).
std::string runnersStore(const KeeperSettings& settings);

/// `argv` in a sandbox of `place` with `scratch` as its one writable folder (cleared first), under
/// the limits every runner gets (time, memory, files, output); `inputs`: files or folders the keeper
/// wrote that it also sees, read-only: a runner's request, the profiler session's
/// copies of its tasks' files and rubric part. It never sees the kernels folder nor the
/// rubric file. False with `err` when no sandbox can be made. Without a sandbox (--no-sandbox):
/// `argv` as it is, `scratch` made. `cacheRole` names its compiler cache among the submission's
/// (submissionCacheDir): a task's id for its runner, "hardware" for the profiler session.
bool placeProcess(std::vector<std::string> argv, const RunnerPlace& place, const std::vector<std::string>& inputs,
                  const std::string& scratch, ProcessSpec* spec, std::string* err, const std::string& cacheRole = "");

class RunnerProcess : public RunnerLauncher {
 public:
  explicit RunnerProcess(RunnerPlace place) : place_(std::move(place)) {}
  RunnerEnded run(const RunnerLaunch& launch) override;
  void runTogether(const std::vector<RunnerLaunch>& launches, const std::string& scratch,
                   const std::string& requestsFolder, const PartEnded& partEnded,
                   const SessionLaunch* session = nullptr) override;
  TrustedChildResult timeTrusted(const TrustedTimingRequest& request, const std::string& logPath) override;

 private:
  RunnerPlace place_;
};

/// Runs the submission's profiler session's process (keeper/hardware_session.h) where `place` says,
/// its scratch folder `workDir`, the keeper's copies of what it profiles in `inputs` (read-only).
ProfiledRunner profiledRunner(const RunnerPlace& place, const std::string& workDir, const std::string& inputs);

}  // namespace clgrade
