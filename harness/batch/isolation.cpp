#include "batch/isolation.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <algorithm>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>
#include <set>

#include "grading/analysis.h"
#include "grading/grader.h"
#include "grading/performance.h"
#include "sandbox/sandbox.h"
#include "util/tape.h"
#include "grading/source_policy.h"
#include "report/json_report.h"
#include "tasks/task.h"
#include "util/files.h"
#include "util/progress.h"
#include "util/sha256.h"
#include "util/subprocess.h"
#include "util/utc_time.h"

namespace fs = std::filesystem;

namespace clgrade {

using nlohmann::ordered_json;

uint64_t defaultTaskMemoryBytes(int jobs) {
  const uint64_t physical = physicalMemoryBytes();
  const uint64_t gib = uint64_t(1) << 30;
  uint64_t share = physical ? physical / 4 * 3 / uint64_t(std::max(1, jobs)) : 8 * gib;
  return std::clamp(share, gib, 8 * gib);
}

uint64_t addressSpaceLimitFor(uint64_t memoryLimitBytes) { return 2 * memoryLimitBytes + (uint64_t(4) << 30); }

namespace {

std::string seconds(double s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.0f", s);
  return buffer;
}

/// The last non-empty line of a file (a child's last words on stderr), clipped.
std::string lastLine(const std::string& path) {
  std::string text;
  if (!readFile(path, &text, nullptr, size_t(64) << 20)) return "";
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  const size_t nl = text.rfind('\n');
  std::string line = nl == std::string::npos ? text : text.substr(nl + 1);
  if (line.size() > 300) line = line.substr(0, 297) + "...";
  return line;
}

/// Follows a child's progress file; says when a build has run longer than its limit.
class ProgressWatch {
 public:
  ProgressWatch(std::string path, double buildLimit) : path_(std::move(path)), buildLimit_(buildLimit) {}
  std::string check(double t) {
    struct stat st;
    if (stat(path_.c_str(), &st) == 0 && st.st_size != size_) {
      size_ = st.st_size;
      position_ = progress::lastPosition(path_);
      since_ = t;
    }
    if (buildLimit_ > 0 && progress::isBuild(position_) && t - since_ > buildLimit_) return "build";
    return "";
  }
  const progress::Position& position() const { return position_; }
  double stepSeconds(double t) const { return t - since_; }

 private:
  std::string path_;
  double buildLimit_;
  off_t size_ = -1;
  progress::Position position_;
  double since_ = 0;
};

ordered_json taskJsonOf(const TaskReport& task) {
  GradeReport holder;
  holder.tasks.push_back(task);
  return ordered_json::parse(toJson(holder))["tasks"][0];
}

/// What a child's end means for its task: status and message (empty message: it finished).
void judgeEnd(const ProcessResult& p, const progress::Position& position, const IsolationSettings& s,
              const std::string& stderrPath, Status* status, std::string* message, std::string* outcome) {
  const std::string where = progress::describe(position);
  const std::string at = where.empty() ? "" : " " + where;
  const bool building = progress::isBuild(position);
  if (p.timedOut) {
    *status = Status::Failed;
    *outcome = "timed out";
    std::string why = ": the task was stopped";
    if (building)
      why = ": the compiler did not finish (a macro or loop-unrolling bomb?); the task was stopped";
    else if (position.step == progress::Step::Kernel && position.phase == progress::Step::Case)
      why = ": a kernel probably never ends (an endless loop, or a barrier that not every work-item reaches; "
            "drivers such as PoCL also compile a kernel at its first launch); the task was stopped";
    else if (position.phase == progress::Step::Performance && position.step == progress::Step::Kernel)
      why = ": a kernel did not finish in the performance phase (the RESULT_STEPS sweep runs the kernels with other "
            "steps and group sizes); the task was stopped";
    else if (position.phase == progress::Step::Performance)
      why = ": the task was stopped (its kernels ran their cases, but timing them took longer than the limit)";
    *message = "timed out after " + seconds(s.taskTimeoutSeconds) + " s" + at + why;
  } else if (p.stoppedBy == "build") {
    *status = Status::Failed;
    *outcome = "build time";
    *message = "the compiler ran longer than " + seconds(s.buildTimeoutSeconds) + " s" + at +
               ": the task was stopped (a macro or loop-unrolling bomb?)";
  } else if (p.tooManyProcesses) {
    *status = Status::Failed;
    *outcome = "processes";
    *message = "started too many processes" + at + " (a kernel that forks? kernels run no host code): the task was "
               "stopped";
  } else if (p.memoryExceeded) {
    *status = Status::Failed;
    *outcome = "memory";
    *message = "used more than " + std::to_string(s.memoryLimitBytes >> 20) + " MiB of memory" + at +
               ": the task was stopped";
  } else if (p.signal) {
    *status = Status::Error;
    *outcome = "signal " + signalName(p.signal);
    if (p.signal == SIGKILL)
      *message = "the grading process was killed (SIGKILL)" + at +
                 ", perhaps by the system's out-of-memory killer; the task could not be graded";
    else
      *message = "the grading process died with " + signalName(p.signal) + at +
                 (building ? ": probably the OpenCL compiler crashed on this file"
                           : position.step == progress::Step::Kernel
                                 ? ": probably the OpenCL driver crashed on this kernel"
                                 : ": the task could not be graded");
  } else if (!p.started) {
    *status = Status::Error;
    *outcome = "not started";
    *message = "the grading process could not start: " + p.error;
  } else {
    *status = Status::Error;
    *outcome = "exit " + std::to_string(p.exitCode);
    const std::string last = lastLine(stderrPath);
    *message = "the grading process ended with exit code " + std::to_string(p.exitCode) + at + " without a report" +
               (last.empty() ? "" : ": " + last);
  }
}


/// The arguments of a second process for a task whose first one was stopped (empty: none), given
/// how it was judged: stopped in the performance phase, the rerun leaves that phase out (its swept
/// checks take the stop's status when a kernel or a build of the sweep stopped it); stopped in a
/// kernel during a case, it leaves that kernel's checks out, when the task has other checks to keep.
std::vector<std::string> rerunArguments(const std::string& taskId, const ProcessResult& p,
                                        const progress::Position& at, Status status, const std::string& message) {
  if (p.ok() || !p.started || !at.valid) return {};
  const std::string statusName = status == Status::Error ? "error" : "failed";
  if (at.phase == progress::Step::Performance) {
    const bool sweepStopped = at.step == progress::Step::Kernel || at.step == progress::Step::Build;
    return {"--performance-stopped", message, "--stopped-status", sweepStopped ? statusName : "not_measured"};
  }
  if (at.step != progress::Step::Kernel || at.phase != progress::Step::Case) return {};
  const Task* task = findTask(taskId);
  if (!task) return {};
  const TaskInfo& info = task->info();
  const auto launches = info.kernelChecks.find(at.what);
  if (launches == info.kernelChecks.end()) return {};
  const std::vector<std::string>& lost = launches->second;
  const bool othersLeft = std::any_of(info.checks.begin(), info.checks.end(), [&](const CheckInfo& ci) {
    return !ci.simulated && !ci.swept && std::find(lost.begin(), lost.end(), ci.id) == lost.end();
  });
  if (!othersLeft) return {};
  return {"--stopped-kernel", at.what, "--stopped-case", at.caseId, "--stopped-status", statusName,
          "--stopped-message", message};
}


/// A runner's record graded by the keeper: the task's report, or why the record cannot be graded.
struct ReplayResult {
  GradeReport graded;
  std::string problem;
};

/// A replay under way, and where its task goes in the merged report.
struct PendingReplay {
  size_t taskIndex = 0, runIndex = 0;
  const TaskRubric* task = nullptr;
  std::shared_future<ReplayResult> result;
};

/// Grades `options`' one task from the record at `path` on a runtime that never touches `device`.
ReplayResult replayRecord(const Rubric& rubric, const DeviceEntry& device, const GradeOptions& options,
                          const std::string& path) {
  ReplayResult r;
  const std::shared_ptr<Tape> tape = Tape::player(path, &r.problem);
  if (!tape) return r;
  try {
    r.graded = gradeSubmission(Runtime(device, tape), rubric, options);
  } catch (const std::exception& e) {
    r.problem = e.what();
    return r;
  }
  if (!tape->finished()) r.problem = "the runner's record does not fit the grading (" + tape->broken() + ")";
  else if (r.graded.tasks.size() != 1) r.problem = "the replay graded no task";
  return r;
}

/// The stop information of a rerun (rerunArguments) as grading options: the keeper replays the
/// rerun's record with exactly what the runner was told to leave out.
void applyStopArguments(const std::vector<std::string>& args, GradeOptions* o) {
  StoppedKernel k;
  std::string status = "failed";
  for (size_t i = 0; i + 1 < args.size(); i += 2) {
    const std::string& key = args[i];
    const std::string& value = args[i + 1];
    if (key == "--stopped-kernel") k.kernel = value;
    else if (key == "--stopped-case") k.caseId = value;
    else if (key == "--stopped-status") status = value;
    else if (key == "--stopped-message") k.message = value;
    else if (key == "--performance-stopped") o->performanceStopped = value;
    else if (key == "--stopped-evidence")
      o->stoppedEvidence.push_back({value.find("kernel_output") != std::string::npos
                                        ? "what the kernels printed in the stopped process"
                                        : "the stopped grading process's messages",
                                    value});
  }
  k.status = status == "error" ? Status::Error : Status::Failed;
  if (!k.kernel.empty()) o->stoppedKernels.push_back(k);
  o->performanceStoppedStatus = status == "error"    ? Status::Error
                                : status == "failed" ? Status::Failed
                                                     : Status::NotMeasured;
}

/// The compiler cache of one submission folder: <cache home>/clgrade/pocl/<hash of its absolute path>.
std::string submissionCacheDir(const std::string& kernelsDir) {
  // As root the sandbox has a uid of its own, which must reach the folder: root's home is not searchable.
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string base = geteuid() == 0           ? std::string("/var/cache")
                           : xdg && *xdg            ? std::string(xdg)
                                                    : std::string(home && *home ? home : "/tmp") + "/.cache";
  std::error_code ec;
  const std::string key = sha256Hex(fs::absolute(kernelsDir, ec).lexically_normal().string()).substr(0, 24);
  return base + "/clgrade/pocl/" + key;
}

/// An absolute, normal form of `path` (the sandbox starts in its scratch folder).
std::string absolute(const std::string& path) {
  std::error_code ec;
  const fs::path a = fs::absolute(path, ec);
  return ec ? path : a.lexically_normal().string();
}

/// The scratch folder of a task's runner: in the report's control folder, or, when a sandbox's uid
/// cannot reach that (a report folder under a home that others cannot enter), a fresh folder under
/// the system's temporary folder (listed in `made`, for removal).
std::string scratchFolder(const std::string& control, const std::string& taskId, bool sandboxed,
                          std::vector<std::string>* made) {
  const std::string inside = absolute(control + "/" + taskId + ".sandbox");
  if (!sandboxed || sandboxCanReach(inside)) return inside;
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / "clgrade-scratch-XXXXXX").string();
  if (!mkdtemp(pattern.data())) return inside;
  chmod(pattern.c_str(), 0755);
  made->push_back(pattern);
  return pattern + "/" + taskId + ".sandbox";
}

/// Puts a task child into a sandbox: it sees the system's libraries, the clgrade executable and its
/// tools, the rubric, this submission's kernels folder and the reference kernels (read-only), the
/// timing lock; it writes only into its scratch folder. Every path in its arguments is made absolute.
bool sandboxTaskChild(std::vector<std::string> argv, const IsolationSettings& s, const std::string& rubricPath,
                      const std::string& kernelsDir, const std::string& scratch, ProcessSpec* spec,
                      std::string* err) {
  std::error_code ec;
  fs::remove_all(scratch, ec);
  const std::string tools = s.toolsDir.empty() ? defaultToolsDir() : s.toolsDir;
  SandboxSpec box;
  box.scratch = absolute(scratch);
  box.maxProcesses = s.sandboxProcesses;
  box.gpu = !s.cpuDevice;
  auto mount = [&](const std::string& path, bool writable) {
    if (fs::exists(path, ec)) box.mounts.push_back({absolute(path), writable});
  };
  mount(s.clgrade, false);
  for (const char* tool : {"/clgrade", "/libclgrade_oclgrind.so", "/oclgrind-icd"}) mount(tools + tool, false);
  mount(rubricPath, false);
  mount(kernelsDir, false);
  mount(defaultReferenceKernelsDir(), false);
  if (!s.timingLock.empty()) {
    std::FILE* lock = std::fopen(s.timingLock.c_str(), "a");  // bwrap binds what exists
    if (lock) std::fclose(lock);
    mount(s.timingLock, true);
  }
  for (std::string& a : argv)
    if (a == rubricPath || a == kernelsDir || a == s.timingLock)
      a = absolute(a);
  // PoCL's compiler cache belongs to this submission folder only (its kernels and clgrade's own), and
  // is kept across its grades: a kernel that writes into it changes no other student's results.
  box.cache = submissionCacheDir(kernelsDir);
  box.env = openclEnvironment(box.scratch, {{"CLGRADE_TOOLS_DIR", absolute(tools)}});
  spec->argv = std::move(argv);
  return sandboxProcess(box, spec, err);
}

}  // namespace

TaskReport unfinishedTask(const TaskRubric& taskRubric, const std::string& kernelsDir, Status status,
                          const std::string& message, const std::string& caseId,
                          const std::vector<Evidence>& evidence) {
  const Task* task = findTask(taskRubric.id);
  TaskReport report;
  report.id = taskRubric.id;
  report.max = taskRubric.maxPoints();
  report.problem = message;
  if (task) {
    report.title = task->info().title;
    report.file = task->info().file;
    const KernelSource source = loadKernelSource(kernelsDir, report.file);
    report.present = source.present;
    if (source.present) report.sha256 = sha256Hex(source.fileBytes);
    for (size_t i = 0; i < source.included.size() && i < source.includedSha256.size(); ++i)
      report.includedFiles.emplace_back(source.included[i], source.includedSha256[i]);
    for (const CheckInfo& info : task->info().checks) {
      CheckResult check;
      check.id = info.id;
      check.title = info.title;
      check.status = status;
      check.message = message;
      CaseOutcome o;
      o.caseId = caseId.empty() ? "(task)" : caseId;
      o.status = status;
      o.message = message;
      o.evidence = evidence;
      check.cases.push_back(o);
      report.checks.push_back(check);
    }
  }
  std::map<std::string, CheckResult> byId;
  for (const CheckResult& c : report.checks) byId[c.id] = c;
  for (const Criterion& criterion : taskRubric.criteria) {
    report.criteria.push_back(scoreCriterion(criterion, byId));
    report.points += report.criteria.back().points;
  }
  return report;
}

IsolatedGrade gradeIsolated(const Rubric& rubric, const DeviceEntry& device, const std::string& kernelsDir,
                            const std::string& outDir, const std::vector<std::string>& onlyTasks,
                            const IsolationSettings& settingsIn, const std::string& kernelsProblem) {
  const auto start = std::chrono::steady_clock::now();
  const std::string startedAt = nowUtc();
  IsolationSettings s = settingsIn;
  if (!s.memoryLimitBytes) s.memoryLimitBytes = defaultTaskMemoryBytes(1);
  IsolatedGrade result;
  makeDirectories(outDir, nullptr);
  const std::string control = (fs::path(outDir) / ".clgrade").string();
  std::error_code ec;
  fs::remove_all(control, ec);
  makeDirectories(control, nullptr);

  std::string refused = kernelsProblem;
  if (refused.empty() && s.sandbox && !sandboxSupport().available)
    refused = "not graded: student code runs only inside a sandbox, and none can be made here: " +
              sandboxSupport().reason + ". An instructor who accepts the risk can pass --no-sandbox";

  ordered_json tasks = ordered_json::array();
  std::vector<std::string> scratches;  // scratch folders outside the report folder, removed at the end
  InputCache generated;  // made once for the replays of every task of this submission
  std::vector<PendingReplay> replays;  // the first child's full report: device, inputs, settings as measured
  std::vector<ordered_json> judgedReports;
  for (const TaskRubric& tr : rubric.tasks) {
    if (!onlyTasks.empty() && std::find(onlyTasks.begin(), onlyTasks.end(), tr.id) == onlyTasks.end()) continue;
    TaskRun run;
    run.task = tr.id;
    if (!refused.empty()) {
      run.outcome = "refused";
      run.message = refused;
      TaskReport dead = unfinishedTask(tr, kernelsDir, kernelsProblem.empty() ? Status::Error : Status::Failed,
                                       refused, "", {});
      tasks.push_back(taskJsonOf(dead));
      tasks.back()["process"] = {{"outcome", run.outcome}};
      result.runs.push_back(run);
      continue;
    }
    // The source policy is the keeper's: a file it refuses (a link out of the folder, a FIFO, an include
    // of /etc/passwd) is judged here, as it is on this machine, and no child starts for it.
    if (const Task* task = findTask(tr.id)) {
      const KernelSource source = loadKernelSource(kernelsDir, task->info().file);
      const bool exists = fs::exists(fs::symlink_status(fs::path(kernelsDir) / task->info().file, ec));
      if (exists && !source.problem.empty()) {
        run.outcome = "refused";
        run.message = source.problem;
        TaskReport dead = unfinishedTask(tr, kernelsDir, Status::Failed, source.problem, "", {});
        tasks.push_back(taskJsonOf(dead));
        tasks.back()["process"] = {{"outcome", run.outcome}};
        result.runs.push_back(run);
        continue;
      }
    }
    const std::string evidenceDir = (fs::path(outDir) / "evidence" / tr.id).string();
    makeDirectories(evidenceDir, nullptr);
    // The child writes only into its scratch folder: its record, its progress, its own evidence (never
    // used: this process writes the report's evidence when it replays the record).
    const std::string scratch = scratchFolder(control, tr.id, s.sandbox, &scratches);
    const std::string childOut = scratch + "/out";
    const std::string tapePath = scratch + "/record";
    const std::string progressPath = scratch + "/progress";
    const std::string stderrPath = control + "/" + tr.id + ".stderr";
    const std::string outputRel = "evidence/" + tr.id + "/kernel_output.txt";
    const std::string outputPath = (fs::path(outDir) / outputRel).string();
    // One process for the task; `extra` are the arguments of a rerun (what to leave out).
    auto runChild = [&](const std::vector<std::string>& extra, ProcessResult* p, progress::Position* at) {
      ProcessSpec spec;
      spec.argv = {s.clgrade, "grade", kernelsDir, "--in-process", "--rubric", rubric.path, "--task", tr.id,
                   "--out", childOut, "--device", s.device, "--evidence-cases", std::to_string(s.evidenceCases),
                   "--task-timeout", "0", "--quiet", "--record", tapePath, "--progress-file", progressPath};
      if (s.visibleOnly) spec.argv.push_back("--visible-only");
      if (!s.timingLock.empty()) {
        spec.argv.push_back("--timing-lock");
        spec.argv.push_back(s.timingLock);
      }
      spec.argv.insert(spec.argv.end(), extra.begin(), extra.end());
      if (!s.toolsDir.empty()) spec.env["CLGRADE_TOOLS_DIR"] = s.toolsDir;
      std::string sandboxError;
      fs::remove_all(scratch, ec);
      if (!s.sandbox) makeDirectories(scratch, nullptr);
      if (s.sandbox && !sandboxTaskChild(spec.argv, s, rubric.path, kernelsDir, scratch, &spec, &sandboxError)) {
        p->error = sandboxError;
        return false;
      }
      spec.timeoutSeconds = s.taskTimeoutSeconds;
      spec.stdoutPath = outputPath;
      spec.stderrPath = stderrPath;
      spec.outputLimitBytes = s.outputLimitBytes;
      spec.limits.noCoreDumps = true;
      spec.limits.fileSizeBytes = s.fileSizeLimitBytes;
      if (s.cpuDevice) spec.limits.addressSpaceBytes = addressSpaceLimitFor(s.memoryLimitBytes);
      spec.memoryLimitBytes = s.memoryLimitBytes;
      fs::remove(progressPath, ec);
      ProgressWatch watch(progressPath, s.buildTimeoutSeconds);
      spec.monitor = [&watch](double t) { return watch.check(t); };
      *p = runProcess(spec);
      watch.check(p->seconds);
      *at = watch.position();
      return p->ok();
    };
    // The verdicts: the runner's record replayed through the same grading code by this process, while
    // the next task's runner already runs (the replays take turns: they share the generated inputs).
    auto judgeLater = [&](const std::vector<std::string>& extra) {
      const std::string record = scratch + ".record";
      std::error_code renameError;
      fs::rename(tapePath, record, renameError);  // out of the scratch folder a rerun would clear
      std::shared_future<ReplayResult> previous = replays.empty() ? std::shared_future<ReplayResult>()
                                                                  : replays.back().result;
      PendingReplay pending{tasks.size(), result.runs.size(), &tr, {}};
      pending.result = std::async(std::launch::async, [&, extra, record, previous, taskId = tr.id] {
                         // Below the runners' priority: on a busy CPU device a replay must not slow a
                         // runner towards its time limit; on a GPU machine it takes idle cores.
                         setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
                         if (previous.valid()) previous.wait();
                         GradeOptions o;
                         o.kernelsDir = kernelsDir;
                         o.outDir = outDir;
                         o.visibleOnly = s.visibleOnly;
                         o.evidenceCasesPerCheck = s.evidenceCases;
                         o.onlyTasks = {taskId};
                         o.inputs = &generated;
                         applyStopArguments(extra, &o);
                         ReplayResult r = replayRecord(rubric, device, o, record);
                         std::error_code ignored;
                         fs::remove(record, ignored);
                         return r;
                       }).share();
      replays.push_back(std::move(pending));
    };

    ProcessResult p;
    progress::Position stoppedAt;
    ordered_json taskJson = ordered_json::object(), rerunJson;
    run.ok = runChild({}, &p, &stoppedAt);
    run.seconds = p.seconds;
    run.peakResidentBytes = p.peakResidentBytes;
    run.stdoutBytes = p.stdoutBytes;
    std::string outputShown = outputRel;  // the kernel output the report points to
    if (run.ok) {
      judgeLater({});
      run.outcome = "ok";
    } else {
      Status status = Status::Error;
      std::string outcome;
      judgeEnd(p, stoppedAt, s, stderrPath, &status, &run.message, &outcome);
      run.outcome = outcome;
      // The stopped child's own files, kept under names a rerun does not write.
      std::vector<Evidence> evidence;
      std::string log;
      if (readFile(stderrPath, &log, nullptr) && !log.empty()) {
        const std::string logRel = "evidence/" + tr.id + "/grading_process.log";
        fs::rename(stderrPath, fs::path(outDir) / logRel, ec);
        if (!ec) evidence.push_back({"the grading process's messages", logRel});
      }
      if (p.stdoutBytes > 0) {
        outputShown = "evidence/" + tr.id + "/kernel_output_stopped.txt";
        fs::rename(outputPath, fs::path(outDir) / outputShown, ec);
        if (ec) outputShown = outputRel;
        evidence.push_back({"what the kernels printed", outputShown});
      }
      // Stopped in one kernel while other checks of the task do not launch it, or in the performance
      // phase: one more process without that kernel (or that phase) keeps what the others earn.
      std::vector<std::string> rerun = rerunArguments(tr.id, p, stoppedAt, status, run.message);
      if (!rerun.empty()) {
        for (const Evidence& e : evidence) {
          rerun.push_back("--stopped-evidence");
          rerun.push_back(e.path);
        }
        ProcessResult second;
        progress::Position secondAt;
        const bool ok = runChild(rerun, &second, &secondAt);
        rerunJson = {{"first_outcome", outcome},
                     {"first_message", run.message},
                     {"left_out", stoppedAt.phase == progress::Step::Performance ? "the performance phase"
                                                                                 : "kernel " + stoppedAt.what}};
        run.seconds += second.seconds;
        run.peakResidentBytes = std::max(run.peakResidentBytes, second.peakResidentBytes);
        if (ok) {
          judgeLater(rerun);
          run.ok = true;
          run.outcome = "ok after a rerun";
          run.stdoutBytes = second.stdoutBytes;
          outputShown = outputRel;
          p = second;
        } else {
          // The first stop is what the task reports; how the rerun ended is kept beside it.
          Status secondStatus = Status::Error;
          std::string secondMessage, secondOutcome;
          judgeEnd(second, secondAt, s, stderrPath, &secondStatus, &secondMessage, &secondOutcome);
          rerunJson["outcome"] = secondOutcome;
          rerunJson["message"] = secondMessage;
          std::string secondLog;
          if (readFile(stderrPath, &secondLog, nullptr) && !secondLog.empty()) {
            const std::string logRel = "evidence/" + tr.id + "/grading_process_rerun.log";
            fs::rename(stderrPath, fs::path(outDir) / logRel, ec);
            if (!ec) evidence.push_back({"the rerun's messages", logRel});
          }
          if (second.stdoutBytes == 0) fs::remove(outputPath, ec);
          else evidence.push_back({"what the kernels printed in the rerun", outputRel});
        }
      }
      if (!run.ok) {
        const progress::Position& at = stoppedAt;
        const std::string caseId = at.phase == progress::Step::Case          ? at.caseId
                                   : at.phase == progress::Step::Performance ? "performance"
                                   : at.phase == progress::Step::Simulator   ? "analysis"
                                                                             : "";
        TaskReport dead = unfinishedTask(tr, kernelsDir, status, run.message, caseId, evidence);
        taskJson = taskJsonOf(dead);
      }
    }
    if (p.stdoutBytes == 0 && outputShown == outputRel) fs::remove(outputPath, ec);
    if (!rerunJson.is_null()) taskJson["rerun"] = rerunJson;
    taskJson["process"] = {{"outcome", run.outcome},
                           {"seconds", run.seconds},
                           {"peak_memory_mib", double(run.peakResidentBytes >> 10) / 1024.0},
                           {"kernel_output", p.stdoutBytes > 0 ? outputShown : ""},
                           {"kernel_output_bytes", p.stdoutBytes},
                           {"kernel_output_truncated", p.stdoutBytes > s.outputLimitBytes}};
    tasks.push_back(taskJson);
    result.runs.push_back(run);
  }
  // Each finished task's place gets the keeper's verdicts; a record that cannot be graded makes it an error.
  for (PendingReplay& pending : replays) {
    const ReplayResult r = pending.result.get();
    ordered_json& slot = tasks[pending.taskIndex];
    TaskRun& run = result.runs[pending.runIndex];
    ordered_json judged;
    if (r.problem.empty()) {
      judged = taskJsonOf(r.graded.tasks.front());
      judgedReports.push_back(ordered_json::parse(toJson(r.graded)));
    } else {
      run.ok = false;
      run.outcome = "no record";
      run.message = "the grading process finished, but what it handed back cannot be graded: " + r.problem;
      judged = taskJsonOf(unfinishedTask(*pending.task, kernelsDir, Status::Error, run.message, "", {}));
      slot["process"]["outcome"] = run.outcome;
    }
    if (slot.contains("rerun")) judged["rerun"] = slot["rerun"];
    judged["process"] = slot["process"];
    slot = std::move(judged);
  }
  for (const std::string& dir : scratches) fs::remove_all(dir, ec);
  fs::remove_all(control, ec);
  // Evidence folders of tasks that left nothing.
  for (const TaskRun& r : result.runs) fs::remove(fs::path(outDir) / "evidence" / r.task, ec);  // only when empty
  fs::remove(fs::path(outDir) / "evidence", ec);

  // The merged report: the top level of the first task this process judged (its device, settings and
  // inputs), else one built here.
  ordered_json report;
  if (!judgedReports.empty()) {
    report = judgedReports.front();
  } else {
    GradeReport skeleton;
    skeleton.version = clgradeVersion();
    skeleton.mode = s.visibleOnly ? "check" : "grade";
    skeleton.kernelsDir = kernelsDir;
    skeleton.rubricId = rubric.id;
    skeleton.rubricTitle = rubric.title;
    skeleton.rubricPath = rubric.path;
    skeleton.rubricSha256 = rubric.sha256;
    skeleton.settings = rubric.settings;
    skeleton.device = device.info;
    report = ordered_json::parse(toJson(skeleton));
  }
  double total = 0, max = 0;
  ordered_json kernelFiles = ordered_json::object();
  for (const ordered_json& t : tasks) {
    total += t.value("points", 0.0);
    max += t.value("max", 0.0);
    if (!t.value("present", false)) continue;
    kernelFiles[t.value("file", "")] = t.value("sha256", "");
    if (t.contains("included_files") && t["included_files"].is_array())
      for (const ordered_json& f : t["included_files"]) kernelFiles[f.value("file", "")] = f.value("sha256", "");
  }
  ordered_json inputs = ordered_json::array();
  std::set<std::string> seen;
  for (const ordered_json& child : judgedReports)
    if (child.contains("reproducibility") && child["reproducibility"].contains("inputs"))
      for (const ordered_json& in : child["reproducibility"]["inputs"])
        if (seen.insert(in.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)).second) inputs.push_back(in);
  report["tasks"] = tasks;
  report["total"] = total;
  report["max"] = max;
  report["reproducibility"]["kernel_files"] = kernelFiles;
  report["reproducibility"]["inputs"] = inputs;
  report["started_at"] = startedAt;
  report["sandbox"] = sandboxDescription(s.sandbox);
  report["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.report = std::move(report);
  return result;
}

}  // namespace clgrade
