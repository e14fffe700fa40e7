#include "batch/isolation.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <set>

#include "batch/runner_end.h"
#include "grading/analysis.h"
#include "grading/grader.h"
#include "grading/hardware_session.h"
#include "grading/performance.h"
#include "grading/runner_request.h"
#include "sandbox/sandbox.h"
#include "util/tape.h"
#include "grading/source_policy.h"
#include "tasks/task.h"
#include "util/cache_home.h"
#include "util/files.h"
#include "util/install_layout.h"
#include "util/lock_waiters.h"
#include "util/progress.h"
#include "util/sha256.h"
#include "util/side_by_side.h"
#include "util/subprocess.h"
#include "util/timing_lock.h"
#include "util/trace.h"
#include "util/utc_time.h"

namespace fs = std::filesystem;

namespace clgrade {

uint64_t defaultTaskMemoryBytes(int jobs) {
  const uint64_t physical = physicalMemoryBytes();
  const uint64_t gib = uint64_t(1) << 30;
  uint64_t share = physical ? physical / 4 * 3 / uint64_t(std::max(1, jobs)) : 8 * gib;
  return std::clamp(share, gib, 8 * gib);
}

int runnersAtOnce(int taskJobs) { return std::clamp(taskJobs, 1, static_cast<int>(allTasks().size())); }

uint64_t addressSpaceLimitFor(uint64_t memoryLimitBytes) { return 2 * memoryLimitBytes + (uint64_t(4) << 30); }

namespace {

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

using Clock = std::chrono::steady_clock;

/// A runner's record graded by the keeper: the task's report, or why the record cannot be graded.
struct ReplayResult {
  GradeReport graded;
  std::string problem;
  Clock::time_point ended;
};

/// A replay under way, and where its task goes in the merged report.
struct PendingReplay {
  size_t slot = 0;  ///< of the task in the report and the runs
  const TaskRubric* task = nullptr;
  std::shared_future<ReplayResult> result;
  Clock::time_point runnerEnded;  ///< what the replay took after it is the keeper's tail
  std::string staged;             ///< where a followed replay wrote its evidence ("" none: the report folder)
};

/// Grades `options`' one task from the record at `path` on a runtime that never touches `device`;
/// with `writing`, following the record while the runner writes it (Tape::player).
ReplayResult replayRecord(const Rubric& rubric, const DeviceEntry& device, const GradeOptions& options,
                          const std::string& path, std::function<bool()> writing = {}) {
  ReplayResult r;
  const std::shared_ptr<Tape> tape = Tape::player(path, &r.problem, std::move(writing));
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

/// Moves every file under `staged` to the same place under `outDir` (a replay that followed its
/// runner wrote its evidence aside, in case the runner failed and the replay was thrown away).
void moveStagedEvidence(const std::string& staged, const std::string& outDir) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(staged, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const fs::path to = fs::path(outDir) / fs::relative(it->path(), staged, ec);
    fs::create_directories(to.parent_path(), ec);
    fs::rename(it->path(), to, ec);
  }
  fs::remove_all(staged, ec);
}


/// An absolute, normal form of `path` (the sandbox starts in its scratch folder).
std::string absolute(const std::string& path) {
  std::error_code ec;
  const fs::path a = fs::absolute(path, ec);
  return ec ? path : a.lexically_normal().string();
}

/// Where a sandbox's files go: the report's control folder, or, when a sandbox's uid cannot reach
/// that (a report folder under a home that others cannot enter), a fresh folder under the system's
/// temporary folder (listed in `made`, for removal).
std::string reachableFolder(const std::string& control, bool sandboxed, std::vector<std::string>* made) {
  const std::string inside = absolute(control);
  if (!sandboxed || sandboxCanReach(inside + "/file")) return inside;
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / "clgrade-scratch-XXXXXX").string();
  if (!mkdtemp(pattern.data())) return inside;
  chmod(pattern.c_str(), 0755);
  made->push_back(pattern);
  return pattern;
}

/// The scratch folder of a task's runner (see reachableFolder).
std::string scratchFolder(const std::string& control, const std::string& taskId, bool sandboxed,
                          std::vector<std::string>* made) {
  return reachableFolder(control, sandboxed, made) + "/" + taskId + ".sandbox";
}

/// The timing lock of a grade whose tasks run side by side and that was given none (see
/// reachableFolder): its runners' timings and profiler sessions take turns on it.
std::string ownTimingLock(const std::string& control, bool sandboxed, std::vector<std::string>* made) {
  return reachableFolder(control, sandboxed, made) + "/timing.lock";
}

/// The store's inputs folder as the runners see it: read-only, at the same path; "" when they make
/// their own (no store; a folder their uid cannot reach would be copied, gigabytes, for every runner).
std::string runnersStore(const IsolationSettings& s) {
  if (!s.store || !s.sandbox) return "";
  const std::string folder = absolute(s.store.inputs->folder());
  return sandboxCanReach(folder + "/file") ? folder : "";
}

/// Puts a task child into a sandbox: it sees the system's libraries, the clgrade executable and its
/// tools, the rubric, this submission's kernels folder, the reference and naive kernels and the store's
/// inputs (read-only), the timing lock; it writes only into its scratch folder. Every path in its arguments is made absolute.
bool sandboxTaskChild(std::vector<std::string> argv, const IsolationSettings& s, const std::string& rubricPath,
                      const std::string& kernelsDir, const std::string& request, const std::string& scratch,
                      ProcessSpec* spec, std::string* err) {
  std::error_code ec;
  fs::remove_all(scratch, ec);
  const std::string tools = s.toolsDir.empty() ? toolsFolder() : s.toolsDir;
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
  mount(request, false);
  mount(defaultReferenceKernelsDir(), false);
  mount(defaultNaiveKernelsDir(), false);
  if (const std::string store = runnersStore(s); !store.empty()) mount(store, false);  // never the results
  for (const std::string& lockPath : {s.timingLock, profilerLockFor(s.timingLock)}) {
    if (lockPath.empty()) continue;
    std::FILE* lock = std::fopen(lockPath.c_str(), "a");  // bwrap binds what exists
    if (lock) std::fclose(lock);
    mount(lockPath, true);
  }
  // PoCL's compiler cache belongs to this submission folder only (its kernels and clgrade's own), and
  // is kept across its grades: a kernel that writes into it changes no other student's results.
  box.cache = submissionCacheDir(kernelsDir);
  std::map<std::string, std::string> extra = trace::childEnvironment(box.scratch + "/trace.json");
  extra["CLGRADE_TOOLS_DIR"] = absolute(tools);
  box.env = openclEnvironment(box.scratch, extra);
  spec->argv = std::move(argv);
  return sandboxProcess(box, spec, err);
}

/// Starts the submission's one ncu session for the bank-conflict counters of every selected task
/// with an analysis case (grading/hardware_session.h): run by this process beside the runners, the
/// profiled `clgrade hwcount` in a sandbox of its own. Not valid where there is nothing to profile
/// with (not an NVIDIA GPU, no ncu): the runners then do as they always did.
std::shared_future<std::map<std::string, HardwareRun>> startHardwareSession(
    const Rubric& rubric, const DeviceEntry& device, const std::string& kernelsDir,
    const std::vector<const TaskRubric*>& selected, const std::string& control, const std::string& outDir,
    const IsolationSettings& s, std::vector<std::string>* scratches) {
  std::string why;
  SessionRequest r;
  r.ncu = ncuFor(device.info, &why);
  if (r.ncu.empty()) return {};
  // Only files that a runner will run: a missing or refused one has nothing to profile.
  for (const TaskRubric* tr : selected)
    if (const Task* task = findTask(tr->id);
        tr->analysis.present && task && loadKernelSource(kernelsDir, task->info().file).problem.empty()) {
      r.tasks.push_back(tr->id);
      if (const std::vector<std::string> kernels = atomicsKernelsToCount(*task, *tr); !kernels.empty())
        r.atomics[tr->id] = kernels;
    }
  if (r.tasks.empty()) return {};
  r.clgrade = absolute(s.clgrade);
  r.kernelsDir = absolute(kernelsDir);
  r.rubricPath = absolute(rubric.path);
  r.workDir = scratchFolder(control, "hardware", s.sandbox, scratches);
  r.logDir = control;
  r.reportDir = outDir;
  r.timeoutSeconds = s.taskTimeoutSeconds;
  return std::async(std::launch::async, [r, s, rubricPath = rubric.path, kernelsDir] {
           // One profiler session at a time on the GPU (a batch's other jobs have theirs).
           const TimingLock turn(profilerLockFor(s.timingLock));
           const ProfiledRunner run = [&](const std::vector<std::string>& argv, double timeout,
                                          const std::string& logPath) {
             ProcessSpec spec;
             ProcessResult p;
             if (s.sandbox) {
               if (!sandboxTaskChild(argv, s, rubricPath, kernelsDir, "", r.workDir, &spec, &p.error)) return p;
             } else {
               spec.argv = argv;
               makeDirectories(r.workDir, nullptr);
             }
             spec.timeoutSeconds = timeout;
             spec.stdoutPath = spec.stderrPath = logPath;
             spec.outputLimitBytes = s.outputLimitBytes;
             spec.limits.noCoreDumps = true;
             spec.limits.fileSizeBytes = s.fileSizeLimitBytes;
             if (s.cpuDevice) spec.limits.addressSpaceBytes = addressSpaceLimitFor(s.memoryLimitBytes);
             spec.memoryLimitBytes = s.memoryLimitBytes;
             ProcessResult ended;
             {
               const trace::Span span("ncu session", "process");
               ended = runProcess(spec);
             }
             trace::adoptChildTrace(r.workDir + "/trace.json", "profiled hwcount");
             return ended;
           };
           return runHardwareSession(r, run);
         }).share();
}

}  // namespace

/// The compiler cache of one submission folder: <cache home>/clgrade/pocl/<hash of its absolute path>.
std::string submissionCacheDir(const std::string& kernelsDir) {
  std::error_code ec;
  const std::string key = sha256Hex(fs::absolute(kernelsDir, ec).lexically_normal().string()).substr(0, 24);
  return cacheHome() + "/clgrade/pocl/" + key;
}

IsolatedGrade gradeIsolated(const Rubric& rubric, const DeviceEntry& device, const std::string& kernelsDir,
                            const std::string& outDir, const std::vector<std::string>& onlyTasks,
                            const IsolationSettings& settingsIn, const std::string& kernelsProblem) {
  IsolationSettings s = settingsIn;
  // The batch's trusted figures before the clock starts: waiting while another job's grade has them
  // timed is not this submission's time.
  std::shared_ptr<const TrustedTimings> batchFigures;
  if (kernelsProblem.empty() && s.trustedTimings && (!s.sandbox || sandboxSupport().available))
    batchFigures = s.trustedTimings();
  const auto start = std::chrono::steady_clock::now();
  const std::string startedAt = nowUtc();
  if (!s.memoryLimitBytes) s.memoryLimitBytes = defaultTaskMemoryBytes(runnersAtOnce(s.taskJobs));
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

  std::vector<const TaskRubric*> selected;
  for (const TaskRubric& tr : rubric.tasks)
    if (onlyTasks.empty() || std::find(onlyTasks.begin(), onlyTasks.end(), tr.id) != onlyTasks.end())
      selected.push_back(&tr);
  // Each task has its slot from the start: the runners may finish in any order.
  std::vector<TaskReport> tasks(selected.size());
  result.runs.resize(selected.size());
  std::mutex shared;  // `scratches` and `replays`, when tasks run side by side
  std::vector<std::string> scratches;  // scratch folders outside the report folder, removed at the end
  if (s.taskJobs > 1 && s.timingLock.empty() && refused.empty())
    s.timingLock = ownTimingLock(control, s.sandbox, &scratches);  // the tasks' timings take turns
  // The batch's trusted figures as of this grade's start: the runners get them as text, the replays
  // read the same text (both must skip the same timings).
  std::string trustedText;
  std::shared_ptr<const TrustedTimings> trusted;
  if (refused.empty() && batchFigures) {
    trustedText = trustedTimingsJson(*batchFigures);
    auto read = std::make_shared<TrustedTimings>();
    if (readTrustedTimings(trustedText, read.get(), nullptr)) {
      trusted = read;
    } else {
      trustedText.clear();
    }
  }
  InputCache generated(s.hiddenSeed);  // made once for the replays of every task of this submission
  generated.hashAhead();
  generated.useStore(s.store);
  // Every task's bank-conflict counters from one ncu session beside the runners, who start none.
  std::shared_future<std::map<std::string, HardwareRun>> hardware;
  if (refused.empty())
    hardware = startHardwareSession(rubric, device, kernelsDir, selected, control, outDir, s, &scratches);
  std::vector<PendingReplay> replays;
  std::vector<std::shared_future<ReplayResult>> discarded;  // replays of runners that did not end well
  std::vector<GradeReport> judgedReports;  // the first one's device and settings head the merged report
  auto gradeTask = [&](size_t slot) {
    const TaskRubric& tr = *selected[slot];
    TaskRun run;
    run.task = tr.id;
    if (!refused.empty()) {
      run.outcome = "refused";
      run.message = refused;
      tasks[slot] = unfinishedTask(tr, kernelsDir, kernelsProblem.empty() ? Status::Error : Status::Failed, refused);
      tasks[slot].process.recorded = true;
      tasks[slot].process.outcome = run.outcome;
      result.runs[slot] = run;
      return;
    }
    // The source policy is the keeper's: a file it refuses (a link out of the folder, a FIFO, an include
    // of /etc/passwd) is judged here, as it is on this machine, and no child starts for it.
    if (const Task* task = findTask(tr.id)) {
      const KernelSource source = loadKernelSource(kernelsDir, task->info().file);
      const bool exists = fs::exists(fs::symlink_status(fs::path(kernelsDir) / task->info().file, ec));
      if (exists && !source.problem.empty()) {
        run.outcome = "refused";
        run.message = source.problem;
        tasks[slot] = unfinishedTask(tr, kernelsDir, Status::Failed, source.problem);
        tasks[slot].process.recorded = true;
        tasks[slot].process.outcome = run.outcome;
        result.runs[slot] = run;
        return;
      }
    }
    const std::string evidenceDir = (fs::path(outDir) / "evidence" / tr.id).string();
    makeDirectories(evidenceDir, nullptr);
    // The child writes only into its scratch folder: its record, its progress, its own evidence (never
    // used: this process writes the report's evidence when it replays the record).
    const std::string scratch = [&] {
      const std::lock_guard<std::mutex> hold(shared);
      return scratchFolder(control, tr.id, s.sandbox, &scratches);
    }();
    const std::string childOut = scratch + "/out";
    const std::string tapePath = scratch + "/record";
    const std::string progressPath = scratch + "/progress";
    const std::string stderrPath = control + "/" + tr.id + ".stderr";
    const std::string outputRel = "evidence/" + tr.id + "/kernel_output.txt";
    const std::string outputPath = (fs::path(outDir) / outputRel).string();
    // One runner for the task (`clgrade run-task REQUEST`); `stopped` is what an earlier one was
    // stopped by (the rerun protocol): the runner leaves it out.
    const std::string requestPath = absolute(control + "/" + tr.id + ".request");
    auto runChild = [&](const StopInfo& stopped, ProcessResult* p, progress::Position* at,
                        const std::function<void()>& starting = {}) {
      RunnerRequest request;
      request.kernelsDir = absolute(kernelsDir);
      request.rubricPath = absolute(rubric.path);
      request.task = tr.id;
      request.device = s.device;
      request.visibleOnly = s.visibleOnly;
      request.hiddenSeed = s.hiddenSeed;
      request.outDir = childOut;
      request.recordPath = tapePath;
      request.progressPath = progressPath;
      request.timingLock = s.timingLock.empty() ? "" : absolute(s.timingLock);
      request.stopped = stopped;
      request.hardwareElsewhere = hardware.valid();
      request.trustedTimings = trustedText;
      request.inputStore = runnersStore(s);
      std::string requestError;
      if (!writeFileAtomically(requestPath, runnerRequestJson(request), &requestError)) {
        p->error = requestError;
        return false;
      }
      ProcessSpec spec;
      spec.argv = {s.clgrade, "run-task", requestPath};
      if (!s.toolsDir.empty()) spec.env["CLGRADE_TOOLS_DIR"] = s.toolsDir;
      std::string sandboxError;
      fs::remove_all(scratch, ec);
      if (!s.sandbox) makeDirectories(scratch, nullptr);
      if (s.sandbox &&
          !sandboxTaskChild(spec.argv, s, rubric.path, kernelsDir, requestPath, scratch, &spec, &sandboxError)) {
        p->error = sandboxError;
        return false;
      }
      spec.timeoutSeconds = s.taskTimeoutSeconds;
      if (!s.timingLock.empty()) {
        // Waiting while another job times is not this task's time: the kernel says who waits on whom.
        // At most ten time limits of it: no runner keeps itself alive by pretending to wait.
        const std::string lock = absolute(s.timingLock);
        spec.waitingOnOthers = [lock](pid_t child) {
          return treeWaitsForOthersLock(lock, child) || treeWaitsForOthersLock(profilerLockFor(lock), child);
        };
        spec.uncountedLimitSeconds = 10 * s.taskTimeoutSeconds;
      }
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
      if (starting) starting();
      {
        const trace::Span span("runner " + tr.id, "process");
        *p = runProcess(spec);
      }
      trace::adoptChildTrace(scratch + "/trace.json", "runner " + tr.id);
      watch.check(p->seconds);
      *at = watch.position();
      return p->ok();
    };
    // The verdicts: the runner's record replayed through the same grading code by this process.
    // `writing` (the first runner): the replay follows the record while the runner writes it, and
    // writes its evidence aside (`staged`) until the runner is known to have ended well.
    auto replay = [&](const StopInfo& stopped, const std::string& record, std::function<bool()> writing,
                      const std::string& evidenceDir) {
      return std::async(std::launch::async, [&, stopped, record, writing, evidenceDir, taskId = tr.id] {
                         // Below the runners' priority: on a busy CPU device a replay must not slow a
                         // runner towards its time limit; on a GPU machine it takes idle cores.
                         setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
                         const trace::Span span("replay " + taskId, "replay");
                         GradeOptions o;
                         o.kernelsDir = kernelsDir;
                         o.outDir = evidenceDir;
                         o.visibleOnly = s.visibleOnly;
                         o.evidenceCasesPerCheck = s.evidenceCases;
                         o.pfmEvidence = s.pfmEvidence;
                         o.imageBudgetBytes = s.imageBudgetBytes;
                         o.onlyTasks = {taskId};
                         o.inputs = &generated;
                         o.stopped = stopped;
                         o.hardwareElsewhere = hardware.valid();
                         o.trustedTimings = trusted;
                         if (hardware.valid())
                           o.hardware = [session = hardware, taskId] {
                             const std::map<std::string, HardwareRun>& counted = session.get();
                             const auto it = counted.find(taskId);
                             return it == counted.end() ? HardwareRun{} : it->second;
                           };
                         ReplayResult r = replayRecord(rubric, device, o, record, writing);
                         r.ended = Clock::now();
                         if (!writing) {
                           std::error_code ignored;
                           fs::remove(record, ignored);
                         }
                         return r;
                       }).share();
    };
    auto keepReplay = [&](std::shared_future<ReplayResult> result, const std::string& staged) {
      const std::lock_guard<std::mutex> hold(shared);
      replays.push_back(PendingReplay{slot, &tr, std::move(result), Clock::now(), staged});
    };
    // A rerun's record is replayed once its runner has ended.
    auto judgeLater = [&](const StopInfo& stopped) {
      const std::string record = scratch + ".record";
      std::error_code renameError;
      fs::rename(tapePath, record, renameError);  // out of the scratch folder a rerun would clear
      keepReplay(replay(stopped, record, {}, outDir), "");
    };

    const RunnerLimits limits{s.taskTimeoutSeconds, s.buildTimeoutSeconds, s.memoryLimitBytes};
    // What the runner wrote on stderr (its last line ends a message; nothing when over 64 MiB).
    auto lastWords = [&] {
      std::string text;
      readFile(stderrPath, &text, nullptr, size_t(64) << 20);
      return text;
    };
    ProcessResult p;
    progress::Position stoppedAt;
    TaskReport taskReport;  // a finished runner's place: its replay fills it
    RerunRecord rerunRecord;
    const auto firstRunning = std::make_shared<std::atomic<bool>>(true);
    const std::string staged = control + "/" + tr.id + ".staged";
    std::shared_future<ReplayResult> followed;
    run.ok = runChild(StopInfo(), &p, &stoppedAt, [&] {
      followed = replay(StopInfo(), tapePath, [firstRunning] { return firstRunning->load(); }, staged);
    });
    firstRunning->store(false);
    run.seconds = p.seconds;
    run.waitedSeconds = p.waitedSeconds;
    run.peakResidentBytes = p.peakResidentBytes;
    run.stdoutBytes = p.stdoutBytes;
    std::string outputShown = outputRel;  // the kernel output the report points to
    if (run.ok) {
      keepReplay(followed, staged);
      run.outcome = "ok";
    } else {
      // The followed replay ends at the record's end, and what it wrote aside (removed with the
      // control folder) is not this task's evidence; it is waited for at the end, not here.
      if (followed.valid()) {
        const std::lock_guard<std::mutex> hold(shared);
        discarded.push_back(followed);
      }
      const RunnerEnd end = judgeRunnerEnd(p, stoppedAt, limits, lastWords());
      const Status status = end.status;
      const std::string outcome = end.outcome;
      run.message = end.message;
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
      if (std::optional<StopInfo> rerun = rerunAfterStop(tr.id, p, stoppedAt, status, run.message)) {
        for (const Evidence& e : evidence)
          rerun->evidence.push_back({e.path.find("kernel_output") != std::string::npos
                                         ? "what the kernels printed in the stopped process"
                                         : "the stopped grading process's messages",
                                     e.path});
        ProcessResult second;
        progress::Position secondAt;
        const bool ok = runChild(*rerun, &second, &secondAt);
        rerunRecord.ran = true;
        rerunRecord.firstOutcome = outcome;
        rerunRecord.firstMessage = run.message;
        rerunRecord.leftOut = leftOut(*rerun);
        run.seconds += second.seconds;
        run.waitedSeconds += second.waitedSeconds;
        run.peakResidentBytes = std::max(run.peakResidentBytes, second.peakResidentBytes);
        if (ok) {
          judgeLater(*rerun);
          run.ok = true;
          run.outcome = "ok after a rerun";
          run.stdoutBytes = second.stdoutBytes;
          outputShown = outputRel;
          p = second;
        } else {
          // The first stop is what the task reports; how the rerun ended is kept beside it.
          const RunnerEnd secondEnd = judgeRunnerEnd(second, secondAt, limits, lastWords());
          rerunRecord.outcome = secondEnd.outcome;
          rerunRecord.message = secondEnd.message;
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
        taskReport = unfinishedTask(tr, kernelsDir, status, run.message, caseId, evidence);
      }
    }
    if (p.stdoutBytes == 0 && outputShown == outputRel) fs::remove(outputPath, ec);
    taskReport.rerun = rerunRecord;
    ProcessRecord& process = taskReport.process;
    process.recorded = true;
    process.outcome = run.outcome;
    process.seconds = run.seconds;
    process.waitedSeconds = run.waitedSeconds;
    process.peakMemoryMiB = double(run.peakResidentBytes >> 10) / 1024.0;
    process.kernelOutput = p.stdoutBytes > 0 ? outputShown : "";
    process.kernelOutputBytes = p.stdoutBytes;
    process.kernelOutputTruncated = p.stdoutBytes > s.outputLimitBytes;
    tasks[slot] = std::move(taskReport);
    result.runs[slot] = run;
  };
  forEachSideBySide(selected.size(), s.taskJobs, [&](size_t slot) {
    if (s.onTask) s.onTask(selected[slot]->id, nullptr);
    gradeTask(slot);
    if (s.onTask) s.onTask(selected[slot]->id, &result.runs[slot]);
  });
  if (hardware.valid()) hardware.wait();  // it writes into the scratch and report folders
  // Each finished task's place gets the keeper's verdicts, in the rubric's order; a record that cannot
  // be graded makes it an error.
  std::sort(replays.begin(), replays.end(),
            [](const PendingReplay& a, const PendingReplay& b) { return a.slot < b.slot; });
  for (PendingReplay& pending : replays) {
    ReplayResult r = pending.result.get();
    TaskReport& slot = tasks[pending.slot];
    TaskRun& run = result.runs[pending.slot];
    TaskReport judged;
    slot.process.replaySeconds = std::max(0.0, std::chrono::duration<double>(r.ended - pending.runnerEnded).count());
    if (!pending.staged.empty()) {
      if (r.problem.empty()) moveStagedEvidence(pending.staged, outDir);
      else fs::remove_all(pending.staged, ec);
    }
    if (r.problem.empty()) {
      judged = std::move(r.graded.tasks.front());
      judgedReports.push_back(std::move(r.graded));
    } else {
      run.ok = false;
      run.outcome = "no record";
      run.message = "the grading process finished, but what it handed back cannot be graded: " + r.problem;
      judged = unfinishedTask(*pending.task, kernelsDir, Status::Error, run.message);
      slot.process.outcome = run.outcome;
    }
    judged.process = slot.process;
    judged.rerun = slot.rerun;
    slot = std::move(judged);
  }
  for (const std::shared_future<ReplayResult>& f : discarded) f.wait();
  for (const std::string& dir : scratches) fs::remove_all(dir, ec);
  fs::remove_all(control, ec);
  // Evidence folders of tasks that left nothing.
  for (const TaskRun& r : result.runs) fs::remove(fs::path(outDir) / "evidence" / r.task, ec);  // only when empty
  fs::remove(fs::path(outDir) / "evidence", ec);

  // The merged report: the top level of the first task this process judged (its device as the
  // runner described it, settings as applied), else one made here; the inputs of every replay.
  GradeReport report = judgedReports.empty() ? reportHeader(rubric, device.info, kernelsDir, s.visibleOnly)
                                             : judgedReports.front();
  report.tasks = std::move(tasks);
  report.sumPoints();
  report.inputs.clear();
  std::set<std::string> seen;
  for (const GradeReport& judged : judgedReports)
    for (const InputRecord& in : judged.inputs)
      if (seen.insert(in.name + "\n" + in.sha256).second) report.inputs.push_back(in);
  report.hiddenSeed.reset();
  if (!s.visibleOnly) report.hiddenSeed = s.hiddenSeed;
  report.startedAt = startedAt;
  report.sandbox = sandboxDescription(s.sandbox);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.report = std::move(report);
  return result;
}

}  // namespace clgrade
