// `clgrade hwsession`: a submission's counters under ncu and its atomics counted in the same replay,
// in the keeper's sandbox.
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
  // Counts, not times: ncu leaves the clocks alone (by default it locks them to base, which would
  // slow another task's timing on the same GPU) and the caches too (bank conflicts, instructions and
  // requested sectors do not depend on what the cache holds; flushing before each pass cost 1 s).
  // Kernels are named <task>__<kernel> (drawn_<task>__<kernel> at a grade's drawn case), and only
  // those are profiled: the copies that count atomics (hwcount --atomics) run under the kernel's own
  // name, and ncu's ~0.1 s per profiled launch is most of a session.
  std::string names;
  for (const std::string& t : tasks) names += (names.empty() ? "" : "|") + t;
  std::vector<std::string> argv{ncu,          "--clock-control", "none",      "--cache-control", "none",  "--csv",
                                "--log-file", csvPath,           "--metrics", kNcuSharedMetrics, "-k",
                                "regex:^(drawn_)?(" + names + ")__",
                                clgrade,      "hwcount",         kernelsDir,  "--rubric",        rubricPath,
                                "--prefixed", "--out",           workDir};
  for (const std::string& t : tasks) {
    argv.push_back("--task");
    argv.push_back(t);
  }
  for (const std::string& a : atomics) {
    argv.push_back("--atomics");
    argv.push_back(a);
  }
  if (seeds)
    for (const std::string& a : hiddenSeedsArgs(*seeds)) argv.push_back(a);
  const std::string log = workDir + "/counters.log";
  const ProcessResult p = runProcess(argv, {}, timeoutSeconds, log, log);
  std::cout << fileText(log);
  if (p.ok()) return 0;
  std::cerr << "clgrade hwsession: the counters' run: " << p.describe() << "\n";
  if (!p.started) return 127;  // ncu itself could not start: the machine's (keeper/hardware_session.h)
  return p.exitCode != 0 ? p.exitCode : 4;
}

}  // namespace clgrade
