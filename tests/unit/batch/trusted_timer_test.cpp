// The batch's trusted timings: when they are timed again, what the report says of them, and their
// record read back as written.
#include <gtest/gtest.h>

#include "batch/trusted_timer.h"
#include "cl/device.h"
#include "grading/performance.h"
#include "model/trusted_timings.h"

namespace clgrade {
namespace {

TEST(TrustedTimer, TimedAgainWhenOldOrAfterEnoughSubmissions) {
  EXPECT_FALSE(trustedTimingsStale(60, 5, 15, 100));
  EXPECT_TRUE(trustedTimingsStale(15 * 60, 5, 15, 100));
  EXPECT_TRUE(trustedTimingsStale(60, 100, 15, 100));
  EXPECT_FALSE(trustedTimingsStale(1e6, 5, 0, 100));   // no age limit
  EXPECT_FALSE(trustedTimingsStale(60, 1000, 15, 0));  // no count limit
  EXPECT_FALSE(trustedTimingsStale(1e6, 1000000, 0, 0));
  EXPECT_TRUE(trustedTimingsStale(0, 1, 0, 1));  // before every grade
  EXPECT_EQ(trustedTimingsPolicy(15, 100), "re-timed every 15 minutes or 100 submissions");
  EXPECT_EQ(trustedTimingsPolicy(1, 0), "re-timed every 1 minute");
  EXPECT_EQ(trustedTimingsPolicy(0, 1), "re-timed every 1 submission");
  EXPECT_EQ(trustedTimingsPolicy(0, 0), "timed once for the whole batch");
}

TEST(TrustedTimer, NoFiguresWhenTheTimingProcessFails) {
  TrustedTimerSettings s;
  s.clgrade = "/nonexistent/clgrade";
  s.request.rubric = "rubric.xml";
  s.request.out = ::testing::TempDir() + "trusted_missing.json";
  s.logPath = ::testing::TempDir() + "trusted_missing.log";
  TrustedTimer timer(s);
  EXPECT_EQ(timer.current(), nullptr);
  EXPECT_NE(timer.problem().find("timing the reference kernels"), std::string::npos) << timer.problem();
}

TEST(TrustedTimings, ReadBackAsWrittenEachTaskWithItsTime) {
  TrustedTimings t;
  t.takenAt = "2026-11-26T00:00:00Z";
  t.device = "NVIDIA H100";
  t.policy = "re-timed every 15 minutes";
  PerformanceReport p;
  p.measured = true;
  p.note = "no naive kernels";
  p.copy.kernel = "copy";
  p.copy.pixels = 4096.0 * 4096;
  p.copy.time.medianMs = 0.0486123456789;
  KernelFigure ref;
  ref.kernel = "Convolution";
  ref.time.medianMs = 0.0586;
  p.reference.push_back(ref);
  t.byTask["conv3x3"] = p;
  TrustedTimings back;
  std::string err;
  ASSERT_TRUE(readTrustedTimings(trustedTimingsJson(t), &back, &err)) << err;
  EXPECT_EQ(back.takenAt, t.takenAt);
  EXPECT_EQ(back.policy, t.policy);
  ASSERT_EQ(back.byTask.count("conv3x3"), 1u);
  const PerformanceReport& q = back.byTask["conv3x3"];
  EXPECT_EQ(q.copy.time.medianMs, p.copy.time.medianMs);  // exactly: the runner and the replay must agree
  EXPECT_EQ(q.reference.at(0).kernel, "Convolution");
  EXPECT_EQ(q.note, "no naive kernels");
  EXPECT_EQ(q.trustedTimedAt, t.takenAt);
  EXPECT_FALSE(readTrustedTimings("{\"taken_at\": 3}", &back, &err));
  EXPECT_NE(err.find("do not read"), std::string::npos) << err;
}

// Figures a grade could not be scored against are not handed to a whole batch.
TEST(TrustedTimings, FiguresUnfitToServeABatchAreLeftOut) {
  DeviceInfo gpu, cpu;
  gpu.type = "gpu";
  cpu.type = "cpu";
  PerformanceReport p;
  p.copy.kernel = "copy";
  KernelFigure ref;
  ref.kernel = "Convolution";
  p.reference.push_back(ref);
  EXPECT_EQ(unfitForBatch(gpu, p), "");
  p.reference[0].untrusted = "robust CV 7.1 % above the limit";
  EXPECT_NE(unfitForBatch(gpu, p).find("Convolution: robust CV"), std::string::npos);
  EXPECT_EQ(unfitForBatch(cpu, p), "");  // indicative on a CPU device, in a grade as in the batch
  p.copy.error = "the copy kernel failed";
  EXPECT_NE(unfitForBatch(cpu, p).find("copy: the copy kernel failed"), std::string::npos);
  p.reference.clear();
  p.note = "no reference kernels (missing)";
  EXPECT_NE(unfitForBatch(gpu, p).find("no reference figures"), std::string::npos);
}

}  // namespace
}  // namespace clgrade
