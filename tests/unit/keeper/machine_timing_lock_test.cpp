// One timing lock per GPU for every clgrade process of the machine (keeper/machine_timing_lock.h):
// a batch or a grade that named no lock took its own, so two of them on one GPU timed their kernels
// at once and each slowed the other's figures.
#include "keeper/machine_timing_lock.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sandbox/sandbox.h"
#include "util/subprocess.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

DeviceInfo gpu(const std::string& physicalId, const std::string& platform = "NVIDIA CUDA") {
  DeviceInfo d;
  d.platform = platform;
  d.name = "NVIDIA H200";
  d.driver = "580.159.04";
  d.type = "gpu";
  d.physicalId = physicalId;
  return d;
}

class MachineTimingLockTest : public testing::Test {
 protected:
  void SetUp() override {
    root = fs::temp_directory_path() / ("clgrade-machine-lock-" + std::to_string(getpid()) + "-" +
                                        testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    fs::create_directories(root);
  }
  void TearDown() override { fs::remove_all(root); }
  fs::path root;
};

TEST_F(MachineTimingLockTest, OneGpuSeenUnderTwoNumberingsGetsOneLockAndAnotherGpuItsOwn) {
  const std::string folder = (root / "locks").string();
  std::string why;
  DeviceInfo seenAsGpu0 = gpu("uuid-0123456789abcdef0123456789abcdef");
  DeviceInfo seenAsGpu1ElsewhereButTheSame = seenAsGpu0;
  seenAsGpu1ElsewhereButTheSame.name = "NVIDIA H200 (another process's numbering)";
  const std::string a = machineTimingLock(seenAsGpu0, false, &why, folder);
  const std::string b = machineTimingLock(seenAsGpu1ElsewhereButTheSame, false, &why, folder);
  const std::string other = machineTimingLock(gpu("pci-0000-1b-00"), false, &why, folder);
  EXPECT_EQ(a, folder + "/timing-uuid-0123456789abcdef0123456789abcdef.lock");
  EXPECT_EQ(a, b);
  EXPECT_EQ(other, folder + "/timing-pci-0000-1b-00.lock");
  // Made, so that a sandbox can bind it; a sandbox's uid can pass through the folder.
  EXPECT_TRUE(fs::is_regular_file(a));
  EXPECT_TRUE(fs::is_regular_file(other));
  struct stat st {};
  ASSERT_EQ(::stat(folder.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0711u);
}

TEST_F(MachineTimingLockTest, NoneForACpuDeviceOclgrindOrAGpuItsDriverDoesNotName) {
  const std::string folder = (root / "locks").string();
  std::string why;
  DeviceInfo cpu = gpu("uuid-00000000000000000000000000000001", "Portable Computing Language");
  cpu.type = "cpu";
  EXPECT_EQ(machineTimingLock(cpu, false, &why, folder), "");
  EXPECT_EQ(why, "not a GPU");
  EXPECT_EQ(machineTimingLock(gpu("uuid-00000000000000000000000000000002", "Oclgrind"), false, &why, folder), "");
  EXPECT_EQ(machineTimingLock(gpu(""), false, &why, folder), "");
  EXPECT_NE(why.find("does not say which GPU"), std::string::npos) << why;
  EXPECT_FALSE(fs::exists(folder));
}

TEST_F(MachineTimingLockTest, TheLockAndItsProfilerLockAreThisUsersAndItsSandboxesWhateverTheUmask) {
  const std::string folder = (root / "locks").string();
  for (const mode_t umask : {mode_t(077), mode_t(0)}) {
    fs::remove_all(folder);  // made under this umask
    const mode_t before = ::umask(umask);
    std::string why;
    const std::string lock = machineTimingLock(gpu("pci-0000-1b-00-0"), false, &why, folder);
    ::umask(before);
    ASSERT_NE(lock, "") << why;
    for (const std::string& file : {lock, lock + ".profiler"}) {
      struct stat st {};
      ASSERT_EQ(::stat(file.c_str(), &st), 0) << file;
      // As root, its sandboxes (uids of their own) read it through their group; else they run as this user.
      EXPECT_EQ(st.st_mode & 0777, geteuid() != 0 ? 0600u : sandboxLockGroup() >= 0 ? 0640u : 0644u) << file;
      if (sandboxLockGroup() >= 0) {
        EXPECT_EQ(long(st.st_gid), sandboxLockGroup()) << file;
      }
    }
  }
}

// A local user who could open the lock could hold it and stall every timing on the GPU (the
// runners waiting, then stopped as machine faults); the sandboxes, whose runners take it, still can.
TEST_F(MachineTimingLockTest, ASandboxOpensTheLockAndAnotherLocalUserCannot) {
  if (geteuid() != 0 || !sandboxSupport().available) GTEST_SKIP() << "needs root's sandboxes (uids of their own)";
  if (sandboxLockGroup() < 0) GTEST_SKIP() << "this machine has a group of the sandboxes' lock group's id";
  const std::string folder = (root / "locks").string();
  std::string why;
  const std::string lock = machineTimingLock(gpu("pci-0000-1b-00-0"), true, &why, folder);
  ASSERT_NE(lock, "") << why;
  for (const std::string& file : {lock, lock + ".profiler"}) {
    SandboxSpec box;
    box.scratch = (root / "scratch").string();
    box.mounts = {{file, false}};
    box.env = {{"PATH", "/usr/bin:/bin"}};
    ProcessSpec inside;
    inside.argv = {"/bin/sh", "-c", ": < \"$0\"", file};
    inside.timeoutSeconds = 30;
    ProcessSpec nobody = inside;
    ASSERT_TRUE(sandboxProcess(box, &inside, &why)) << why;
    const ProcessResult opened = runProcess(inside);
    EXPECT_TRUE(opened.ok()) << file << ": " << opened.describe();
    nobody.uid = nobody.gid = 65534;
    const ProcessResult refused = runProcess(nobody);
    EXPECT_TRUE(refused.started && refused.exitCode != 0) << file << " opens for another user: " << refused.describe();
  }
}

TEST_F(MachineTimingLockTest, AFolderOrFileAnotherUserOwnsIsRefused) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to give a folder to another user";
  std::string why;
  const fs::path theirs = root / "theirs";
  fs::create_directories(theirs);
  ASSERT_EQ(::chown(theirs.c_str(), 65534, 65534), 0);
  EXPECT_EQ(machineTimingLock(gpu("pci-0000-1b-00-0"), false, &why, theirs.string()), "");
  EXPECT_NE(why.find("belongs to another user"), std::string::npos) << why;
  // A lock file planted in our own folder by another user (or a link to elsewhere).
  const fs::path ours = root / "ours";
  fs::create_directories(ours);
  std::ofstream(ours / "timing-pci-0000-1b-00-0.lock") << "";
  ASSERT_EQ(::chown((ours / "timing-pci-0000-1b-00-0.lock").c_str(), 65534, 65534), 0);
  EXPECT_EQ(machineTimingLock(gpu("pci-0000-1b-00-0"), false, &why, ours.string()), "");
  EXPECT_NE(why.find("belongs to another user"), std::string::npos) << why;
  fs::create_symlink("/etc/hostname", ours / "timing-pci-0000-1b-00-1.lock");
  EXPECT_EQ(machineTimingLock(gpu("pci-0000-1b-00-1"), false, &why, ours.string()), "");
  EXPECT_NE(why.find("cannot be made"), std::string::npos) << why;
}

TEST_F(MachineTimingLockTest, AFolderThatCannotBeMadeGivesNoLockAndSaysWhy) {
  std::ofstream(root / "in-the-way") << "a file where the folder would be";
  std::string why;
  EXPECT_EQ(machineTimingLock(gpu("pci-0000-1b-00"), false, &why, (root / "in-the-way" / "locks").string()), "");
  EXPECT_FALSE(why.empty());
}

TEST_F(MachineTimingLockTest, AFolderASandboxCannotReachGivesNoLockWhereSandboxed) {
  if (geteuid() != 0 || !sandboxSupport().available) GTEST_SKIP() << "needs root's sandboxes (uids of their own)";
  // The sandbox's uid cannot pass through a folder only root may enter.
  const fs::path closed = root / "closed";
  fs::create_directories(closed);
  ::chmod(closed.c_str(), 0700);
  const std::string folder = (closed / "locks").string();
  std::string why;
  EXPECT_NE(machineTimingLock(gpu("pci-0000-1b-00"), false, &why, folder), "");
  EXPECT_EQ(machineTimingLock(gpu("pci-0000-1b-00"), true, &why, folder), "");
  EXPECT_NE(why.find("a sandbox cannot reach"), std::string::npos) << why;
  ::chmod(closed.c_str(), 0755);
  EXPECT_NE(machineTimingLock(gpu("pci-0000-1b-00"), true, &why, folder), "");
}

TEST(MachineLockFolder, LiesInClgradesCacheHome) {
  const std::string folder = machineLockFolder();
  EXPECT_NE(folder.find("/clgrade/locks"), std::string::npos) << folder;
  if (geteuid() == 0) {
    EXPECT_EQ(folder, "/var/cache/clgrade/locks");
  }
}

}  // namespace
}  // namespace clgrade
