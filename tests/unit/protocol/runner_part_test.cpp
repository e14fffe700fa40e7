// How a part of a runner of several tasks ended (protocol/runner_part.h): what the runner writes and
// the keeper reads, and which ends stand for the task's own runner.
#include <gtest/gtest.h>

#include "../../scratch.h"
#include "protocol/runner_part.h"
#include "protocol/tape.h"
#include "util/files.h"

namespace clgrade {
namespace {

TEST(RunnerPart, ReadsWhatTheRunnerWrote) {
  RunnerPartEnd end;
  end.exitCode = 0;
  end.peakBytes = 123456789;
  end.errors = {-11, -54};
  RunnerPartEnd read;
  std::string err;
  ASSERT_TRUE(readRunnerPart(runnerPartText(end), &read, &err)) << err;
  EXPECT_EQ(read.exitCode, 0);
  EXPECT_EQ(read.peakBytes, end.peakBytes);
  EXPECT_EQ(read.errors, end.errors);
  for (const char* bad : {"", "exit", "exit 0", "exit 0\nerrors\n", "exit x\npeak 1\nerrors\n",
                          "exit 0\npeak 1\nerrors -5 what\n", "peak 1\nexit 0\nerrors\n"})
    EXPECT_FALSE(readRunnerPart(bad, &read, &err)) << bad;
}

TEST(RunnerPart, AnEndedPartStandsAndOnlyBuildErrorsLeaveTheProcessFitForTheNext) {
  EXPECT_TRUE(partEndedWell({0, 0, {}}));
  EXPECT_TRUE(partLeavesProcessFit({0, 0, {}}));
  // A file that does not build, or lacks a kernel: the compiler's answer, the device untouched.
  EXPECT_TRUE(partLeavesProcessFit({0, 0, {-11, -46, -45, -43}}));
  EXPECT_FALSE(partEndedWell({3, 0, {}})) << "a part that did not end well";
  EXPECT_FALSE(partLeavesProcessFit({3, 0, {}}));
  EXPECT_FALSE(partEndedWell({-1, 0, {}}));
  // Out of resources, an allocation that failed, a lost queue, a launch refused, a driver's own code:
  // the part's own (it ended, its tape says so), but the tasks after it run in processes of their own.
  for (int code : {-5, -4, -6, -36, -54, -9999}) {
    EXPECT_TRUE(partEndedWell({0, 0, {-11, code}})) << code;
    EXPECT_FALSE(partLeavesProcessFit({0, 0, {-11, code}})) << code;
  }
}

TEST(RunnerPart, TheTapeKeepsTheErrorCodesItRecorded) {
  const std::string path = (test::freshFolder("clgrade-runner-part", "tape") / "record").string();
  std::string err;
  const std::shared_ptr<Tape> tape = Tape::recorder(path, &err);
  ASSERT_TRUE(tape) << err;
  tape->put(Tape::Kind::Result, "launch", "x");
  tape->put(Tape::Kind::DeviceError, "build", tape::u64(static_cast<uint64_t>(int64_t(-11))) + tape::str("log"));
  tape->put(Tape::Kind::DeviceError, "launch", tape::u64(static_cast<uint64_t>(int64_t(-5))) + tape::str(""));
  tape->close();
  EXPECT_EQ(tape->errorCodes(), (std::vector<int>{-11, -5}));
}

}  // namespace
}  // namespace clgrade
