#include "keeper/task_keeper.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>

#include "intake/source_policy.h"
#include "keeper/runner_end.h"
#include "keeper/runner_process.h"
#include "protocol/channels.h"
#include "tasks/task.h"
#include "util/files.h"
#include "util/trace.h"

namespace fs = std::filesystem;

namespace clgrade {

TaskKeeper::TaskKeeper(const SubmissionContext& context, size_t slot, const TaskRubric& task)
    : c_(context), slot_(slot), task_(task) {}

bool TaskKeeper::refusedByPolicy(TaskReport* place, TaskRun* run) {
  // The source policy is the keeper's: a file it refuses (a link out of the folder, a FIFO, an include
  // of /etc/passwd) is judged here, as it is on this machine, and no runner starts for it.
  const Task* task = findTask(task_.id);
  if (!task) return false;
  const KernelSource& source = c_.sources->file(task->info().file);
  if (!source.exists || source.problem.empty()) return false;
  run->outcome = "refused";
  run->message = source.problem;
  *place = unfinishedTask(task_, *c_.sources, Status::Failed, source.problem);
  place->process.recorded = true;
  place->process.outcome = run->outcome;
  return true;
}

RunnerLaunch TaskKeeper::launchOf(const StopInfo& stopped, std::function<void()> starting) const {
  const KeeperSettings& s = c_.settings;
  RunnerLaunch l;
  RunnerRequest& request = l.request;
  request.kernelsDir = absolutePath(c_.kernelsDir);
  request.rubricPath = absolutePath(c_.rubric->path);
  request.rubricText = rubricText_;
  if (const Task* task = findTask(task_.id)) {
    request.sourceFile = task->info().file;
    request.source = c_.sources->file(request.sourceFile);
  }
  request.task = task_.id;
  request.device = s.device;
  request.expectedDevice = c_.deviceIdentity;
  request.visibleOnly = s.visibleOnly;
  // The derived seeds only; a check, which runs no hidden case, gets the rows' alone (a timed output
  // is read back where the keeper's replay reads it).
  request.hiddenSeeds = hiddenSeedsOf(s.hiddenSeed);
  if (s.visibleOnly) request.hiddenSeeds = HiddenSeeds{0, 0, 0, request.hiddenSeeds.rows};
  request.outDir = scratch_ + "/" + channel::kRunnerOutFolder;
  request.recordPath = tapePath_;
  request.progressPath = progressPath_;
  request.timingLock = s.timingLock.empty() ? "" : absolutePath(s.timingLock);
  request.stopped = stopped;  // the rerun protocol: the runner leaves it out
  request.hardwareElsewhere = c_.hardware.valid();
  request.trustedTimings = c_.trustedText;
  request.inputStore = runnersStore(s);
  l.requestPath = requestPath_;
  l.scratch = scratch_;
  l.stdoutPath = outputPath_;
  l.stderrPath = stderrPath_;
  l.starting = std::move(starting);
  return l;
}

RunnerEnded TaskKeeper::launch(const StopInfo& stopped, std::function<void()> starting) {
  return c_.launcher->run(launchOf(stopped, std::move(starting)));
}

std::shared_future<ReplayResult> TaskKeeper::replay(const StopInfo& stopped, const std::string& tape,
                                                    std::function<bool()> writing, const std::string& evidenceDir) {
  const SubmissionContext* c = &c_;  // outlives every replay: the submission's keeper waits for them
  return std::async(std::launch::async,
                    [c, stopped, tape, writing, evidenceDir, taskId = task_.id] {
                      // Below the runners' priority: on a busy CPU device a replay must not slow a runner towards
                      // its time limit; on a GPU machine it takes idle cores.
                      setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
                      const trace::Span span("replay " + taskId, "replay");
                      GradeOptions o;
                      o.kernelsDir = c->kernelsDir;
                      o.sources = c->sources;
                      o.outDir = evidenceDir;
                      o.visibleOnly = c->settings.visibleOnly;
                      o.evidenceCasesPerCheck = c->settings.evidenceCases;
                      o.pfmEvidence = c->settings.pfmEvidence;
                      o.imageBudgetBytes = c->settings.imageBudgetBytes;
                      o.onlyTasks = {taskId};
                      o.inputs = c->inputs;
                      o.stopped = stopped;
                      o.hardwareElsewhere = c->hardware.valid();
                      o.trustedTimings = c->trusted;
                      o.trustedBeside = c->trustedBeside;
                      if (c->hardware.valid())
                        o.hardware = [session = c->hardware, taskId] {
                          const std::map<std::string, HardwareRun>& counted = session.get();
                          const auto it = counted.find(taskId);
                          return it == counted.end() ? HardwareRun{} : it->second;
                        };
                      ReplayResult r = c->judge(o, tape, writing);
                      r.ended = std::chrono::steady_clock::now();
                      if (!writing) {
                        std::error_code ignored;
                        fs::remove(tape, ignored);
                      }
                      return r;
                    })
      .share();
}

std::string TaskKeeper::lastWords() const {
  std::string text;  // its last line ends a message; nothing when over 64 MiB
  readFile(stderrPath_, &text, nullptr, size_t(64) << 20);
  return text;
}

std::vector<Evidence> TaskKeeper::keepStoppedFiles(const ProcessResult& p, std::string* outputShown) {
  std::vector<Evidence> evidence;
  std::error_code ec;
  std::string log;
  if (readFile(stderrPath_, &log, nullptr) && !log.empty()) {
    const std::string logRel = "evidence/" + task_.id + "/grading_process.log";
    fs::rename(stderrPath_, fs::path(c_.outDir) / logRel, ec);
    if (!ec) evidence.push_back({"the grading process's messages", logRel});
  }
  if (p.stdoutBytes > 0) {
    *outputShown = "evidence/" + task_.id + "/kernel_output_stopped.txt";
    fs::rename(outputPath_, fs::path(c_.outDir) / *outputShown, ec);
    if (ec) *outputShown = outputRel_;
    evidence.push_back({"what the kernels printed", *outputShown});
  }
  return evidence;
}

bool TaskKeeper::rerun(StopInfo stop, const std::string& firstOutcome, ProcessResult* p, TaskRun* run,
                       std::vector<Evidence>* evidence, RerunRecord* record, std::string* outputShown) {
  for (const Evidence& e : *evidence)
    stop.evidence.push_back({e.path.find("kernel_output") != std::string::npos
                                 ? "what the kernels printed in the stopped process"
                                 : "the stopped grading process's messages",
                             e.path});
  const RunnerEnded second = launch(stop);
  record->ran = true;
  record->firstOutcome = firstOutcome;
  record->firstMessage = run->message;
  record->leftOut = leftOut(stop);
  run->seconds += second.process.seconds;
  run->waitedSeconds += second.process.waitedSeconds;
  run->peakResidentBytes = std::max(run->peakResidentBytes, second.process.peakResidentBytes);
  std::error_code ec;
  if (second.process.ok()) {
    // Its tape is replayed once it has ended, out of the scratch folder a later runner would clear.
    const std::string tape = scratch_ + ".record";
    fs::rename(tapePath_, tape, ec);
    c_.replays->keep(slot_, &task_, replay(stop, tape, {}, c_.outDir), "");
    run->ok = true;
    run->outcome = "ok after a rerun";
    run->stdoutBytes = second.process.stdoutBytes;
    *outputShown = outputRel_;
    *p = second.process;
    return true;
  }
  // The first stop is what the task reports; how the rerun ended is kept beside it.
  const RunnerLimits limits{c_.settings.taskTimeoutSeconds, c_.settings.buildTimeoutSeconds,
                            c_.settings.memoryLimitBytes, c_.settings.scratchQuotaBytes,
                            c_.settings.deadline.has_value()};
  const RunnerEnd secondEnd = judgeRunnerEnd(second.process, second.at, limits, lastWords());
  record->outcome = secondEnd.outcome;
  record->message = secondEnd.message;
  std::string secondLog;
  if (readFile(stderrPath_, &secondLog, nullptr) && !secondLog.empty()) {
    const std::string logRel = "evidence/" + task_.id + "/grading_process_rerun.log";
    fs::rename(stderrPath_, fs::path(c_.outDir) / logRel, ec);
    if (!ec) evidence->push_back({"the rerun's messages", logRel});
  }
  if (second.process.stdoutBytes == 0)
    fs::remove(outputPath_, ec);
  else
    evidence->push_back({"what the kernels printed in the rerun", outputRel_});
  return false;
}

bool TaskKeeper::prepare(TaskReport* place, TaskRun* run) {
  prepared_ = true;
  run->task = task_.id;
  refused_ = refusedByPolicy(place, run);
  if (refused_) return false;
  makeDirectories((fs::path(c_.outDir) / "evidence" / task_.id).string(), nullptr);
  // The runner writes only into its scratch folder: its tape, its progress, its own evidence (never
  // used: the keeper writes the report's evidence when it replays the tape).
  scratch_ = c_.folders->scratchFor(task_.id);
  tapePath_ = scratch_ + "/" + channel::kTapeFile;
  progressPath_ = scratch_ + "/" + channel::kProgressFile;
  stderrPath_ = c_.folders->path() + "/" + task_.id + ".stderr";
  outputRel_ = "evidence/" + task_.id + "/kernel_output.txt";
  outputPath_ = (fs::path(c_.outDir) / outputRel_).string();
  requestPath_ = absolutePath(c_.folders->path() + "/" + task_.id + ".request");
  rubricText_ = rubricForTask(*c_.rubric, task_.id);  // the runner sees no other task's cases
  return true;
}

void TaskKeeper::keep(TaskReport* place, TaskRun* run, const RunnerEnded* together, const std::string& alone) {
  if (!prepared_ && !prepare(place, run)) return;
  if (refused_) return;

  // The replay follows the first runner's tape while it is written, its evidence aside until the
  // runner is known to have ended well.
  const auto firstRunning = std::make_shared<std::atomic<bool>>(true);
  const std::string staged = c_.folders->path() + "/" + task_.id + ".staged";
  std::shared_future<ReplayResult> followed;
  const auto follow = [&] {
    followed = replay(
        StopInfo(), tapePath_, [firstRunning] { return firstRunning->load(); }, staged);
  };
  RunnerEnded first;
  if (together) {
    firstRunning->store(false);  // its part has ended: the replay reads a whole tape
    follow();
    first = *together;
  } else {
    first = launch(StopInfo(), follow);
  }
  firstRunning->store(false);
  ProcessResult p = first.process;
  run->ok = p.ok();
  run->seconds = p.seconds;
  run->waitedSeconds = p.waitedSeconds;
  run->peakResidentBytes = p.peakResidentBytes;
  run->stdoutBytes = p.stdoutBytes;
  std::string outputShown = outputRel_;  // the kernel output the report points to
  TaskReport report;                     // a finished runner's place: its replay fills it
  RerunRecord rerunRecord;
  if (run->ok) {
    c_.replays->keep(slot_, &task_, followed, staged);
    run->outcome = "ok";
  } else {
    // The followed replay ends at the tape's end; what it wrote aside is not this task's evidence.
    if (followed.valid()) c_.replays->discard(followed);
    const RunnerLimits limits{c_.settings.taskTimeoutSeconds, c_.settings.buildTimeoutSeconds,
                              c_.settings.memoryLimitBytes, c_.settings.scratchQuotaBytes,
                              c_.settings.deadline.has_value()};
    const RunnerEnd end = judgeRunnerEnd(p, first.at, limits, lastWords());
    run->message = end.message;
    run->outcome = end.outcome;
    std::vector<Evidence> evidence = keepStoppedFiles(p, &outputShown);
    // Stopped in one kernel while other checks of the task do not launch it, or in the performance
    // phase: one more runner without that kernel (or that phase) keeps what the others earn.
    if (std::optional<StopInfo> stop = rerunAfterStop(task_.id, p, first.at, end.status, run->message))
      rerun(*stop, end.outcome, &p, run, &evidence, &rerunRecord, &outputShown);
    if (!run->ok) {
      const progress::Position& at = first.at;
      const std::string caseId = at.phase == progress::Step::Case          ? at.caseId
                                 : at.phase == progress::Step::Performance ? "performance"
                                 : at.phase == progress::Step::Simulator   ? "analysis"
                                                                           : "";
      report = unfinishedTask(task_, *c_.sources, end.status, run->message, caseId, evidence);
      if (end.machineFault) report.machineFault = run->message;
    }
  }
  std::error_code ec;
  if (p.stdoutBytes == 0 && outputShown == outputRel_) fs::remove(outputPath_, ec);
  report.rerun = rerunRecord;
  ProcessRecord& process = report.process;
  process.recorded = true;
  process.outcome = run->outcome;
  process.seconds = run->seconds;
  process.waitedSeconds = run->waitedSeconds;
  process.peakMemoryMiB = double(run->peakResidentBytes >> 10) / 1024.0;
  process.kernelOutput = p.stdoutBytes > 0 ? outputShown : "";
  process.kernelOutputBytes = p.stdoutBytes;
  process.kernelOutputTruncated = p.stdoutBytes > c_.settings.outputLimitBytes;
  process.sharedProcess = together != nullptr;
  process.ranAloneBecause = alone;
  *place = std::move(report);
}

}  // namespace clgrade
