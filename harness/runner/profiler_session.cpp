// `clgrade hwsession`: a submission's counters (counted by its replay itself, by its PTX counters or
// through CUPTI, or under ncu) and its atomics counted in the same replay, in the keeper's sandbox.
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

namespace {

/// ncu's kernel filter for `profile` ("task" or "task:kernel"; every task's kernels when empty):
/// the replay names kernels <task>__<kernel>, drawn_<task>__<kernel> at a grade's drawn case.
std::string ncuKernelFilter(const std::vector<std::string>& tasks, const std::vector<std::string>& profile) {
  std::string names;
  for (const std::string& p : profile.empty() ? tasks : profile) {
    const size_t colon = p.find(':');
    names += (names.empty() ? "" : "|") +
             (colon == std::string::npos ? p + "__" : p.substr(0, colon) + "__" + p.substr(colon + 1) + "$");
  }
  return "regex:^(drawn_)?(" + names + ")";
}

}  // namespace

int profilerSessionInChild(const ProfilerSessionArgs& a) {
  // Kernels are named <task>__<kernel> (drawn_<task>__<kernel> at a grade's drawn case), and only
  // those asked for are counted: the copies that count atomics (hwcount --atomics) run under the
  // kernel's own name.
  std::vector<std::string> hwcount{a.clgrade, "hwcount", a.kernelsDir, "--rubric", a.rubricPath, "--prefixed",
                                   "--out",   a.workDir};
  for (const std::string& t : a.tasks) hwcount.insert(hwcount.end(), {"--task", t});
  for (const std::string& at : a.atomics) hwcount.insert(hwcount.end(), {"--atomics", at});
  if (a.seeds)
    for (const std::string& arg : hiddenSeedsArgs(*a.seeds)) hwcount.push_back(arg);
  const std::string log = a.workDir + "/counters.log";
  const auto finish = [&](const ProcessResult& p) {
    std::cout << fileText(log);
    if (p.ok()) return 0;
    std::cerr << "clgrade hwsession: the counters' run: " << p.describe() << "\n";
    if (!p.started) return 127;  // the counters' program could not start: the machine's (keeper/hardware_session.h)
    return p.exitCode != 0 ? p.exitCode : 4;
  };
  // No counter a rule reads: the replay counts the atomics alone, and no profiler starts. The line
  // tells the keeper that the replay got going (as ncu's "==PROF==" lines do).
  if (a.profileNone) {
    std::cout << "==PROF== clgrade hwsession: no counters asked for; the replay counts the atomics alone\n";
    std::vector<std::string> argv = hwcount;
    argv.push_back("--copies-only");
    return finish(runProcess(argv, {}, a.timeoutSeconds, log, log));
  }
  // With `ptx`, the replay counts itself by its PTX counters: no profiler, so no turn to take on the
  // GPU. Where they cannot count a kernel, hwcount says so (kHwcountNotCounted) and so does this:
  // the keeper then counts with ncu, under the profiler lock this session did not take.
  if (a.counters == "ptx") {
    std::vector<std::string> argv = hwcount;
    argv.insert(argv.end(), {"--count-accesses", a.csvPath, "--copies-only"});
    for (const std::string& p : a.profile) argv.insert(argv.end(), {"--count", p});
    return finish(runProcess(argv, {}, a.timeoutSeconds, log, log));
  }
  // With `cupti`, the replay counts itself first (no ncu process); where CUPTI cannot count, it says
  // so before running anything, and ncu counts from outside.
  if (a.counters == "cupti") {
    std::vector<std::string> argv = hwcount;
    argv.insert(argv.end(), {"--counters-csv", a.csvPath});
    const ProcessResult p = runProcess(argv, {}, a.timeoutSeconds, log, log);
    if (!p.started || p.exitCode != kHwcountNoCupti || p.signal || p.timedOut) return finish(p);
    std::cout << fileText(log) << "clgrade hwsession: counting with ncu instead\n";
  }
  // Counts, not times: ncu leaves the clocks alone (by default it locks them to base, which would
  // slow another task's timing on the same GPU) and the caches too (bank conflicts, instructions and
  // requested sectors do not depend on what the cache holds; flushing before each pass cost 1 s).
  // ncu's ~0.1-0.2 s per profiled launch is most of such a session.
  std::vector<std::string> argv{a.ncu,         "--clock-control", "none",    "--cache-control",
                                "none",        "--csv",           "--log-file", a.csvPath,
                                "--metrics",   kNcuSharedMetrics, "-k",      ncuKernelFilter(a.tasks, a.profile)};
  argv.insert(argv.end(), hwcount.begin(), hwcount.end());
  return finish(runProcess(argv, {}, a.timeoutSeconds, log, log));
}

int profilerSessionInProcess(const ProfilerSessionArgs& a, const Runtime& shared) {
  HwcountCounting counting;
  if (a.profileNone) {
    std::cout << "==PROF== clgrade hwsession: no counters asked for; the replay counts the atomics alone" << std::endl;
  } else if (a.counters == "ptx") {
    counting = {HwcountCounting::How::Ptx, a.csvPath, a.profile};
  } else {
    std::cerr << "clgrade hwsession: counting with " << a.counters << " needs a process of its own\n";
    return kSessionNeedsItsOwnProcess;
  }
  counting.copiesOnly = true;
  Rubric rubric;
  if (!loadRubricOrComplain(a.rubricPath, &rubric, "clgrade hwsession")) return 4;
  return hwcountInChild(a.kernelsDir, rubric, a.tasks, a.workDir, true, a.seeds, a.atomics, counting, &shared);
}

}  // namespace clgrade
