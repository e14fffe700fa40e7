// The time a task waits while another grading job holds the timing lock is not counted towards its
// time limit (util/lock_waiters, ProcessSpec::waitingOnOthers); a child that waits on a lock of its
// own making gains nothing.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

#include "../../scratch.h"
#include "util/lock_waiters.h"
#include "util/subprocess.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

/// A process table as data: pid -> parent.
using Table = std::map<pid_t, pid_t>;
pid_t parentIn(pid_t pid, const void* table) {
  const Table& t = *static_cast<const Table*>(table);
  const auto it = t.find(pid);
  return it == t.end() ? 0 : it->second;
}

// 100 is the child (root of its tree), 101 its runner; 200 is another job; 300 is gone.
const Table kTable{{1, 0}, {50, 1}, {100, 50}, {101, 100}, {200, 50}};
const unsigned long long kDevice = makedev(0xfe, 0x00), kInode = 4242;

bool waits(const std::string& locks) { return waitsForOthersLock(locks, kDevice, kInode, 100, parentIn, &kTable); }

TEST(LockWaiters, ATreeBlockedOnAnotherJobsLockWaits) {
  EXPECT_TRUE(
      waits("1: FLOCK  ADVISORY  WRITE 200 fe:00:4242 0 EOF\n"
            "1: -> FLOCK  ADVISORY  WRITE 101 fe:00:4242 0 EOF\n"));
}

TEST(LockWaiters, HoldingTheLockOrWaitingForOneOfItsOwnIsNotWaiting) {
  // Holding it: nothing to wait for.
  EXPECT_FALSE(waits("1: FLOCK  ADVISORY  WRITE 101 fe:00:4242 0 EOF\n"));
  // One process of the tree holds, another waits: a runner cannot stop its own clock this way.
  EXPECT_FALSE(
      waits("1: FLOCK  ADVISORY  WRITE 100 fe:00:4242 0 EOF\n"
            "1: -> FLOCK  ADVISORY  WRITE 101 fe:00:4242 0 EOF\n"));
  // A holder that no longer exists (a lock passed on to a child of the tree) is no other job.
  EXPECT_FALSE(
      waits("1: FLOCK  ADVISORY  WRITE 300 fe:00:4242 0 EOF\n"
            "1: -> FLOCK  ADVISORY  WRITE 101 fe:00:4242 0 EOF\n"));
}

TEST(LockWaiters, OnlyTheTimingLockCounts) {
  // Another file (inode or device), another kind of lock, or another job waiting.
  EXPECT_FALSE(
      waits("1: FLOCK  ADVISORY  WRITE 200 fe:00:4243 0 EOF\n"
            "1: -> FLOCK  ADVISORY  WRITE 101 fe:00:4243 0 EOF\n"));
  EXPECT_FALSE(
      waits("1: FLOCK  ADVISORY  WRITE 200 fe:01:4242 0 EOF\n"
            "1: -> FLOCK  ADVISORY  WRITE 101 fe:01:4242 0 EOF\n"));
  EXPECT_FALSE(
      waits("1: POSIX  ADVISORY  WRITE 200 fe:00:4242 0 EOF\n"
            "1: -> POSIX  ADVISORY  WRITE 101 fe:00:4242 0 EOF\n"));
  EXPECT_FALSE(
      waits("1: FLOCK  ADVISORY  WRITE 101 fe:00:4242 0 EOF\n"
            "1: -> FLOCK  ADVISORY  WRITE 200 fe:00:4242 0 EOF\n"));
  EXPECT_FALSE(waits("garbage\n1: ->\n\n"));
}

/// A child of flock(1) that takes `lock`, under a 1 s time limit, while this process holds the lock
/// for `holdSeconds`.
ProcessResult runBlocked(const fs::path& lock, double holdSeconds, const std::string& script, bool uncounted,
                         double uncountedLimitSeconds = 10) {
  const int fd = ::open(lock.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(::flock(fd, LOCK_EX), 0);
  std::thread release([fd, holdSeconds] {
    std::this_thread::sleep_for(std::chrono::duration<double>(holdSeconds));
    ::close(fd);
  });
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.timeoutSeconds = 1;
  if (uncounted) {
    const std::string path = lock.string();
    spec.waitingOnOthers = [path](pid_t child) { return treeWaitsForOthersLock(path, child); };
    spec.uncountedLimitSeconds = uncountedLimitSeconds;
  }
  const ProcessResult p = runProcess(spec);
  release.join();
  return p;
}

fs::path lockFile(const std::string& name) { return test::freshFolder("clgrade_lock", name) / name; }

TEST(LockWaiters, WaitingWhileAnotherJobHoldsTheLockIsNotCountedTowardsTheTimeLimit) {
  const fs::path lock = lockFile("timing.lock");
  const std::string takeIt = "flock " + lock.string() + " true";
  const ProcessResult waited = runBlocked(lock, 2.5, takeIt, true);
  EXPECT_TRUE(waited.ok()) << waited.describe();
  EXPECT_GT(waited.waitedSeconds, 1.5);
  EXPECT_LE(waited.waitedSeconds, waited.seconds);
  // Without the watch the same wait is a time-out.
  const ProcessResult counted = runBlocked(lock, 2.5, takeIt, false);
  EXPECT_TRUE(counted.timedOut) << counted.describe();
}

TEST(LockWaiters, AChildStoppedWhileAnotherJobStillHoldsTheLockSaysSo) {
  // The other job holds the lock past the uncounted time (1 s here): the stop is the wait's.
  const fs::path lock = lockFile("held.lock");
  const ProcessResult p = runBlocked(lock, 3, "flock " + lock.string() + " true", true, 1);
  EXPECT_TRUE(p.timedOut) << p.describe();
  EXPECT_TRUE(p.stoppedWaiting) << p.describe();
  EXPECT_GE(p.waitedSeconds, 1);
}

TEST(LockWaiters, AChildWaitingOnItselfStillTimesOut) {
  const fs::path lock = lockFile("own.lock");
  // Its own background process takes the lock first; the foreground then blocks on it.
  const std::string script = "flock " + lock.string() + " sleep 30 & sleep 0.3; flock " + lock.string() + " true";
  const ProcessResult p = runBlocked(lock, 0, script, true);
  EXPECT_TRUE(p.timedOut) << p.describe();
  EXPECT_FALSE(p.stoppedWaiting);
  EXPECT_LT(p.waitedSeconds, 0.5);
}

}  // namespace
}  // namespace clgrade
