#include "keeper/sandbox_probe.h"

#include <filesystem>

#include "keeper/runner_end.h"
#include "keeper/runner_process.h"
#include "protocol/channels.h"
#include "util/files.h"
#include "util/trace.h"

namespace fs = std::filesystem;

namespace clgrade {
std::string probeRunnerSandbox(const Rubric& rubric, const DeviceInfo& device, const KeeperSettings& settings,
                               ControlFolder& folders, RunnerLauncher& launcher) {
  if (rubric.tasks.empty()) return "";
  const trace::Span span("sandbox probe", "process");
  RunnerLaunch l;
  l.scratch = folders.scratchFor("probe");
  // Absolute, as every runner's: the runner starts in another folder (a relative --out, the default
  // reports/<name>, named nothing it could find).
  const std::string folder = absolutePath(folders.path());
  l.requestPath = folder + "/probe.request.json";
  l.stdoutPath = folder + "/probe.stdout";
  l.stderrPath = folder + "/probe.stderr";
  RunnerRequest& r = l.request;
  r.probe = true;
  r.task = rubric.tasks.front().id;  // a request the runner reads like any; no kernel file in it
  r.rubricPath = absolutePath(rubric.path);
  r.rubricText = rubricForTask(rubric, r.task);
  r.device = settings.device;
  r.expectedDevice = deviceIdentity(device);
  r.visibleOnly = true;
  r.outDir = l.scratch + "/" + channel::kRunnerOutFolder;
  r.recordPath = l.scratch + "/" + channel::kTapeFile;
  r.progressPath = l.scratch + "/" + channel::kProgressFile;
  r.timingLock = settings.timingLock.empty() ? "" : absolutePath(settings.timingLock);
  r.inputStore = runnersStore(settings);
  const RunnerEnded ended = launcher.run(l);
  const ProcessResult& p = ended.process;
  std::error_code ec;
  std::string said;
  readFile(l.stderrPath, &said, nullptr, size_t(1) << 20);
  said = lastLine(said);
  fs::remove_all(l.scratch, ec);
  if (p.ok()) return "";
  std::string why = !p.started ? "it could not start: " + p.error
                    : p.exitCode == kRunnerNoDevice ? "it did not find the grade's OpenCL device"
                    : p.exitCode == kRunnerCannotReach ? "a path the runners need cannot be reached"
                                                       : p.describe();
  return "the sandbox the tasks run in does not work on this machine (a probe before grading, which runs no "
         "student code: " +
         why + (said.empty() ? "" : "; it said: " + said) + ")";
}

}  // namespace clgrade
