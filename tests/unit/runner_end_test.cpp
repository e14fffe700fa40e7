// A runner's end without a process (issue 10): what a stopped or dead runner means for its task, when
// it gets a second one, what that one is told to leave out, and the records that carry it.
#include <gtest/gtest.h>

#include "batch/runner_end.h"
#include "grading/runner_request.h"

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
  const auto info = rerunAfterStop("histogram", timedOut(),
                                   at(progress::Step::Case, progress::Step::Kernel, "compute_histogram_local_memory",
                                      "course"),
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
                              at(progress::Step::Case, progress::Step::Kernel, "Convolution", "course"),
                              Status::Failed, "timed out")
                   .has_value());
  ProcessResult ok;
  ok.started = true;
  ok.exitCode = 0;
  EXPECT_FALSE(rerunAfterStop("histogram", ok,
                              at(progress::Step::Case, progress::Step::Kernel, "compute_histogram", "course"),
                              Status::Failed, "")
                   .has_value());
  // A build that never ends: a rerun would build it again.
  EXPECT_FALSE(rerunAfterStop("histogram", timedOut(),
                              at(progress::Step::Case, progress::Step::Build, "-DX", "course"), Status::Failed, "")
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
  const auto timing = rerunAfterStop("separable", timedOut(),
                                     at(progress::Step::Performance, progress::Step::Performance, "", ""),
                                     Status::Failed, "timing took too long");
  ASSERT_TRUE(timing.has_value());
  EXPECT_EQ(timing->performanceStatus, Status::NotMeasured);  // only the timing stopped: nothing was wrong
}

TEST(RunnerEnd, SaysWhereTheRunnerWasStoppedAndWhy) {
  const RunnerLimits limits{30, 10, uint64_t(1024) << 20};
  const RunnerEnd hang =
      judgeRunnerEnd(timedOut(), at(progress::Step::Case, progress::Step::Kernel, "ConvVertical", "course_box4"),
                     limits, "");
  EXPECT_EQ(hang.status, Status::Failed);
  EXPECT_EQ(hang.outcome, "timed out");
  EXPECT_EQ(hang.message.rfind("timed out after 30 s", 0), 0u) << hang.message;
  EXPECT_NE(hang.message.find("ConvVertical"), std::string::npos) << hang.message;
  EXPECT_NE(hang.message.find("course_box4"), std::string::npos) << hang.message;
  EXPECT_NE(hang.message.find("never ends"), std::string::npos) << hang.message;

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

  ProcessResult exited;
  exited.started = true;
  exited.exitCode = 3;
  const RunnerEnd three = judgeRunnerEnd(exited, progress::Position(), limits, "first line\nno OpenCL device\n\n");
  EXPECT_EQ(three.outcome, "exit 3");
  EXPECT_NE(three.message.find(": no OpenCL device"), std::string::npos) << three.message;
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

}  // namespace
}  // namespace clgrade
