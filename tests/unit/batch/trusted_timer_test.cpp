// The batch's trusted timings: when they are timed again, what the report says of them, and their
// record read back as written.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include "../../scratch.h"
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
  const std::filesystem::path dir = test::freshFolder("clgrade_trusted_timer", "missing");
  s.request.out = (dir / "out.json").string();
  s.logPath = (dir / "timing.log").string();
  TrustedTimer timer(s);
  EXPECT_EQ(timer.current().figures, nullptr);
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

/// Settings whose `clgrade time-trusted` is `script` (/bin/sh, in `dir`), called as the timer calls it
/// (`--rubric R --device D --out OUT ...`: the figures go to "$7"), timed again before every grade.
TrustedTimerSettings standInSettings(const std::string& dir, const std::string& script) {
  const std::string child = dir + "/clgrade";
  std::ofstream(child) << "#!/bin/sh\n" << script;
  std::filesystem::permissions(child, std::filesystem::perms::owner_all);
  TrustedTimerSettings s;
  s.clgrade = child;
  s.request.rubric = "rubric.xml";
  s.request.out = dir + "/out.json";
  s.logPath = dir + "/timing.log";
  s.every = 1;
  return s;
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
  std::ofstream(dir + "/count") << "0";
  // The n-th call writes figures<n>.
  TrustedTimer timer(standInSettings(
      dir, "n=$(cat " + dir + "/count)\ncp " + dir + "/figures$n.json \"$7\"\necho $((n + 1)) > " + dir + "/count\n"));
  auto medianUs = [](const std::shared_ptr<const TrustedTimings>& t) {
    return t ? t->byTask.at("histogram").reference.at(0).time.medianMs * 1e3 : -1.0;
  };
  EXPECT_NEAR(medianUs(timer.current().figures), 44.7, 1e-9);
  EXPECT_NEAR(medianUs(timer.current().figures), 44.7, 1e-9) << "the 60 us re-timing was used";
  EXPECT_NE(timer.problem().find("not used"), std::string::npos) << timer.problem();
  EXPECT_NEAR(medianUs(timer.current().figures), 45.5, 1e-9);
  EXPECT_EQ(timer.problem(), "");
  std::filesystem::remove_all(dir);
}

/// A stand-in for `clgrade time-trusted` in `dir`: each call writes figures of 44.7 us to its --out
/// and adds "timed" to dir/log, where a test adds its own events.
TrustedTimerSettings standInTimer(const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/figures.json") << trustedTimingsJson(figuresWith(44.7));
  TrustedTimerSettings s = standInSettings(dir, "cp " + dir + "/figures.json \"$7\"\necho timed >> " + dir + "/log\n");
  s.quiet = true;
  return s;
}

std::string logOf(const std::string& dir) {
  std::ifstream in(dir + "/log");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Spec 5c: a re-timing on a GPU starts once the grades served before it have ended, so that no
// student kernel runs beside the reference the grades after it are scored against.
TEST(TrustedTimer, AReTimingWaitsForTheGradesServedBeforeItToEnd) {
  const std::string dir = ::testing::TempDir() + "trusted_quiet_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  TrustedTimer timer(standInTimer(dir));
  ServedFigures first = timer.current();
  ASSERT_NE(first.figures, nullptr) << timer.problem();
  EXPECT_EQ(timer.running(), 1);
  ServedFigures second;
  std::thread next([&] { second = timer.current(); });
  // However long the first grade runs, the next grade's re-timing comes after it.
  while (timer.waiting() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::ofstream(dir + "/log", std::ios::app) << "first grade ended\n";
  first.running.reset();
  next.join();
  EXPECT_EQ(logOf(dir), "timed\nfirst grade ended\ntimed\n");
  EXPECT_NE(second.figures, nullptr);
  EXPECT_EQ(timer.running(), 1);
  second.running.reset();
  EXPECT_EQ(timer.running(), 0);
  std::filesystem::remove_all(dir);
}

// A grade that does not end (a machine stuck) delays the re-timing by the wait's bound at most; then
// the reference is timed beside it (its figures still compared with the first ones). A CPU device's
// figures, which grade nothing, never wait.
TEST(TrustedTimer, AReTimingWaitsNoLongerThanItsBoundAndNotAtAllOnACpu) {
  for (const bool quiet : {true, false}) {
    const std::string dir = ::testing::TempDir() + "trusted_bound_" + std::to_string(::getpid());
    std::filesystem::remove_all(dir);
    TrustedTimerSettings s = standInTimer(dir);
    s.quiet = quiet;
    s.quietWaitSeconds = quiet ? 1 : 30;  // a CPU's re-timing waiting out its bound would fail below
    TrustedTimer timer(s);
    const ServedFigures stuck = timer.current();
    const auto asked = std::chrono::steady_clock::now();
    const ServedFigures next = timer.current();
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count();
    EXPECT_EQ(logOf(dir), "timed\ntimed\n") << "quiet: " << quiet;
    EXPECT_NE(next.figures, nullptr);
    if (quiet)
      EXPECT_GE(waited, 1.0);
    else
      EXPECT_LT(waited, 30) << "the stand-in's own time only";
    EXPECT_EQ(timer.running(), 2);
    std::filesystem::remove_all(dir);
  }
}

// Every 2 submissions: a grade stuck past the bound, two grades asking. The first to run out its
// bound times the figures and wakes the other, which finds them fresh and takes them without
// waiting its own bound out.
TEST(TrustedTimer, GradesWaitingWhenTheBoundRunsOutTakeTheFiguresTimedThen) {
  const std::string dir = ::testing::TempDir() + "trusted_woken_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  TrustedTimerSettings s = standInTimer(dir);
  s.every = 2;
  s.quietWaitSeconds = 1.5;
  TrustedTimer timer(s);
  const ServedFigures a = timer.current(), stuck = timer.current();
  const auto asked = std::chrono::steady_clock::now();
  ServedFigures first, second;
  std::thread one([&] { first = timer.current(); });
  // Half the bound later: woken as the figures are timed (at 1.5 s), not at its own bound (2.25 s).
  std::this_thread::sleep_for(std::chrono::milliseconds(750));
  std::thread two([&] { second = timer.current(); });
  one.join();
  two.join();
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count();
  EXPECT_EQ(logOf(dir), "timed\ntimed\n") << "timed once for both";
  EXPECT_LT(waited, 1.9) << "the second grade waited its own bound out";
  EXPECT_EQ(timer.running(), 4);
  std::filesystem::remove_all(dir);
}

/// How many times the stand-in of `dir` timed.
int timingsIn(const std::string& dir) {
  const std::string log = logOf(dir);
  return static_cast<int>(std::count(log.begin(), log.end(), '\n'));
}

// Spec 5c: while the batch has no figures, each grade times the reference beside the other grades'
// kernels. A timing that fails is tried again after 8 submissions, not the policy's 100, then after
// twice as many each time (a GPU that cannot time them costs a quiet wait per try).
TEST(TrustedTimer, AFailedTimingIsTriedAgainSoonThenLessOften) {
  const std::string dir = ::testing::TempDir() + "trusted_retry_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/figures.json") << trustedTimingsJson(figuresWith(44.7));
  std::ofstream(dir + "/count") << "0";
  // Fails its first `fails` calls (dir/fails), then writes the figures.
  TrustedTimerSettings s = standInSettings(dir, "n=$(cat " + dir + "/count); echo $((n + 1)) > " + dir +
                                                    "/count; echo timed >> " + dir + "/log\n[ $n -lt $(cat " + dir +
                                                    "/fails) ] && exit 1\ncp " + dir + "/figures.json \"$7\"\n");
  s.every = 100;
  std::ofstream(dir + "/fails") << "1";
  {
    TrustedTimer timer(s);
    for (int grade = 1; grade <= 8; ++grade) EXPECT_EQ(timer.current().figures, nullptr) << "grade " << grade;
    EXPECT_NE(timer.current().figures, nullptr) << "not tried again after 8 grades";
    EXPECT_EQ(timingsIn(dir), 2);
    for (int grade = 10; grade <= 40; ++grade) timer.current();
    EXPECT_EQ(timingsIn(dir), 2) << "timed again while its figures serve";
  }
  std::filesystem::remove(dir + "/log");
  std::ofstream(dir + "/count") << "0";
  std::ofstream(dir + "/fails") << "1000";
  TrustedTimer failing(s);
  for (int grade = 1; grade <= 60; ++grade) failing.current();
  EXPECT_EQ(timingsIn(dir), 4) << "tried at grades 1, 9, 25 and 57";
  // A policy that counts no submissions (timed once for the batch) is never tried again early.
  std::filesystem::remove(dir + "/log");
  s.every = 0;
  TrustedTimer once(s);
  for (int grade = 1; grade <= 60; ++grade) once.current();
  EXPECT_EQ(timingsIn(dir), 1);
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
