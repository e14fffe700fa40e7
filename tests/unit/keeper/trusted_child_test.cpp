// The trusted timing's process (keeper/trusted_child.h): its timed sets take turns with every other
// process's on the GPU (the machine's timing lock), and waiting for them is not its time.
#include "keeper/trusted_child.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "../../scratch.h"
#include "model/trusted_timings.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

/// A stand-in for `clgrade time-trusted` in `dir` that takes the --timing-lock (flock(1)), as the
/// real one does for each timed set, works 0.4 s, then writes figures to --out.
TrustedTimingRequest standIn(const fs::path& dir, std::string* clgrade) {
  TrustedTimings t;
  t.takenAt = "2026-11-28T23:00:00Z";
  t.byTask["histogram"].measured = true;
  std::ofstream(dir / "figures.json") << trustedTimingsJson(t);
  *clgrade = (dir / "clgrade").string();
  std::ofstream(*clgrade)
      << "#!/bin/sh\n"
         "while [ $# -gt 0 ]; do case $1 in --timing-lock) lock=$2;; --out) out=$2;; esac; shift; done\n"
         "flock \"$lock\" true && sleep 0.4 && cp "
      << (dir / "figures.json").string() << " \"$out\"\n";
  fs::permissions(*clgrade, fs::perms::owner_all);
  TrustedTimingRequest r;
  r.rubric = "rubric.xml";
  r.device = "gpu";
  r.out = (dir / "out.json").string();
  r.timingLock = (dir / "timing.lock").string();
  return r;
}

/// Runs the stand-in with a time limit of `limit` s while this process (another job) holds the
/// timing lock for `holdSeconds`.
TrustedChildResult timedWhileHeld(const fs::path& dir, double holdSeconds, double limit) {
  std::string clgrade;
  const TrustedTimingRequest r = standIn(dir, &clgrade);
  const int fd = ::open(r.timingLock.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0600);
  EXPECT_EQ(::flock(fd, LOCK_EX), 0);
  std::thread release([fd, holdSeconds] {
    std::this_thread::sleep_for(std::chrono::duration<double>(holdSeconds));
    ::close(fd);
  });
  TrustedChildResult result = timeTrustedInChildProcess(clgrade, r, limit, (dir / "log").string());
  release.join();
  return result;
}

// Another batch's (or a check's) timings on the GPU made the batch's reference timing run out its
// time limit, and every grade then timed the reference itself beside the others.
TEST(TrustedChild, WaitingForAnotherProcesssTimingsIsNotCountedTowardsItsLimit) {
  const fs::path dir = test::freshFolder("clgrade_trusted_child", "waits");
  // 0.8 s of waiting and 0.4 s of its own work: past its limit of 1 s only if the wait counted.
  const TrustedChildResult r = timedWhileHeld(dir, 0.8, 1);
  ASSERT_NE(r.timings, nullptr) << r.problem;
  EXPECT_EQ(r.timings->takenAt, "2026-11-28T23:00:00Z");
}

// Not for ever: one more limit of waiting (a batch's grades wait for it), then stopped, saying so.
TEST(TrustedChild, AWaitPastOneMoreLimitStopsItAndSaysSo) {
  const fs::path dir = test::freshFolder("clgrade_trusted_child", "stopped");
  const TrustedChildResult r = timedWhileHeld(dir, 1.5, 0.3);
  EXPECT_EQ(r.timings, nullptr);
  EXPECT_NE(r.problem.find("waiting for another process's timings"), std::string::npos) << r.problem;
}

}  // namespace
}  // namespace clgrade
