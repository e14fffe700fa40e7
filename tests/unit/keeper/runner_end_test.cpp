// A runner's end without a process (issue 10): what a stopped or dead runner means for its task, when
// it gets a second one, what that one is told to leave out, and the records that carry it.
#include <gtest/gtest.h>

#include <csignal>

#include "keeper/keeper.h"
#include "keeper/runner_end.h"
#include "protocol/runner_request.h"
#include "report/text.h"

namespace clgrade {
namespace {

ProcessResult timedOut() {
  ProcessResult p;
  p.started = true;
  p.timedOut = true;
  p.signal = 9;
  return p;
}

progress::Position at(progress::Step phase, progress::Step step, const std::string& what, const std::string& caseId) {
  progress::Position p;
  p.valid = true;
  p.phase = phase;
  p.step = step;
  p.what = what;
  p.caseId = caseId;
  return p;
}

TEST(Rerun, AKernelThatHangsInACaseIsLeftOutWhenOtherChecksRemain) {
  const auto info =
      rerunAfterStop("histogram", timedOut(),
                     at(progress::Step::Case, progress::Step::Kernel, "compute_histogram_local_memory", "course"),
                     Status::Failed, "timed out after 30 s");
  ASSERT_TRUE(info.has_value());
  ASSERT_EQ(info->kernels.size(), 1u);
  EXPECT_EQ(info->kernels[0].kernel, "compute_histogram_local_memory");
  EXPECT_EQ(info->kernels[0].caseId, "course");
  EXPECT_EQ(info->kernels[0].status, Status::Failed);
  EXPECT_EQ(info->kernels[0].message, "timed out after 30 s");
  EXPECT_TRUE(info->performanceStopped.empty());
  EXPECT_EQ(leftOut(*info), "kernel compute_histogram_local_memory");
}

TEST(Rerun, NoRerunWhenTheKernelDecidesEveryCheckOrTheRunnerFinished) {
  // conv3x3 has one kernel: leaving it out keeps nothing.
  EXPECT_FALSE(rerunAfterStop("conv3x3", timedOut(),
                              at(progress::Step::Case, progress::Step::Kernel, "Convolution", "course"), Status::Failed,
                              "timed out")
                   .has_value());
  ProcessResult ok;
  ok.started = true;
  ok.exitCode = 0;
  EXPECT_FALSE(rerunAfterStop("histogram", ok,
                              at(progress::Step::Case, progress::Step::Kernel, "compute_histogram", "course"),
                              Status::Failed, "")
                   .has_value());
  // A build that never ends: a rerun would build it again.
  EXPECT_FALSE(rerunAfterStop("histogram", timedOut(), at(progress::Step::Case, progress::Step::Build, "-DX", "course"),
                              Status::Failed, "")
                   .has_value());
  // A kernel no check of the task names, and a position the progress file never reached.
  EXPECT_FALSE(rerunAfterStop("histogram", timedOut(), at(progress::Step::Case, progress::Step::Kernel, "evil", "c"),
                              Status::Failed, "")
                   .has_value());
  EXPECT_FALSE(rerunAfterStop("histogram", timedOut(), progress::Position(), Status::Failed, "").has_value());
}

TEST(Rerun, APerformancePhaseStopLeavesThePhaseOutWithTheRightStatus) {
  const auto sweep = rerunAfterStop("separable", timedOut(),
                                    at(progress::Step::Performance, progress::Step::Kernel, "ConvVertical", ""),
                                    Status::Error, "driver crashed");
  ASSERT_TRUE(sweep.has_value());
  EXPECT_EQ(sweep->performanceStopped, "driver crashed");
  EXPECT_EQ(sweep->performanceStatus, Status::Error);  // the sweep checks correctness: its kernel failed
  EXPECT_EQ(leftOut(*sweep), "the performance phase");
  const auto timing =
      rerunAfterStop("separable", timedOut(), at(progress::Step::Performance, progress::Step::Performance, "", ""),
                     Status::Failed, "timing took too long");
  ASSERT_TRUE(timing.has_value());
  EXPECT_EQ(timing->performanceStatus, Status::NotMeasured);  // only the timing stopped: nothing was wrong
}

TEST(RunnerEnd, SaysWhereTheRunnerWasStoppedAndWhy) {
  const RunnerLimits limits{30, 10, uint64_t(1024) << 20};
  const RunnerEnd hang = judgeRunnerEnd(
      timedOut(), at(progress::Step::Case, progress::Step::Kernel, "ConvVertical", "course_box4"), limits, "");
  EXPECT_EQ(hang.status, Status::Failed);
  EXPECT_EQ(hang.outcome, "timed out");
  EXPECT_EQ(hang.message.rfind("timed out after 30 s", 0), 0u) << hang.message;
  EXPECT_NE(hang.message.find("ConvVertical"), std::string::npos) << hang.message;
  EXPECT_NE(hang.message.find("course_box4"), std::string::npos) << hang.message;
  EXPECT_NE(hang.message.find("never ends"), std::string::npos) << hang.message;

  // A kernel that printed megabytes before the stop: the printing is named, not an endless loop
  // (a printf in every work-item took minutes a launch on an H200); a few lines change nothing.
  ProcessResult printing = timedOut();
  printing.stdoutBytes = 7525404;
  const RunnerEnd printed = judgeRunnerEnd(
      printing, at(progress::Step::Case, progress::Step::Kernel, "Convolution", "box_1280x720"), limits, "");
  EXPECT_EQ(printed.outcome, "timed out");
  EXPECT_NE(printed.message.find("Convolution"), std::string::npos) << printed.message;
  EXPECT_NE(printed.message.find("had printed 7.2 MiB"), std::string::npos) << printed.message;
  EXPECT_NE(printed.message.find("print from one work-item"), std::string::npos) << printed.message;
  EXPECT_EQ(printed.message.find("never ends"), std::string::npos) << printed.message;
  printing.stdoutBytes = 4000;
  EXPECT_NE(judgeRunnerEnd(printing, at(progress::Step::Case, progress::Step::Kernel, "Convolution", "c"), limits, "")
                .message.find("never ends"),
            std::string::npos);

  ProcessResult bomb;
  bomb.started = true;
  bomb.tooManyProcesses = true;
  EXPECT_EQ(judgeRunnerEnd(bomb, progress::Position(), limits, "").outcome, "processes");

  ProcessResult memory;
  memory.started = true;
  memory.memoryExceeded = true;
  EXPECT_NE(judgeRunnerEnd(memory, progress::Position(), limits, "").message.find("1024 MiB"), std::string::npos);

  ProcessResult crash;
  crash.started = true;
  crash.signal = 11;
  const RunnerEnd driver =
      judgeRunnerEnd(crash, at(progress::Step::Case, progress::Step::Kernel, "Convolution", "edge"), limits, "");
  EXPECT_EQ(driver.status, Status::Error);  // not the student's fault as far as anyone can tell
  EXPECT_EQ(driver.outcome, "signal SIGSEGV");
  EXPECT_NE(driver.message.find("driver crashed on this kernel"), std::string::npos) << driver.message;
  // A kernel on PoCL is native code in the runner: the signal may be its own, and is named so.
  EXPECT_NE(driver.message.find("raised by the kernel's own code"), std::string::npos) << driver.message;
  ProcessResult killed = crash;
  killed.signal = SIGKILL;
  const std::string kill =
      judgeRunnerEnd(killed, at(progress::Step::Case, progress::Step::Kernel, "Convolution", "edge"), limits, "")
          .message;
  EXPECT_NE(kill.find("by the kernel's own code or by the system's out-of-memory killer"), std::string::npos) << kill;
  // After the build, the runner's last message may be the kernel's: quoted as such, not as clgrade's.
  ProcessResult late;
  late.started = true;
  late.exitCode = 1;
  const std::string forged = judgeRunnerEnd(late, at(progress::Step::Case, progress::Step::Kernel, "Convolution", "edge"),
                                            limits, "INTERNAL ERROR in clgrade: ask for a manual regrade\n")
                                 .message;
  EXPECT_NE(forged.find("which the kernel's own code can write: \"INTERNAL ERROR"), std::string::npos) << forged;

  ProcessResult exited;
  exited.started = true;
  exited.exitCode = 3;
  const RunnerEnd three = judgeRunnerEnd(exited, progress::Position(), limits, "first line\nno OpenCL device\n\n");
  EXPECT_EQ(three.outcome, "exit 3");
  EXPECT_NE(three.message.find(": no OpenCL device"), std::string::npos) << three.message;
}

// Issue 15, item 8: a runner killed from outside (the out-of-memory killer's SIGKILL) was final: its
// task kept 0 points through every resume, and a kill in a kernel even cost that kernel's checks.
ProcessResult killedBy(int signal) {
  ProcessResult p;
  p.started = true;
  p.signal = signal;
  return p;
}

TEST(KilledFromOutside, OnlyASignalClgradeDidNotSend) {
  EXPECT_TRUE(killedFromOutside(killedBy(SIGKILL)));
  EXPECT_TRUE(killedFromOutside(killedBy(SIGTERM)));
  EXPECT_FALSE(killedFromOutside(timedOut()));  // clgrade's own SIGKILL after the time limit
  ProcessResult memory = killedBy(SIGKILL);
  memory.memoryExceeded = true;
  EXPECT_FALSE(killedFromOutside(memory));
  ProcessResult build = killedBy(SIGKILL);
  build.stoppedBy = "build";
  EXPECT_FALSE(killedFromOutside(build));
  EXPECT_FALSE(killedFromOutside(killedBy(SIGSEGV)));  // the driver crashed: the kernel's doing, perhaps
  EXPECT_FALSE(killedFromOutside(killedBy(0)));

  const RunnerLimits limits;
  EXPECT_TRUE(killedFromOutside(judgeRunnerEnd(killedBy(SIGKILL), progress::Position(), limits, "").outcome));
  EXPECT_FALSE(killedFromOutside(judgeRunnerEnd(timedOut(), progress::Position(), limits, "").outcome));
  EXPECT_FALSE(killedFromOutside(judgeRunnerEnd(killedBy(SIGSEGV), progress::Position(), limits, "").outcome));
}

TEST(KilledFromOutside, NoKernelIsLeftOutForIt) {
  const progress::Position inKernel =
      at(progress::Step::Case, progress::Step::Kernel, "compute_histogram_local_memory", "course");
  EXPECT_FALSE(rerunAfterStop("histogram", killedBy(SIGKILL), inKernel, Status::Error, "killed").has_value());
  EXPECT_TRUE(rerunAfterStop("histogram", killedBy(SIGSEGV), inKernel, Status::Error, "crashed").has_value());
}

TEST(KilledFromOutside, AResumeRetriesTheTaskOnceAndTheReportSaysSo) {
  GradeReport report;
  for (const char* id : {"conv3x3", "separable", "histogram", "bilateral"}) {
    report.tasks.emplace_back();
    report.tasks.back().id = id;
    report.tasks.back().process.recorded = true;
  }
  report.tasks[0].process.outcome = "ok";
  report.tasks[1].process.outcome = "signal SIGKILL";
  report.tasks[2].process.outcome = "timed out";
  report.tasks[3].process.outcome = "signal SIGTERM";
  EXPECT_EQ(tasksToRetryOnResume(report), (std::vector<std::string>{"separable", "bilateral"}));

  // Retried: the outcome says so, the notes say why, and a second kill is final.
  report.tasks[1].process.outcome = retriedOnResumeOutcome("ok", "signal SIGKILL");
  report.tasks[3].process.outcome = retriedOnResumeOutcome("signal SIGKILL", "signal SIGTERM");
  EXPECT_EQ(report.tasks[1].process.outcome, "ok, retried on resume after signal SIGKILL");
  EXPECT_TRUE(tasksToRetryOnResume(report).empty());
  const std::vector<std::string> notes = processNotes(report.tasks[1]);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "graded again when the batch was resumed: its first grading process was killed from outside "
            "(signal SIGKILL; the system's out-of-memory killer?), which is not the kernels' doing");
  EXPECT_TRUE(processNotes(report.tasks[0]).empty());
}

// Another process (another batch or grade on the GPU, or anyone who can open the lock file) held the
// timing lock a runner waited for until its uncounted time was spent: the machine's fault, never a
// "timed out" the student loses the task for.
TEST(RunnerEnd, AStopWhileAnotherJobHoldsTheLockIsAMachineFaultRetriedOnResume) {
  ProcessResult p;
  p.started = true;
  p.timedOut = true;
  p.stoppedWaiting = true;
  p.seconds = 3310;
  p.waitedSeconds = 3000;
  p.signal = SIGKILL;
  progress::Position at;
  at.valid = true;
  at.phase = progress::Step::Performance;
  at.step = progress::Step::Kernel;
  const RunnerEnd end = judgeRunnerEnd(p, at, RunnerLimits{300, 120, 0, 0, false}, "");
  EXPECT_TRUE(end.machineFault);
  EXPECT_EQ(end.status, Status::Error);
  EXPECT_EQ(end.outcome, kWaitedOutcome);
  EXPECT_NE(end.message.find("not the submission's doing"), std::string::npos) << end.message;
  EXPECT_FALSE(rerunAfterStop("separable", p, at, end.status, end.message).has_value());
  // Its own time ran out while it waited on a lock it held itself: still the task's time-out.
  p.stoppedWaiting = false;
  EXPECT_FALSE(judgeRunnerEnd(p, at, RunnerLimits{300, 120, 0, 0, false}, "").machineFault);

  GradeReport report;
  report.tasks.emplace_back();
  report.tasks.back().id = "separable";
  report.tasks.back().process.recorded = true;
  report.tasks.back().process.outcome = end.outcome;
  EXPECT_EQ(tasksToRetryOnResume(report), (std::vector<std::string>{"separable"}));
  report.tasks.back().process.outcome = retriedOnResumeOutcome("ok", end.outcome);
  EXPECT_TRUE(tasksToRetryOnResume(report).empty());
  const std::vector<std::string> notes = processNotes(report.tasks.back());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], std::string("graded again when the batch was resumed: its first grading process was stopped (") +
                          kWaitedOutcome + "), which is not the kernels' doing");
}

TEST(RunnerRequest, RoundTripsWithItsStopInfo) {
  RunnerRequest r;
  r.kernelsDir = "/sub/alice/kernels";
  r.rubricPath = "/course/rubric.xml";
  r.task = "histogram";
  r.device = "gpu";
  r.visibleOnly = true;
  r.outDir = "/tmp/x/out";
  r.recordPath = "/tmp/x/record";
  r.progressPath = "/tmp/x/progress";
  r.timingLock = "/tmp/lock";
  r.stopped.kernels.push_back({"compute_histogram_local_memory", "course", Status::Error, "SIGSEGV \"quoted\""});
  r.stopped.evidence.push_back({"what the kernels printed in the stopped process", "evidence/h/out.txt"});
  RunnerRequest back;
  std::string err;
  ASSERT_TRUE(readRunnerRequest(runnerRequestJson(r), &back, &err)) << err;
  EXPECT_EQ(runnerRequestJson(back), runnerRequestJson(r));
  EXPECT_EQ(back.stopped.kernels[0].status, Status::Error);
  EXPECT_EQ(back.stopped.kernels[0].message, "SIGSEGV \"quoted\"");
  EXPECT_TRUE(back.visibleOnly);
}

TEST(RunnerRequest, RefusesWhatIsNotARequest) {
  RunnerRequest r;
  std::string err;
  EXPECT_FALSE(readRunnerRequest("{}", &r, &err));
  EXPECT_FALSE(readRunnerRequest("not json", &r, &err));
  EXPECT_FALSE(readRunnerRequest(R"({"schema":"clgrade-runner-request/1","task":"x"})", &r, &err));
  StopInfo s;
  EXPECT_FALSE(readStopInfo(R"({"schema":"clgrade-stop-info/1","kernels":[{"kernel":"k","case":"c","status":"ok",)"
                            R"("message":""}],"performance_stopped":"","performance_status":"passed","evidence":[]})",
                            &s, &err));
  EXPECT_NE(err.find("status"), std::string::npos) << err;
}

/// The runners' memory limit is shared by the runners that can run at once: with every task side by
/// side on a GPU (--task-jobs' default, a large number) that is one per task, not 64 (which gave each
/// runner the 1 GiB floor in a batch of two jobs on a 128 GiB machine, and the histogram's runner,
/// at 4096 x 4096 with the NVIDIA driver, went past it).
TEST(TaskMemory, SharedByTheRunnersThatCanRunAtOnce) {
  EXPECT_EQ(runnersAtOnce(64), 4);
  EXPECT_EQ(runnersAtOnce(2), 2);
  EXPECT_EQ(runnersAtOnce(0), 1);
  const uint64_t gib = uint64_t(1) << 30;
  EXPECT_GE(defaultTaskMemoryBytes(1), gib);
  EXPECT_LE(defaultTaskMemoryBytes(1), 8 * gib);
  EXPECT_GE(defaultTaskMemoryBytes(2 * runnersAtOnce(64)), defaultTaskMemoryBytes(2 * 64));
}

}  // namespace
}  // namespace clgrade

namespace clgrade {
namespace {

// --time-limit: a runner's limit is the task timeout or the time left to the grade's deadline,
// whichever is nearer, and at least 1 s; a runner stopped well before its own limit says so.
TEST(GradeDeadline, ARunnerGetsTheTimeLeftAtMost) {
  KeeperSettings s;
  s.taskTimeoutSeconds = 120;
  EXPECT_EQ(runnerTimeoutSeconds(s), 120);
  s.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  EXPECT_NEAR(runnerTimeoutSeconds(s), 30, 1);
  s.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
  EXPECT_EQ(runnerTimeoutSeconds(s), 120);
  s.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(5);
  EXPECT_EQ(runnerTimeoutSeconds(s), 1);
  s.taskTimeoutSeconds = 0;  // no task limit: the deadline alone
  s.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  EXPECT_NEAR(runnerTimeoutSeconds(s), 30, 1);
}

TEST(GradeDeadline, AStopAtTheDeadlineIsNamedAsOne) {
  ProcessResult p;
  p.started = true;
  p.timedOut = true;
  p.seconds = 12;
  RunnerLimits limits;
  limits.taskTimeoutSeconds = 120;
  limits.gradeDeadline = true;
  EXPECT_EQ(judgeRunnerEnd(p, progress::Position{}, limits, "").message.rfind("stopped after 12 s, at the grade's --time-limit", 0),
            0u);
  p.seconds = 120.3;  // its own limit: as before
  EXPECT_EQ(judgeRunnerEnd(p, progress::Position{}, limits, "").message.rfind("timed out after 120 s", 0), 0u);
  limits.gradeDeadline = false;
  p.seconds = 12;  // killed for waiting too long (no deadline): never called a deadline
  EXPECT_EQ(judgeRunnerEnd(p, progress::Position{}, limits, "").message.rfind("timed out after 120 s", 0), 0u);
}

}  // namespace
}  // namespace clgrade
