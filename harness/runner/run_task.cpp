// `clgrade run-task REQUEST`: a task's runner, inside the sandbox (runner/runner.h).
#include <dirent.h>
#include <fcntl.h>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <iostream>
#include <memory>
#include <optional>

#include "cl/device.h"
#include "grading/grader.h"
#include "intake/kernel_sources.h"
#include "protocol/channels.h"
#include "protocol/progress.h"
#include "protocol/runner_part.h"
#include "protocol/runner_request.h"
#include "protocol/tape.h"
#include "rubric/rubric.h"
#include "runner/runner.h"
#include "util/files.h"
#include "util/install_layout.h"
#include "util/timing_lock.h"
#include "util/trace.h"

namespace clgrade {

namespace {

/// The keeper's probe (RunnerRequest::probe): every path a task's runner uses, opened as a runner
/// opens it, in its sandbox. Says the first it cannot reach.
int probePaths(const RunnerRequest& request) {
  auto unreachable = [](const std::string& what, const std::string& path) {
    std::cerr << "clgrade: " << what << " " << path << " cannot be reached in the sandbox: " << std::strerror(errno)
              << "\n";
    return kRunnerCannotReach;
  };
  if (!request.inputStore.empty()) {
    DIR* folder = opendir(request.inputStore.c_str());
    if (!folder) return unreachable("the course's inputs folder", request.inputStore);
    closedir(folder);
  }
  // The locks are opened as TimingLock opens them (one that does not open takes no turn).
  for (const std::string& lock : {request.timingLock, profilerLockFor(request.timingLock)}) {
    if (lock.empty()) continue;
    const int fd = ::open(lock.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return unreachable("the timing lock", lock);
    ::close(fd);
  }
  std::string err;
  if (!makeDirectories(request.outDir, &err)) {
    std::cerr << "clgrade: " << err << "\n";
    return kRunnerCannotReach;
  }
  progress::note(progress::Step::Done, "");
  return kRunnerOk;
}

/// A request read, and its rubric part parsed; a runner exit code.
int readRequest(const std::string& requestPath, RunnerRequest* request, Rubric* rubric) {
  std::string text, err;
  // The request holds the task's kernel file twice (bytes and expanded text, 1 MiB each at most) as base64.
  if (!readFile(requestPath, &text, &err, size_t(8) << 20) || !readRunnerRequest(text, request, &err)) {
    std::cerr << "clgrade run-task: " << requestPath << ": " << err << "\n";
    return kRunnerBadRequest;
  }
  std::vector<std::string> problems;
  if (!parseRubric(request->rubricText, request->rubricPath, rubric, &problems)) {
    std::cerr << "clgrade: the rubric cannot be used:\n";
    for (const std::string& problem : problems) std::cerr << "  " << problem << "\n";
    return kRunnerBadRequest;
  }
  return kRunnerOk;
}

/// The request's device, which must be the grade's; a runner exit code.
int openDevice(const RunnerRequest& request, DeviceEntry* device) {
  std::string err;
  {
    // A process's start on a timeline: what comes before this span is the sandbox's and the loader's.
    const trace::Span opening("open the device", "start");
    if (!chooseDevice(request.device, device, &err)) {
      std::cerr << "clgrade: " << err << "\n";
      return kRunnerNoDevice;
    }
  }
  if (!request.expectedDevice.empty() && deviceIdentity(device->info) != request.expectedDevice) {
    std::cerr << "clgrade: the OpenCL device in this sandbox is " << deviceIdentity(device->info)
              << ", not the grade's device " << request.expectedDevice << "\n";
    return kRunnerNoDevice;
  }
  // On a GPU the submission's profiler session (the keeper's, at the default priority) is the longest
  // path of a grade; the runners' CPU work (inputs made on every core, layouts) comes after it. The
  // threads this one starts inherit the priority.
  if (device->info.type == "gpu") setpriority(PRIO_PROCESS, 0, 5);
  return kRunnerOk;
}

/// The request's task graded on `device` with every device step on its tape; `shared`, when set,
/// is the context and queue of an earlier task of this process (run-tasks), else one is made and
/// kept there. `errors` gets the OpenCL error codes of the steps that failed. A runner exit code.
int gradeRequest(const RunnerRequest& request, const Rubric& rubric, const DeviceEntry& device,
                 std::optional<Runtime>* shared, std::vector<int>* errors) {
  std::string err;
  progress::setFile(request.progressPath);
  GradeOptions options;
  options.kernelsDir = request.kernelsDir;
  // The task's file as the keeper read it: the kernels folder is not in this sandbox.
  const KernelSources sources(request.kernelsDir, {{request.sourceFile, request.source}});
  options.sources = &sources;
  options.outDir = request.outDir;
  options.visibleOnly = request.visibleOnly;
  options.hiddenSeeds = request.hiddenSeeds;
  options.trustedElsewhere = true;  // the reference and naive kernels are not in this sandbox
  options.toolsDir = toolsFolder();
  options.onlyTasks = {request.task};
  options.timingLock = request.timingLock;
  options.hardwareElsewhere = request.hardwareElsewhere;
  options.store = readOnlyInputs(request.inputStore);
  if (!request.trustedTimings.empty()) {
    auto trusted = std::make_shared<TrustedTimings>();
    if (!readTrustedTimings(request.trustedTimings, trusted.get(), &err)) {
      std::cerr << "clgrade run-task: " << err << "\n";
      return kRunnerBadRequest;
    }
    options.trustedTimings = trusted;
  }
  options.discardEvidence = true;
  options.stopped = request.stopped;
  const std::shared_ptr<Tape> tape = Tape::recorder(request.recordPath, &err);
  if (!tape) {
    std::cerr << "clgrade run-task: " << err << "\n";
    return kRunnerCannotRecord;
  }
  if (request.probe) {
    tape->close();
    return probePaths(request);
  }
  if (shared && shared->has_value()) {
    Runtime runtime = **shared;  // the same context and queue, this task's tape
    runtime.tape = tape;
    gradeSubmission(runtime, rubric, options);
  } else {
    // Its context and pinned memory are released before the runner says it is done, as before.
    const Runtime runtime = [&] {
      const trace::Span making("context and queue", "start");
      return Runtime(device, tape);
    }();
    gradeSubmission(runtime, rubric, options);
    if (shared) {
      shared->emplace(runtime);
      (*shared)->tape = nullptr;
    }
  }
  progress::note(progress::Step::Done, "");
  *errors = tape->errorCodes();
  tape->close();
  return kRunnerOk;
}

/// Points this process's descriptors `fds` at a new file `path` (what follows is written there).
bool redirect(std::initializer_list<int> fds, const std::string& path) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const int file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (file < 0) return false;
  bool ok = true;
  for (int fd : fds) ok = ok && ::dup2(file, fd) == fd;
  ::close(file);
  return ok;
}

/// A part's end in `folder`, once what it printed is in its files (the keeper takes them then);
/// false with the runner's exit code where it cannot be written.
bool endPart(const std::string& folder, RunnerPartEnd end, int* failure) {
  // What the part freed goes back to the system: the next part runs under the same memory limit
  // as a runner of its own, and should not carry this one's heap.
  malloc_trim(0);
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) == 0) end.peakBytes = uint64_t(usage.ru_maxrss) << 10;
  std::string err;
  if (!redirect({1, 2}, "/dev/null")) {
    *failure = kRunnerCannotReach;
    return false;
  }
  if (!writeFileAtomically(folder + channel::kPartEnded, runnerPartText(end), &err)) {
    std::cerr << "clgrade run-tasks: " << err << "\n";
    *failure = kRunnerCannotRecord;
    return false;
  }
  return true;
}

/// The submission's counters session after its tasks' parts, on their context.
int runSessionPart(const SessionPart& session, const Runtime& shared) {
  const std::string folder = session.folder + "/";
  std::string err;
  if (!makeDirectories(folder, &err) || !makeDirectories(session.args.workDir, &err) ||
      !redirect({1, 2}, folder + channel::kSessionOutput)) {
    std::cerr << "clgrade run-tasks: the counters' folder " << folder
              << " cannot be written: " << (err.empty() ? std::strerror(errno) : err) << "\n";
    return kRunnerCannotReach;
  }
  progress::setFile("");  // the last task's progress file is the keeper's now
  // Where the counts were taken, for a person reading a task's hardware.log.
  std::cout << kSessionInTasksProcess << std::endl;
  RunnerPartEnd end;
  end.exitCode = profilerSessionInProcess(session.args, shared);
  int failure = kRunnerOk;
  return endPart(folder, end, &failure) ? kRunnerOk : failure;  // the session's own code is in its end
}

}  // namespace

/// A task's runner: the one task of the request graded on the device with every device step
/// recorded; its verdicts are thrown away (the keeper replays the record and judges). Nothing goes
/// to stdout, which holds what the kernels print.
int runTask(const std::string& requestPath) {
  RunnerRequest request;
  Rubric rubric;
  if (const int code = readRequest(requestPath, &request, &rubric)) return code;
  DeviceEntry device;
  if (const int code = openDevice(request, &device)) return code;
  std::vector<int> errors;
  return gradeRequest(request, rubric, device, nullptr, &errors);
}

int runTasks(const std::vector<std::string>& requestPaths, const SessionPart* session) {
  DeviceEntry device;
  bool opened = false;
  std::optional<Runtime> shared;
  for (const std::string& path : requestPaths) {
    RunnerRequest request;
    Rubric rubric;
    // A part that cannot start has no end written: the keeper runs its task and those after it alone.
    if (const int code = readRequest(path, &request, &rubric)) return code;
    // The part's folder is made here, in the scratch folder the sandbox's uid owns.
    const std::string part = request.recordPath.substr(0, request.recordPath.rfind('/') + 1);
    std::string err;
    if (request.probe || !makeDirectories(part, &err) || !redirect({1}, part + channel::kPartStdout) ||
        !redirect({2}, part + channel::kPartStderr)) {
      std::cerr << "clgrade run-tasks: the part's folder " << part
                << " cannot be written: " << (err.empty() ? std::strerror(errno) : err) << "\n";
      return kRunnerCannotReach;
    }
    if (!opened) {
      if (const int code = openDevice(request, &device)) return code;
      opened = true;
    }
    RunnerPartEnd end;
    end.exitCode = gradeRequest(request, rubric, device, &shared, &end.errors);
    int failure = kRunnerOk;
    if (!endPart(part, end, &failure)) return failure;
    if (end.exitCode != kRunnerOk) return end.exitCode;
    // The keeper stops the process after a part that may have left the context unfit; it should
    // not count on that to keep the counters off such a context.
    if (!partLeavesProcessFit(end)) return kRunnerOk;
  }
  if (session && shared) return runSessionPart(*session, *shared);
  return kRunnerOk;
}

}  // namespace clgrade
