// `clgrade run-task REQUEST`: a task's runner, inside the sandbox (runner/runner.h).
#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <iostream>
#include <memory>

#include "cl/device.h"
#include "grading/grader.h"
#include "intake/kernel_sources.h"
#include "protocol/channels.h"
#include "protocol/progress.h"
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

}  // namespace

/// A task's runner: the one task of the request graded on the device with every device step
/// recorded; its verdicts are thrown away (the keeper replays the record and judges). Nothing goes
/// to stdout, which holds what the kernels print.
int runTask(const std::string& requestPath) {
  std::string text, err;
  RunnerRequest request;
  // The request holds the task's kernel file twice (bytes and expanded text, 1 MiB each at most) as base64.
  if (!readFile(requestPath, &text, &err, size_t(8) << 20) || !readRunnerRequest(text, &request, &err)) {
    std::cerr << "clgrade run-task: " << requestPath << ": " << err << "\n";
    return kRunnerBadRequest;
  }
  Rubric rubric;
  std::vector<std::string> problems;
  if (!parseRubric(request.rubricText, request.rubricPath, &rubric, &problems)) {
    std::cerr << "clgrade: the rubric cannot be used:\n";
    for (const std::string& problem : problems) std::cerr << "  " << problem << "\n";
    return kRunnerBadRequest;
  }
  DeviceEntry device;
  {
    // A process's start on a timeline: what comes before this span is the sandbox's and the loader's.
    const trace::Span opening("open the device", "start");
    if (!chooseDevice(request.device, &device, &err)) {
      std::cerr << "clgrade: " << err << "\n";
      return kRunnerNoDevice;
    }
  }
  if (!request.expectedDevice.empty() && deviceIdentity(device.info) != request.expectedDevice) {
    std::cerr << "clgrade: the OpenCL device in this sandbox is " << deviceIdentity(device.info)
              << ", not the grade's device " << request.expectedDevice << "\n";
    return kRunnerNoDevice;
  }
  // On a GPU the submission's profiler session (the keeper's, at the default priority) is the longest
  // path of a grade; the runners' CPU work (inputs made on every core, layouts) comes after it. The
  // threads this one starts inherit the priority.
  if (device.info.type == "gpu") setpriority(PRIO_PROCESS, 0, 5);
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
  {
    // Its context and pinned memory are released before the runner says it is done, as before.
    const Runtime runtime = [&] {
      const trace::Span making("context and queue", "start");
      return Runtime(device, tape);
    }();
    gradeSubmission(runtime, rubric, options);
  }
  progress::note(progress::Step::Done, "");
  tape->close();
  return kRunnerOk;
}

}  // namespace clgrade
