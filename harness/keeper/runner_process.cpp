#include "keeper/runner_process.h"

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "intake/submission.h"
#include "keeper/control_folder.h"
#include "protocol/channels.h"
#include "protocol/runner_part.h"
#include "protocol/session_part.h"
#include "sandbox/sandbox.h"
#include "util/files.h"
#include "util/install_layout.h"
#include "util/lock_waiters.h"
#include "util/timing_lock.h"
#include "util/trace.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

/// Follows a runner's progress file; says when a build has run longer than its limit.
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

 private:
  std::string path_;
  double buildLimit_;
  off_t size_ = -1;
  progress::Position position_;
  double since_ = 0;
};

/// Says when what a runner wrote takes more disk than its quota, every quarter second (a walk over
/// a few files): its scratch folder, and what its compiler cache grew by while it ran (the cache is
/// kept across the submission's grades, and only one sandbox at a time holds it).
class DiskWatch {
 public:
  DiskWatch(std::string scratch, std::string cache, uint64_t quota)
      : scratch_(std::move(scratch)),
        cache_(std::move(cache)),
        quota_(quota),
        cacheBefore_(quota ? diskUsageBytes(cache_) : 0) {}
  std::string check(double t) {
    if (!quota_ || t - last_ < 0.25) return "";
    last_ = t;
    const uint64_t cache = diskUsageBytes(cache_, cacheBefore_ + quota_);
    const uint64_t used = diskUsageBytes(scratch_, quota_) + (cache > cacheBefore_ ? cache - cacheBefore_ : 0);
    return used > quota_ ? "disk" : "";
  }

 private:
  std::string scratch_, cache_;
  uint64_t quota_, cacheBefore_;
  double last_ = -1;
};

/// Puts a process into a sandbox: it sees the system's libraries, the clgrade executable and its
/// tools, the store's inputs, the timing locks and `inputs` (all read-only); it writes only
/// into its scratch folder. Never the reference or naive kernels (spec section 5c: they are timed by
/// the keeper's trusted process, RunnerProcess::timeTrusted).
bool sandboxed(std::vector<std::string> argv, const RunnerPlace& place, const std::vector<std::string>& inputs,
               const std::string& scratch, const std::string& cacheRole, ProcessSpec* spec, std::string* err) {
  const KeeperSettings& s = *place.settings;
  std::error_code ec;
  const std::string tools = s.toolsDir.empty() ? toolsFolder() : s.toolsDir;
  SandboxSpec box;
  box.scratch = absolutePath(scratch);
  box.maxProcesses = s.sandboxProcesses;
  box.memoryBytes = s.memoryLimitBytes;
  box.gpu = !s.cpuDevice;
  auto mount = [&](const std::string& path, bool writable) {
    if (fs::exists(path, ec)) box.mounts.push_back({absolutePath(path), writable});
  };
  mount(s.clgrade, false);
  for (const char* tool : {"/clgrade", "/libclgrade_oclgrind.so", "/oclgrind-icd"}) mount(tools + tool, false);
  for (const std::string& input : inputs) mount(input, false);
  if (const std::string store = runnersStore(s); !store.empty()) mount(store, false);  // never the results
  for (const std::string& lockPath : {s.timingLock, profilerLockFor(s.timingLock)}) {
    if (lockPath.empty()) continue;
    std::FILE* lock = std::fopen(lockPath.c_str(), "a");  // bwrap binds what exists
    if (lock) std::fclose(lock);
    // Read-only: flock needs no write, and a writable lock (owned by the sandbox's uid where the
    // keeper is not root) would be a file outside the scratch quota that every runner shares.
    mount(lockPath, false);
  }
  // PoCL's compiler cache belongs to this submission folder only (its kernels and clgrade's own), and
  // is kept across its grades: a kernel that writes into it changes no other student's results.
  box.cache = submissionCacheDir(place.kernelsDir, cacheRole);
  std::map<std::string, std::string> extra = trace::childEnvironment(box.scratch + "/" + channel::kTraceFile);
  extra["CLGRADE_TOOLS_DIR"] = absolutePath(tools);
  if (!s.visibleGpus.empty()) extra["CUDA_VISIBLE_DEVICES"] = s.visibleGpus;  // the batch job's GPU
  box.env = openclEnvironment(box.scratch, extra);
  spec->argv = std::move(argv);
  return sandboxProcess(box, spec, err);
}

}  // namespace

std::string runnersStore(const KeeperSettings& s) {
  if (!s.store || !s.sandbox) return "";
  const std::string folder = absolutePath(s.store.inputs->folder());
  return sandboxCanReach(folder + "/file") ? folder : "";
}

bool placeProcess(std::vector<std::string> argv, const RunnerPlace& place, const std::vector<std::string>& inputs,
                  const std::string& scratch, ProcessSpec* spec, std::string* err, const std::string& cacheRole) {
  const KeeperSettings& s = *place.settings;
  std::error_code ec;
  fs::remove_all(scratch, ec);
  if (!s.sandbox) {
    spec->argv = std::move(argv);
    if (!s.visibleGpus.empty()) spec->env["CUDA_VISIBLE_DEVICES"] = s.visibleGpus;
    makeDirectories(scratch, nullptr);
  } else if (!sandboxed(std::move(argv), place, inputs, scratch, cacheRole, spec, err)) {
    return false;
  }
  spec->outputLimitBytes = s.outputLimitBytes;
  spec->limits.noCoreDumps = true;
  spec->limits.fileSizeBytes = s.fileSizeLimitBytes;
  if (s.cpuDevice) spec->limits.addressSpaceBytes = addressSpaceLimitFor(s.memoryLimitBytes);
  spec->memoryLimitBytes = s.memoryLimitBytes;
  return true;
}

RunnerEnded RunnerProcess::run(const RunnerLaunch& launch) {
  const KeeperSettings& s = *place_.settings;
  RunnerEnded ended;
  std::string err;
  if (!writeFileAtomically(launch.requestPath, runnerRequestJson(launch.request), &err)) {
    ended.process.error = err;
    return ended;
  }
  ProcessSpec spec;
  if (!s.toolsDir.empty()) spec.env["CLGRADE_TOOLS_DIR"] = s.toolsDir;
  // The runner's request holds its task's file and rubric part: no kernels folder, no rubric file.
  const std::string role = launch.request.probe ? "probe" : launch.request.task;
  if (!placeProcess({s.clgrade, "run-task", launch.requestPath}, place_, {launch.requestPath}, launch.scratch, &spec,
                    &ended.process.error, role))
    return ended;
  spec.timeoutSeconds = runnerTimeoutSeconds(s);
  if (!s.timingLock.empty()) {
    // Waiting while another job times is not this task's time: the kernel says who waits on whom.
    // At most ten time limits of it: no runner keeps itself alive by pretending to wait.
    const std::string lock = absolutePath(s.timingLock);
    spec.waitingOnOthers = [lock](pid_t child) {
      return treeWaitsForOthersLock(lock, child) || treeWaitsForOthersLock(profilerLockFor(lock), child);
    };
    spec.uncountedLimitSeconds = 10 * s.taskTimeoutSeconds;
  }
  spec.stdoutPath = launch.stdoutPath;
  spec.stderrPath = launch.stderrPath;
  std::error_code ec;
  fs::remove(launch.request.progressPath, ec);
  ProgressWatch watch(launch.request.progressPath, s.buildTimeoutSeconds);
  const std::string cache = submissionCacheDir(place_.kernelsDir, role);
  DiskWatch disk(launch.scratch, cache, s.scratchQuotaBytes);
  spec.monitor = [&watch, &disk](double t) {
    const std::string build = watch.check(t);
    return build.empty() ? disk.check(t) : build;
  };
  if (launch.starting) launch.starting();
  const std::string name = launch.request.probe ? "runner (sandbox probe)" : "runner " + launch.request.task;
  const long long from = trace::nowMicros();
  {
    const trace::Span span(name, "process");
    ended.process = runProcess(spec);
  }
  trace::adoptChildTrace(launch.scratch + "/" + channel::kTraceFile, name, from, trace::nowMicros());
  // The cache outlives the grade: what a kernel filled it with would stay, and grow with each grade.
  if (ended.process.stoppedBy == "disk") fs::remove_all(cache, ec);
  watch.check(ended.process.seconds);
  ended.at = watch.position();
  return ended;
}

namespace {

/// One task's part of a runner of several tasks, as the keeper follows it.
struct Part {
  std::string folder;  ///< in the runner's scratch folder: its tape, progress, output, messages, end
  ProgressWatch watch;
  double start = -1;  ///< seconds since the runner started, as the part before it ended
};

/// A part's output, as ProcessSpec::outputLimitBytes would have kept it: its first `limit` bytes
/// (0: all, up to 64 MiB) copied to `to` as the keeper's own file, never through a link (and to
/// `kept` where asked); returns how many the part wrote.
uint64_t keepOutput(const std::string& from, const std::string& to, size_t limit, std::string* kept = nullptr) {
  std::error_code ec;
  fs::remove(to, ec);
  std::string start;
  uint64_t bytes = 0;
  if (!readUntrustedFileStart(from, limit ? limit : size_t(64) << 20, &start, &bytes) || bytes == 0) return 0;
  writeFileAtomically(to, start, nullptr, false);
  if (kept) *kept = std::move(start);
  return bytes;
}

}  // namespace

namespace {

bool realFolder(const std::string& path) {
  std::error_code ec;
  return fs::symlink_status(path, ec).type() == fs::file_type::directory;
}

/// `argv` with `from` (a folder) and the paths below it named under `to` instead.
std::vector<std::string> movedPaths(std::vector<std::string> argv, const std::string& from, const std::string& to) {
  for (std::string& arg : argv)
    if (arg == from || arg.compare(0, from.size() + 1, from + "/") == 0) arg = to + arg.substr(from.size());
  return argv;
}

/// The counters session's part of a runner of several tasks: its files in the runner's scratch
/// folder, and its `ended` called once whatever happens.
class SessionPartFiles {
 public:
  SessionPartFiles(const SessionLaunch* launch, const std::string& scratch)
      : launch_(launch), folder_(absolutePath(scratch) + "/session"), work_(absolutePath(scratch) + "/hardware") {}
  ~SessionPartFiles() { say(std::nullopt); }
  bool asked() const { return launch_ != nullptr; }
  /// Its place in the runner's command line: the session's file (written in `requestsFolder`), or
  /// none where it cannot be written (the session then runs in its own process).
  std::vector<std::string> args(const std::string& requestsFolder) {
    if (!launch_) return {};
    const std::string path = absolutePath(requestsFolder) + "/session.json";
    const std::vector<std::string> argv = movedPaths(launch_->argv, absolutePath(launch_->workDir), work_);
    if (!writeFileAtomically(path, sessionPartText(folder_, argv), nullptr)) {
      say(std::nullopt);
      launch_ = nullptr;
      return {};
    }
    return {"--session", path};
  }
  bool ended() const {
    std::error_code missing;
    return launch_ && fs::exists(folder_ + "/" + channel::kPartEnded, missing);
  }
  /// Once the runner has ended: the session's end, its output copied out of the sandbox's reach, and
  /// the folder of its files (the session moves them to its work folder when it reads them).
  /// `stoppedAtItsLimit`: the runner was stopped in the session at the session's own time limit.
  void handOver(double startSeconds, double endSeconds, size_t outputLimit, bool stoppedAtItsLimit) {
    if (!launch_) return;
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(work_, ec))) makeDirectories(work_, nullptr);
    // Folders the runner made, never links it left in their place.
    if (!realFolder(folder_) || !realFolder(work_)) return say(std::nullopt);
    ProcessResult p;
    p.started = true;
    p.seconds = endSeconds - startSeconds;
    std::string output;
    p.stdoutBytes = keepOutput(folder_ + "/" + channel::kSessionOutput, launch_->outputPath, outputLimit, &output);
    if (stoppedAtItsLimit) {
      // As its own process would have ended at that limit: what it counted stands, and the tasks it
      // left without counts are counted each alone (runHardwareSession), not the whole session again.
      p.timedOut = true;
      return say(p);
    }
    std::string text, why;
    RunnerPartEnd end;
    if (!readUntrustedFile(folder_ + "/" + channel::kPartEnded, 4096, &text) || !readRunnerPart(text, &end, &why) ||
        end.exitCode < 0)
      return say(std::nullopt);
    // A session that never got going beside the tasks (CUDA did not start there, say: no "==PROF=="
    // line, which the keeper would take for the machine's fault) runs in a process of its own.
    if (output.find("==PROF==") == std::string::npos) return say(std::nullopt);
    p.exitCode = end.exitCode;
    p.peakResidentBytes = end.peakBytes;
    say(p);
  }

 private:
  void say(std::optional<ProcessResult> p) {
    if (said_ || !launch_) return;
    said_ = true;
    if (launch_->ended) launch_->ended(std::move(p), work_);
  }
  const SessionLaunch* launch_;
  std::string folder_, work_;
  bool said_ = false;
};

}  // namespace

void RunnerProcess::runTogether(const std::vector<RunnerLaunch>& launches, const std::string& scratch,
                                const std::string& requestsFolder, const PartEnded& partEnded,
                                const SessionLaunch* sessionLaunch) {
  const KeeperSettings& s = *place_.settings;
  size_t told = 0;  // the parts said so far, in order
  const auto restAlone = [&](const std::string& why) {
    for (; told < launches.size(); ++told) partEnded(told, PartEnd{std::nullopt, why});
  };
  SessionPartFiles session(sessionLaunch, scratch);
  std::error_code ec;
  fs::remove_all(requestsFolder, ec);
  if (launches.empty() || !makeDirectories(requestsFolder, nullptr)) return restAlone("");
  std::vector<std::string> argv = {s.clgrade, "run-tasks"};
  std::vector<Part> parts;
  for (const RunnerLaunch& l : launches) {
    // Its part's files in the one scratch folder the sandbox may write (the runner makes the part's
    // folder); moved to the launch's own places as the part ends, out of the sandbox's reach.
    RunnerRequest request = l.request;
    const std::string folder = absolutePath(scratch) + "/" + request.task;
    request.recordPath = folder + "/" + channel::kTapeFile;
    request.progressPath = folder + "/" + channel::kProgressFile;
    request.outDir = folder + "/" + channel::kRunnerOutFolder;
    const std::string path = absolutePath(requestsFolder) + "/" + request.task + ".request";
    if (request.probe || !request.stopped.empty() || !writeFileAtomically(path, runnerRequestJson(request), nullptr))
      return restAlone("");
    argv.push_back(path);
    parts.push_back({folder, ProgressWatch(request.progressPath, s.buildTimeoutSeconds)});
  }
  std::vector<std::string> inputs{requestsFolder};
  if (session.asked()) {
    const std::vector<std::string> more = session.args(requestsFolder);
    argv.insert(argv.end(), more.begin(), more.end());
    if (session.asked()) inputs.push_back(sessionLaunch->inputs);  // else its own process counts, as before
  }
  ProcessSpec spec;
  std::string err;
  if (!s.toolsDir.empty()) spec.env["CLGRADE_TOOLS_DIR"] = s.toolsDir;
  if (!placeProcess(argv, place_, inputs, scratch, &spec, &err, "tasks")) return restAlone("");
  // Each part has a task's limit; past it the runner is stopped, and that task runs alone under its
  // limit, where waits for other jobs' timings are left out. The whole has theirs, and the counters
  // session its own.
  const double partLimit = runnerTimeoutSeconds(s);
  const double sessionLimit = session.asked() ? sessionLaunch->timeoutSeconds : 0;
  spec.timeoutSeconds = partLimit * double(parts.size()) + sessionLimit;
  if (!s.timingLock.empty()) {
    const std::string lock = absolutePath(s.timingLock);
    spec.waitingOnOthers = [lock](pid_t child) {
      return treeWaitsForOthersLock(lock, child) || treeWaitsForOthersLock(profilerLockFor(lock), child);
    };
    spec.uncountedLimitSeconds = 10 * s.taskTimeoutSeconds;
  }
  spec.stdoutPath = absolutePath(requestsFolder) + "/runner.stdout";  // before the first part: nothing of a kernel
  spec.stderrPath = absolutePath(requestsFolder) + "/runner.stderr";
  const std::string cache = submissionCacheDir(place_.kernelsDir, "tasks");
  DiskWatch disk(scratch, cache, s.scratchQuotaBytes * (parts.size() + (session.asked() ? 1 : 0)));
  // A part whose end is there is handed over at once (its replay starts while the next part runs).
  // "" when the process may go on with the next part, else why the tasks after it run alone.
  const auto handOver = [&](size_t i, double endSeconds) -> std::string {
    const RunnerLaunch& l = launches[i];
    const Part& part = parts[i];
    std::string text, why;
    RunnerPartEnd end;
    if (!readUntrustedFile(part.folder + "/" + channel::kPartEnded, 4096, &text) || !readRunnerPart(text, &end, &why) ||
        !partEndedWell(end))
      return "task " + l.request.task + "'s part in the submission's one process did not end well" +
             std::string(end.exitCode > 0 ? " (exit code " + std::to_string(end.exitCode) + ")" : "");
    fs::remove_all(l.scratch, ec);
    makeDirectories(l.scratch, nullptr);
    fs::rename(part.folder + "/" + channel::kTapeFile, l.request.recordPath, ec);
    if (ec) return "task " + l.request.task + "'s record could not be kept: " + ec.message();
    fs::rename(part.folder + "/" + channel::kProgressFile, l.request.progressPath, ec);
    RunnerEnded e;
    e.process.started = true;
    e.process.exitCode = 0;
    e.process.seconds = endSeconds - std::max(0.0, part.start);
    e.process.peakResidentBytes = end.peakBytes;  // the runner's, up to this part's end
    e.process.stdoutBytes = keepOutput(part.folder + "/" + channel::kPartStdout, l.stdoutPath, s.outputLimitBytes);
    e.process.stderrBytes = keepOutput(part.folder + "/" + channel::kPartStderr, l.stderrPath, s.outputLimitBytes);
    e.at = progress::lastPosition(l.request.progressPath);
    partEnded(told++, PartEnd{std::move(e), ""});
    if (partLeavesProcessFit(end)) return "";
    std::string codes;
    for (int code : end.errors) codes += (codes.empty() ? "" : ", ") + std::to_string(code);
    return "task " + l.request.task + " failed a device step (OpenCL error " + codes +
           ") in the submission's one process, which may have left it unfit";
  };
  size_t current = 0;
  std::string stopped;  // why the runner is stopped before its end
  parts.front().start = 0;
  double sessionStart = -1;  // as the last task's part ended
  const auto follow = [&](double t) {
    std::error_code missing;
    while (stopped.empty() && current < parts.size() &&
           fs::exists(parts[current].folder + "/" + channel::kPartEnded, missing)) {
      stopped = handOver(current, t);
      if (!stopped.empty()) return restAlone(stopped);  // the runner is stopped next
      if (++current < parts.size()) parts[current].start = t;
      else
        sessionStart = t;
    }
  };
  spec.monitor = [&](double t) -> std::string {
    follow(t);
    if (!stopped.empty()) return "a part that left the process unfit";
    if (current == parts.size()) {
      // The counters session, where it is the last part: its own limit (the tasks have been judged).
      if (sessionLimit > 0 && !session.ended() && t - sessionStart > sessionLimit) return "session time";
      return disk.check(t);
    }
    const std::string build = parts[current].watch.check(t);
    if (!build.empty()) return build;
    if (partLimit > 0 && t - parts[current].start > partLimit) return "part time";
    return disk.check(t);
  };
  const std::string name = "runner of " + std::to_string(parts.size()) + " tasks";
  const long long from = trace::nowMicros();
  ProcessResult p;
  {
    const trace::Span span(name, "process");
    p = runProcess(spec);
  }
  trace::adoptChildTrace(scratch + "/" + channel::kTraceFile, name, from, trace::nowMicros());
  if (p.stoppedBy == "disk") fs::remove_all(cache, ec);
  follow(p.seconds);  // the parts that ended after the last look
  if (stopped.empty() && told == launches.size())
    session.handOver(sessionStart, p.seconds, s.outputLimitBytes, p.stoppedBy == "session time");
  if (stopped.empty() && told < launches.size()) {
    // The process ended (or was stopped) in this part: its task and those after it run alone.
    const std::string task = "task " + launches[told].request.task + "'s part";
    stopped = p.stoppedBy == "part time" ? task + " in the submission's one process ran past the task's time limit"
              : p.stoppedBy.empty()      ? "the submission's one process ended in " + task + ": " + p.describe()
                                    : "the submission's one process was stopped in " + task + " (" + p.stoppedBy + ")";
  }
  restAlone(stopped);
}

TrustedChildResult RunnerProcess::timeTrusted(const TrustedTimingRequest& request, const std::string& logPath) {
  const KeeperSettings& s = *place_.settings;
  return timeTrustedInChildProcess(s.clgrade, request, s.taskTimeoutSeconds > 0 ? s.taskTimeoutSeconds : 300, logPath);
}

ProfiledRunner profiledRunner(const RunnerPlace& place, const std::string& workDir, const std::string& inputs) {
  return [place, workDir, inputs](const std::vector<std::string>& argv, double timeout, const std::string& logPath) {
    ProcessSpec spec;
    ProcessResult p;
    if (!placeProcess(argv, place, {inputs}, workDir, &spec, &p.error, "hardware")) return p;
    spec.timeoutSeconds = timeout;
    spec.stdoutPath = spec.stderrPath = logPath;
    ProcessResult ended;
    const long long from = trace::nowMicros();
    {
      const trace::Span span("counters session", "process");
      ended = runProcess(spec);
    }
    trace::adoptChildTrace(workDir + "/" + channel::kTraceFile, "profiled hwcount", from, trace::nowMicros());
    return ended;
  };
}

}  // namespace clgrade
