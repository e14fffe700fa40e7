// `clgrade hwsession`: a submission's counters and atomics runs under ncu, in the keeper's sandbox.
#include <future>
#include <iostream>

#include "counters/nvidia/ncu_csv.h"
#include "grading/hardware.h"
#include "protocol/profiler_files.h"
#include "runner/runner.h"
#include "util/files.h"
#include "util/subprocess.h"

namespace clgrade {

namespace {

/// What the counters' run printed (ncu's log), read without trusting it.
std::string fileText(const std::string& path) {
  std::string text;
  if (!readUntrustedFile(path, size_t(512) << 20, &text)) text.clear();
  return text;
}

}  // namespace

int profilerSessionInChild(const std::string& ncu, const std::string& clgrade, const std::string& kernelsDir,
                           const std::string& rubricPath, const std::vector<std::string>& tasks,
                           const std::vector<std::string>& atomics, const std::string& workDir,
                           const std::string& csvPath, double timeoutSeconds,
                           const std::optional<HiddenSeeds>& seeds) {
  // The atomics runs beside the counters: ncu makes the two processes' profiled launches take turns
  // on the GPU (its lock file in this sandbox's /tmp) while their starts and builds overlap. One
  // process per task's counters as well was slower on an H100 (12.2 s against 10.2 s in a check).
  std::vector<std::future<void>> runs;
  for (const std::string& pair : atomics) {
    const size_t colon = pair.find(':');
    if (colon == std::string::npos) continue;
    const std::string task = pair.substr(0, colon), kernel = pair.substr(colon + 1);
    runs.push_back(std::async(std::launch::async, [=] {
      const std::string bytes = profileAtomics(ncu, clgrade, kernelsDir, rubricPath, task, kernel,
                                               workDir + "/atomics-" + task, timeoutSeconds);
      writeFileAtomically(atomicsRecordPath(workDir, task, kernel), bytes, nullptr);
    }));
    if (seeds)  // a grade's: the same kernel at the drawn case too (spec 5c)
      runs.push_back(std::async(std::launch::async, [=] {
        const std::string bytes = profileAtomics(ncu, clgrade, kernelsDir, rubricPath, task, kernel,
                                                 workDir + "/atomics-" + task, timeoutSeconds, seeds);
        writeFileAtomically(atomicsRecordPath(workDir, task, kernel + ".drawn"), bytes, nullptr);
      }));
  }
  // Counts, not times: ncu leaves the clocks alone (by default it locks them to base, which would
  // slow another task's timing on the same GPU) and the caches too (bank conflicts, instructions and
  // requested sectors do not depend on what the cache holds; flushing before each pass cost 1 s).
  // Kernels are named <task>__<kernel>, one task alone too (--prefixed).
  std::vector<std::string> argv{ncu,          "--clock-control", "none",      "--cache-control", "none",  "--csv",
                                "--log-file", csvPath,           "--metrics", kNcuSharedMetrics, clgrade, "hwcount",
                                kernelsDir,   "--rubric",        rubricPath,  "--prefixed",      "--out", workDir};
  for (const std::string& t : tasks) {
    argv.push_back("--task");
    argv.push_back(t);
  }
  if (seeds)
    for (const std::string& a : hiddenSeedsArgs(*seeds)) argv.push_back(a);
  const std::string log = workDir + "/counters.log";
  const ProcessResult p = runProcess(argv, {}, timeoutSeconds, log, log);
  for (std::future<void>& run : runs) run.get();
  std::cout << fileText(log);
  if (p.ok()) return 0;
  std::cerr << "clgrade hwsession: the counters' run: " << p.describe() << "\n";
  if (!p.started) return 127;  // ncu itself could not start: the machine's (keeper/hardware_session.h)
  return p.exitCode != 0 ? p.exitCode : 4;
}

}  // namespace clgrade
