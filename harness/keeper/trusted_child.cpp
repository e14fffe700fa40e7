#include "keeper/trusted_child.h"

#include <cstdio>
#include <map>

#include "util/files.h"
#include "util/lock_waiters.h"
#include "util/subprocess.h"
#include "util/timing_lock.h"

namespace clgrade {

TrustedChildResult timeTrustedInChildProcess(const std::string& clgrade, const TrustedTimingRequest& r,
                                             double timeoutSeconds, const std::string& logPath) {
  std::vector<std::string> argv{clgrade, "time-trusted", "--rubric", r.rubric, "--device", r.device,
                                "--out",  r.out,         "--seed",   std::to_string(r.seed)};
  if (!r.timingLock.empty()) argv.insert(argv.end(), {"--timing-lock", r.timingLock});
  if (!r.storeRoot.empty()) argv.insert(argv.end(), {"--cache-dir", r.storeRoot});
  if (r.besideProfiler) argv.push_back("--beside-profiler");
  for (const std::string& t : r.tasks) argv.insert(argv.end(), {"--task", t});
  std::remove(r.out.c_str());  // never read an earlier timing as this one
  ProcessSpec spec;
  spec.argv = argv;
  if (!r.visibleGpus.empty()) spec.env["CUDA_VISIBLE_DEVICES"] = r.visibleGpus;
  spec.timeoutSeconds = timeoutSeconds;
  spec.stdoutPath = spec.stderrPath = logPath;
  if (!r.timingLock.empty()) {
    // Its timed sets take turns with every other process's on the GPU (the machine's lock): waiting
    // for them is not its time, as it is not a runner's (keeper/runner_process.cpp). One limit of it
    // at most, not a runner's ten: a batch's grades on the GPU wait for this process.
    const std::string lock = r.timingLock;
    spec.waitingOnOthers = [lock](pid_t child) {
      return treeWaitsForOthersLock(lock, child) || treeWaitsForOthersLock(profilerLockFor(lock), child);
    };
    spec.uncountedLimitSeconds = timeoutSeconds;
  }
  const ProcessResult p = runProcess(spec);
  TrustedChildResult result;
  std::string text, err;
  auto timings = std::make_shared<TrustedTimings>();
  if (!p.ok())
    result.problem = "timing the reference kernels: " + p.describe() +
                     (p.stoppedWaiting ? ", waiting for another process's timings" : "") + " (see " + logPath + ")";
  else if (!readFile(r.out, &text, &err, size_t(16) << 20) || !readTrustedTimings(text, timings.get(), &err))
    result.problem = "timing the reference kernels: " + err;
  else
    result.timings = timings;
  return result;
}

}  // namespace clgrade
