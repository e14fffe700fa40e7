#include "keeper/trusted_child.h"

#include <cstdio>
#include <map>

#include "util/files.h"
#include "util/subprocess.h"

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
  std::map<std::string, std::string> env;
  if (!r.visibleGpus.empty()) env["CUDA_VISIBLE_DEVICES"] = r.visibleGpus;
  const ProcessResult p = runProcess(argv, env, timeoutSeconds, logPath, logPath);
  TrustedChildResult result;
  std::string text, err;
  auto timings = std::make_shared<TrustedTimings>();
  if (!p.ok())
    result.problem = "timing the reference kernels: " + p.describe() + " (see " + logPath + ")";
  else if (!readFile(r.out, &text, &err, size_t(16) << 20) || !readTrustedTimings(text, timings.get(), &err))
    result.problem = "timing the reference kernels: " + err;
  else
    result.timings = timings;
  return result;
}

}  // namespace clgrade
