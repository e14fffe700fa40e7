// The batch's trusted timings: when they are timed again, what the report says of them, and their
// record read back as written.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

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

/// Figures of one task with one reference kernel of `referenceUs` (untrusted: a CPU's).
TrustedTimings figuresWith(double referenceUs, const std::string& untrusted = "") {
  TrustedTimings t;
  t.takenAt = "2026-11-28T16:00:00Z";
  t.device = "NVIDIA H200";
  t.policy = "re-timed every 1 submission";
  PerformanceReport& p = t.byTask["histogram"];
  p.measured = true;
  KernelFigure k;
  k.kernel = "compute_histogram_local_memory";
  k.time.medianMs = referenceUs / 1e3;
  k.untrusted = untrusted;
  p.reference.push_back(k);
  return t;
}

// Spec 5c: a re-timing during a batch runs beside the grades already running on the GPU; a kernel
// that kept it busy would slow the reference for the grades after it. Re-timed figures slower than
// the batch's first (quiet) ones by more than the limit are not used.
TEST(TrustedTimer, ReTimedFiguresMuchSlowerThanTheFirstAreNotUsed) {
  const TrustedTimings first = figuresWith(44.7);
  EXPECT_EQ(slowerThanFirst(first, figuresWith(46.0), 0.10), "") << "drift within the limit";
  EXPECT_EQ(slowerThanFirst(first, figuresWith(40.0), 0.10), "") << "faster is no one's doing";
  const std::string why = slowerThanFirst(first, figuresWith(49.8), 0.10);
  EXPECT_NE(why.find("histogram: compute_histogram_local_memory took 49.8 us against 44.7 us"), std::string::npos)
      << why;
  EXPECT_NE(why.find("+11 %"), std::string::npos) << why;
  EXPECT_EQ(slowerThanFirst(figuresWith(44.7, "a CPU"), figuresWith(90.0, "a CPU"), 0.10), "")
      << "a CPU's figures are never graded";
  TrustedTimings other = figuresWith(90.0);
  other.byTask["histogram"].reference[0].kernel = "another kernel";
  EXPECT_EQ(slowerThanFirst(first, other, 0.10), "");
}

// The timer keeps the figures it served when a re-timing comes back much slower, and takes the next
// re-timing that is not.
TEST(TrustedTimer, KeepsItsFiguresWhenAReTimingIsMuchSlower) {
  const std::string dir = ::testing::TempDir() + "trusted_slower_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::vector<double> timed{44.7, 60.0, 45.5};  // the second re-timing beside a busy GPU
  for (size_t i = 0; i < timed.size(); ++i) {
    std::ofstream(dir + "/figures" + std::to_string(i) + ".json") << trustedTimingsJson(figuresWith(timed[i]));
  }
  const std::string child = dir + "/clgrade";
  std::ofstream(dir + "/count") << "0";
  {
    std::ofstream script(child);
    // `clgrade time-trusted --rubric R --device D --out OUT ...`: the n-th call writes figures<n>.
    script << "#!/bin/sh\nn=$(cat " << dir << "/count)\ncp " << dir << "/figures$n.json \"$7\"\necho $((n + 1)) > "
           << dir << "/count\n";
  }
  std::filesystem::permissions(child, std::filesystem::perms::owner_all);
  TrustedTimerSettings s;
  s.clgrade = child;
  s.request.rubric = "rubric.xml";
  s.request.out = dir + "/out.json";
  s.logPath = dir + "/timing.log";
  s.every = 1;  // timed again before every grade
  TrustedTimer timer(s);
  auto medianUs = [](const std::shared_ptr<const TrustedTimings>& t) {
    return t ? t->byTask.at("histogram").reference.at(0).time.medianMs * 1e3 : -1.0;
  };
  EXPECT_NEAR(medianUs(timer.current()), 44.7, 1e-9);
  EXPECT_NEAR(medianUs(timer.current()), 44.7, 1e-9) << "the 60 us re-timing was used";
  EXPECT_NE(timer.problem().find("not used"), std::string::npos) << timer.problem();
  EXPECT_NEAR(medianUs(timer.current()), 45.5, 1e-9);
  EXPECT_EQ(timer.problem(), "");
  std::filesystem::remove_all(dir);
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
