#include "keeper/hardware_session.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <iostream>
#include <mutex>
#include <optional>
#include <set>

#include "counters/nvidia/ptx_accesses.h"
#include "protocol/profiler_files.h"
#include "tasks/task.h"
#include "util/files.h"
#include "util/timing_lock.h"

namespace clgrade {

namespace fs = std::filesystem;

namespace {

std::string prefixOf(const std::string& task) { return task + "__"; }

bool startsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

/// The CSV lines a task's evidence keeps: ncu's own lines and the rows of the task's kernels.
std::string csvShare(const std::string& csv, const std::string& task, const std::vector<std::string>& tasks) {
  std::string kept;
  size_t at = 0;
  while (at < csv.size()) {
    size_t end = csv.find('\n', at);
    if (end == std::string::npos) end = csv.size();
    const std::string line = csv.substr(at, end - at);
    at = end + 1;
    bool other = false;
    for (const std::string& t : tasks)
      if (t != task && (line.find("\"" + prefixOf(t)) != std::string::npos ||
                        line.find("\"" + hardwareDrawnPrefix(t)) != std::string::npos))
        other = true;
    if (!other) kept += line + "\n";
  }
  return kept;
}

/// A file the sandbox wrote (never through a link, never a FIFO); "" for anything else.
std::string fileText(const std::string& path) {
  std::string text;
  if (!readUntrustedFile(path, size_t(512) << 20, &text)) text.clear();
  return text;
}

struct Session {
  std::map<std::string, HardwareRun> byTask;
  bool ended = false;                 ///< the profiled process ended by itself, with exit 0
  std::set<std::string> atomicsLeft;  ///< tasks whose atomics count left no record (stopped with the session)
};

/// The atomics count of `kernel` at the task's drawn case, made in the session as the analysis case's.
AtomicsRun drawnAtomicsRun(const SessionRequest& r, const std::string& task, const std::string& kernel,
                           const ProcessResult& session) {
  std::string bytes;
  AtomicsRun atomics;
  atomics.kernel = kernel;
  if (!readUntrustedFile(atomicsRecordPath(r.workDir, task, kernel + ".drawn"), size_t(512) << 20, &bytes)) {
    atomics.outcome = HardwareRun::Outcome::Failed;
    atomics.message = "the profiler session left no atomics count of " + kernel + " at the drawn case" +
                      (session.ok() ? "" : " (the session: " + session.describe() + ")");
    return atomics;
  }
  try {
    return readAtomicsRun(bytes, r.reportDir, task, kernel, true);
  } catch (const std::exception& e) {
    atomics.outcome = HardwareRun::Outcome::Failed;
    atomics.message = std::string("the atomics count at the drawn case does not read: ") + e.what();
  }
  return atomics;
}

/// Keeps the counts of `kernels` alone (CUPTI counts every launch; ncu only those asked for).
void onlyKernels(const std::vector<std::string>& kernels, HardwareRun* share) {
  for (std::vector<HardwareCounts>* counts : {&share->counts, &share->drawnCounts})
    counts->erase(std::remove_if(counts->begin(), counts->end(),
                                 [&](const HardwareCounts& c) {
                                   return std::find(kernels.begin(), kernels.end(), c.kernel) == kernels.end();
                                 }),
                  counts->end());
}

/// What the replay said it could not count (its CSV's one line), without the line's head.
std::string firstNotCounted(const std::string& csv) {
  const std::string head = "could not count ";
  const size_t at = csv.find(head);
  if (at == std::string::npos) return "no reason given";
  const size_t end = csv.find('\n', at);
  return csv.substr(at + head.size(), std::min<size_t>(end == std::string::npos ? csv.size() : end, at + 600) -
                                          (at + head.size()));
}

/// Who counted, as the CSV's first line says (HardwareRun::countedBy).
std::string countedBy(const std::string& csv) {
  if (csv.find(kPtxCountersNote) != std::string::npos) return "clgrade's PTX counters";
  if (csv.find("CUPTI's range profiler") != std::string::npos) return "CUPTI";
  return "ncu";
}

/// Whether any of `tasks` has counters a rule reads (else the session counts atomics alone).
bool anyProfiled(const SessionRequest& r, const std::vector<std::string>& tasks) {
  if (!r.profiled) return true;
  for (const std::string& t : tasks)
    if (r.profiled->count(t)) return true;
  return false;
}

/// One profiler session over `tasks`: the runs by task (Failed, with the reason, where it has none).
Session oneSession(const SessionRequest& r, const std::vector<std::string>& tasks, const ProfiledRunner& run) {
  std::error_code ec;
  const std::string csvPath = r.workDir + "/ncu.csv";
  const std::string logPath = sessionLogPath(r, tasks);
  fs::remove(csvPath, ec);  // never read an earlier session's as this one's
  for (const std::string& t : tasks)
    if (const auto kernels = r.atomics.find(t); kernels != r.atomics.end())
      for (const std::string& k : kernels->second) {
        fs::remove(atomicsRecordPath(r.workDir, t, k), ec);
        fs::remove(atomicsRecordPath(r.workDir, t, k + ".drawn"), ec);
      }
  const std::vector<std::string> argv = sessionArgv(r, tasks);
  ProcessResult p;
  {
    // A profiler takes turns on the GPU (one session at a time); the PTX counters are the replay's
    // own launches, and so is a session that counts nothing but atomics.
    std::optional<TimingLock> turn;
    if (r.counters != "ptx" && anyProfiled(r, tasks)) turn.emplace(r.profilerLock);
    p = run(argv, r.timeoutSeconds, logPath);
  }
  if (r.counters == "ptx" && p.exitCode == kHwcountNotCounted && !p.signal && !p.timedOut) {
    // A kernel the PTX counters do not follow: ncu counts the session instead, where there is one.
    const std::string notCounted = firstNotCounted(fileText(csvPath));
    const std::string why = "the PTX counters could not count it (" + notCounted + ")";
    if (!r.ncu.empty()) {
      SessionRequest again = r;
      again.counters = "ncu";
      Session counted = oneSession(again, tasks, run);
      for (auto& [task, share] : counted.byTask) share.countedBecause = why;
      return counted;
    }
    // Where the kernel's own code is what they cannot follow (inline assembly, say), its technique
    // is not measured, as on any machine without a profiler. Where the machine or the counters are
    // (an old GPU, a counted copy that does not load or launch), a machine with ncu grades it again.
    const bool itsOwnCode = notCounted.find(kPtxItsOwnCode) != std::string::npos;
    Session none;
    for (const std::string& task : tasks) {
      HardwareRun& share = none.byTask[task];
      share.outcome = HardwareRun::Outcome::Unavailable;
      share.machineFault = !itsOwnCode;
      share.countedBy = "clgrade's PTX counters";
      share.message = why + ", and NVIDIA's profiler ncu, which could, is not on this machine";
    }
    return none;
  }
  const std::string csv = fileText(csvPath);
  const std::string log = fileText(logPath);
  std::vector<HardwareCounts> counts;
  std::string err;
  const bool parsed = parseNcuCsv(csv, &counts, &err);
  Session session;
  session.ended = p.ok();
  // Ends no kernel can cause: the kernels run on the GPU, never as this process's code; or ncu ended
  // by itself with an error before the profiled process connected to it (no "==PROF==" line), that
  // is before a kernel was built (markUncountedTechnique also asks that the task's runner built and ran
  // the same kernels on the same device).
  const bool connected = csv.find("==PROF==") != std::string::npos || log.find("==PROF==") != std::string::npos;
  const bool machine = !p.started || p.exitCode == 126 || p.exitCode == 127 ||
                       (p.exitCode != 0 && !connected && !p.signal && !p.timedOut && !p.memoryExceeded &&
                        !p.tooManyProcesses && p.stoppedBy.empty());
  for (const std::string& task : tasks) {
    const std::string dir = "evidence/" + task;
    makeDirectories(r.reportDir + "/" + dir, nullptr);
    // Kernels are named <task>__<kernel> whatever the number of tasks (hwcount --prefixed).
    HardwareRun share = sessionShare(counts, task);
    // A task whose rules read no counters was not profiled: its share is its atomics alone.
    const bool profiled = !r.profiled || r.profiled->count(task);
    if (r.profiled && profiled && !r.profiled->at(task).empty()) onlyKernels(r.profiled->at(task), &share);
    // The drawn case is asked of a task whose counters are read, and of one whose atomics are counted
    // (the histogram's rules read no counters: its technique went unjudged at the drawn case on a GPU).
    share.drawnAsked = r.seeds.has_value() && (profiled || r.atomics.count(task));
    share.seconds = p.seconds;
    share.countedBy = countedBy(csv);
    if (profiled) {
      share.logPath = dir + "/ncu.csv";
      writeFileAtomically(r.reportDir + "/" + share.logPath, csvShare(csv, task, tasks), nullptr);
    }
    writeFileAtomically(r.reportDir + "/" + dir + "/hardware.log", log, nullptr);
    if (!profiled) {
      // Its atomics are the replay's: a session the machine could not run is the machine's fault
      // for this task too, never a technique left unmeasured against the student.
      share.counts.clear();
      share.drawnCounts.clear();
      share.outcome = machine ? HardwareRun::Outcome::Failed : HardwareRun::Outcome::Ran;
      if (machine) share.message = "the profiler session could not run: " + p.describe();
    } else if (!parsed) {
      share.counts.clear();
      share.outcome = err.find("ERR_NVGPUCTRPERM") != std::string::npos ? HardwareRun::Outcome::Unavailable
                                                                        : HardwareRun::Outcome::Failed;
      share.message = err + (p.ok() ? "" : " (the profiled run: " + p.describe() + ")");
    } else if (share.counts.empty()) {
      share.outcome = HardwareRun::Outcome::Failed;
      share.message = share.countedBy + " counted no kernel of " + task + " (did it build and run? see hardware.log)" +
                      (p.ok() ? "" : " (the profiled run: " + p.describe() + ")");
    }
    // The atomics counts of the same replay: their records come from the sandbox and are read as
    // untrusted (a record that does not read is this run's failure, not the keeper's).
    if (const auto kernels = r.atomics.find(task); kernels != r.atomics.end())
      for (const std::string& kernel : kernels->second) {
        std::string bytes;
        AtomicsRun atomics;
        atomics.kernel = kernel;
        if (!readUntrustedFile(atomicsRecordPath(r.workDir, task, kernel), size_t(512) << 20, &bytes)) {
          atomics.message = "the profiler session left no atomics count of " + kernel +
                            (p.ok() ? "" : " (the session: " + p.describe() + ")");
          session.atomicsLeft.insert(task);
        } else {
          try {
            atomics = readAtomicsRun(bytes, r.reportDir, task, kernel);
          } catch (const std::exception& e) {
            atomics.outcome = HardwareRun::Outcome::Failed;
            atomics.message = std::string("the atomics count does not read: ") + e.what();
          }
        }
        share.atomics.push_back(atomics);
        if (r.seeds) share.drawnAtomics.push_back(drawnAtomicsRun(r, task, kernel, p));
      }
    share.machineFault = share.outcome == HardwareRun::Outcome::Unavailable ||
                         (share.outcome == HardwareRun::Outcome::Failed && machine);
    session.byTask[task] = share;
  }
  return session;
}

}  // namespace

std::vector<std::string> sessionArgv(const SessionRequest& r, const std::vector<std::string>& tasks) {
  std::vector<std::string> argv{r.clgrade,
                                "hwsession",
                                r.kernelsDir,
                                "--clgrade",
                                r.clgrade,
                                "--rubric",
                                r.rubricPath,
                                "--out",
                                r.workDir,
                                "--log-file",
                                r.workDir + "/ncu.csv",
                                "--timeout",
                                std::to_string(r.timeoutSeconds),
                                "--counters",
                                r.counters};
  if (!r.ncu.empty()) argv.insert(argv.end(), {"--ncu", r.ncu});
  if (r.seeds)
    for (const std::string& a : hiddenSeedsArgs(*r.seeds)) argv.push_back(a);
  for (const std::string& t : tasks) {
    argv.push_back("--task");
    argv.push_back(t);
    if (r.profiled) {
      const auto read = r.profiled->find(t);
      if (read != r.profiled->end() && read->second.empty()) argv.insert(argv.end(), {"--profile", t});
      if (read != r.profiled->end())
        for (const std::string& k : read->second) argv.insert(argv.end(), {"--profile", t + ":" + k});
    }
    if (const auto kernels = r.atomics.find(t); kernels != r.atomics.end())
      for (const std::string& k : kernels->second) argv.insert(argv.end(), {"--atomics", t + ":" + k});
  }
  if (!anyProfiled(r, tasks)) argv.push_back("--profile-none");
  return argv;
}

std::string sessionLogPath(const SessionRequest& r, const std::vector<std::string>& tasks) {
  return r.logDir + "/" + (tasks.size() == 1 ? tasks.front() : "all") + ".hardware.log";
}

ServedSession::ServedSession(std::vector<std::string> argv, std::string workDir, std::string outputPath)
    : argv_(std::move(argv)),
      workDir_(std::move(workDir)),
      outputPath_(std::move(outputPath)),
      ended_(promise_.get_future().share()) {}

void ServedSession::end(std::optional<ProcessResult> p, const std::string& files) {
  const std::lock_guard<std::mutex> hold(mutex_);
  if (said_) return;
  said_ = true;
  promise_.set_value(End{std::move(p), files});
}

std::optional<ProcessResult> ServedSession::takeEnd(const std::string& logPath) const {
  const End& end = ended_.get();
  if (!end.process) return std::nullopt;
  // Where its own process would have left them; the process that ran it has ended.
  std::error_code ec;
  fs::remove_all(workDir_, ec);
  fs::rename(end.files, workDir_, ec);
  if (ec) return std::nullopt;
  fs::remove(logPath, ec);
  fs::rename(outputPath_, logPath, ec);
  return end.process;
}

ProfiledRunner servedFirst(std::shared_ptr<ServedSession> served, ProfiledRunner own) {
  auto first = std::make_shared<std::atomic<bool>>(true);
  return [served, own = std::move(own), first](const std::vector<std::string>& argv, double timeout,
                                               const std::string& logPath) {
    // Only the session it was made for: a later one (a task alone, ncu after the PTX counters)
    // runs in its own process.
    if (first->exchange(false) && argv == served->argv())
      if (const std::optional<ProcessResult> p = served->takeEnd(logPath)) return *p;
    return own(argv, timeout, logPath);
  };
}

HardwareRun sessionShare(const std::vector<HardwareCounts>& all, const std::string& task) {
  HardwareRun share;
  const std::string prefix = prefixOf(task), drawn = hardwareDrawnPrefix(task);
  for (const HardwareCounts& c : all) {
    const bool ofDrawn = startsWith(c.kernel, drawn);
    if (!ofDrawn && !startsWith(c.kernel, prefix)) continue;
    HardwareCounts own = c;
    own.kernel = c.kernel.substr(ofDrawn ? drawn.size() : prefix.size());
    (ofDrawn ? share.drawnCounts : share.counts).push_back(own);
  }
  share.outcome = HardwareRun::Outcome::Ran;
  return share;
}

std::string sessionCounters() {
  const char* how = std::getenv("CLGRADE_COUNTERS");
  const std::string asked = how ? how : "";
  if (asked == "ncu" || asked == "cupti") return asked;
  if (!asked.empty() && asked != "ptx") {
    static std::once_flag said;  // once a process, not once a submission
    std::call_once(said, [&] {
      std::cerr << "clgrade: CLGRADE_COUNTERS=" << asked << " is none of ptx, ncu and cupti: the PTX counters count\n";
    });
  }
  return "ptx";
}

std::map<std::string, HardwareRun> runHardwareSession(const SessionRequest& request, const ProfiledRunner& run) {
  if (request.tasks.empty()) return {};
  const Session all = oneSession(request, request.tasks, run);
  std::map<std::string, HardwareRun> byTask = all.byTask;
  if (request.tasks.size() == 1 || all.ended) return byTask;
  // The session was stopped or crashed (a kernel that never ends, say): every task it left without
  // counts is profiled once more on its own, so that one task's kernel costs the others nothing. A
  // task without rows in a session that ended well (its file does not build) stays as it is.
  for (const std::string& task : request.tasks) {
    if (byTask[task].outcome != HardwareRun::Outcome::Failed) {
      // Counted, but the session stopped before its atomics were: that task alone again.
      if (all.atomicsLeft.count(task)) byTask[task].atomics = oneSession(request, {task}, run).byTask.at(task).atomics;
      continue;
    }
    HardwareRun again = oneSession(request, {task}, run).byTask.at(task);
    again.message += again.message.empty() ? "" : "; ";
    again.message += "counted alone after the session of every task ended early: " + byTask[task].message;
    if (again.outcome == HardwareRun::Outcome::Ran) again.message.clear();
    byTask[task] = again;
  }
  return byTask;
}

namespace {

/// Whether criterion `c` of `task` names a check the simulator or the counters judge (a technique).
bool namesTechnique(const Task& task, const Criterion& c) {
  for (const std::string& named : c.checks) {
    const std::string id = named.substr(0, named.find('@'));
    for (const CheckInfo& ci : task.info().checks)
      if (ci.id == id && ci.simulated) return true;
  }
  return false;
}

}  // namespace

void markUncountedTechnique(const Rubric& rubric, const std::map<std::string, HardwareRun>& counted,
                            GradeReport* report) {
  for (TaskReport& t : report->tasks) {
    const auto run = counted.find(t.id);
    const Task* task = findTask(t.id);
    const auto tr = std::find_if(rubric.tasks.begin(), rubric.tasks.end(),
                                 [&t](const TaskRubric& r) { return r.id == t.id; });
    // The task's runner built and ran its kernels on this device: a session that failed on the same
    // kernels before they ran is the machine's doing.
    const bool ranWell = !t.process.recorded || t.process.outcome == "ok" || t.process.outcome == "ok after a rerun";
    if (run == counted.end() || !run->second.machineFault || !t.machineFault.empty() || !task ||
        tr == rubric.tasks.end() || !ranWell)
      continue;
    for (const Criterion& c : tr->criteria) {
      if (!namesTechnique(*task, c)) continue;
      for (const CriterionResult& r : t.criteria)
        if (r.id == c.id && r.status == Status::NotMeasured && !r.overridden)
          t.machineFault = "its technique could not be judged: the hardware counters (" + run->second.countedBy +
                           ") could not be taken on this machine (" + run->second.message + ")";
    }
  }
}

std::shared_future<std::map<std::string, HardwareRun>> startHardwareSession(const SessionRequest& request,
                                                                            ProfiledRunner run,
                                                                            const std::string& timingLock) {
  return std::async(std::launch::async,
                    [request, run = std::move(run), timingLock] {
                      SessionRequest r = request;
                      r.profilerLock = profilerLockFor(timingLock);
                      return runHardwareSession(r, run);
                    })
      .share();
}

}  // namespace clgrade
