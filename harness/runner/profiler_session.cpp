// `clgrade hwsession`: a submission's hardware counters (counted by its replay through CUPTI, or under
// ncu) and its atomics counted in the same replay, in the keeper's sandbox.
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
                           const std::optional<HiddenSeeds>& seeds, bool cupti) {
  // Kernels are named <task>__<kernel> (drawn_<task>__<kernel> at a grade's drawn case), and only
  // those are counted: the copies that count atomics (hwcount --atomics) run under the kernel's own
  // name.
  std::vector<std::string> hwcount{clgrade, "hwcount", kernelsDir, "--rubric", rubricPath, "--prefixed", "--out",
                                   workDir};
  for (const std::string& t : tasks) {
    hwcount.push_back("--task");
    hwcount.push_back(t);
  }
  for (const std::string& a : atomics) {
    hwcount.push_back("--atomics");
    hwcount.push_back(a);
  }
  if (seeds)
    for (const std::string& a : hiddenSeedsArgs(*seeds)) hwcount.push_back(a);
  const std::string log = workDir + "/counters.log";
  const auto finish = [&](const ProcessResult& p) {
    std::cout << fileText(log);
    if (p.ok()) return 0;
    std::cerr << "clgrade hwsession: the counters' run: " << p.describe() << "\n";
    if (!p.started) return 127;  // the counters' program could not start: the machine's (keeper/hardware_session.h)
    return p.exitCode != 0 ? p.exitCode : 4;
  };
  // With `cupti`, the replay counts itself first (no ncu process); where CUPTI cannot count, it says
  // so before running anything, and ncu counts from outside.
  if (cupti) {
    std::vector<std::string> argv = hwcount;
    argv.insert(argv.end(), {"--counters-csv", csvPath});
    const ProcessResult p = runProcess(argv, {}, timeoutSeconds, log, log);
    if (!p.started || p.exitCode != kHwcountNoCupti || p.signal || p.timedOut) return finish(p);
    std::cout << fileText(log) << "clgrade hwsession: counting with ncu instead\n";
  }
  // Counts, not times: ncu leaves the clocks alone (by default it locks them to base, which would
  // slow another task's timing on the same GPU) and the caches too (bank conflicts, instructions and
  // requested sectors do not depend on what the cache holds; flushing before each pass cost 1 s).
  // ncu's ~0.1 s per profiled launch is most of such a session.
  std::string names;
  for (const std::string& t : tasks) names += (names.empty() ? "" : "|") + t;
  std::vector<std::string> argv{ncu,          "--clock-control", "none",      "--cache-control", "none",  "--csv",
                                "--log-file", csvPath,           "--metrics", kNcuSharedMetrics, "-k",
                                "regex:^(drawn_)?(" + names + ")__"};
  argv.insert(argv.end(), hwcount.begin(), hwcount.end());
  return finish(runProcess(argv, {}, timeoutSeconds, log, log));
}

}  // namespace clgrade
