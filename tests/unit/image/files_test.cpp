// Whole-file writes: a write that fails says so, and the file that was there stays as it was.
#include <gtest/gtest.h>

#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "image/image.h"
#include "image/pfm.h"
#include "image/png.h"
#include "util/files.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

std::string contents(const fs::path& p) {
  std::string text, err;
  EXPECT_TRUE(readFile(p.string(), &text, &err)) << err;
  return text;
}

std::vector<std::string> names(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

class WriteFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("clgrade_files_" + std::to_string(getpid()) + "_" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (mounted_) umount2(dir_.c_str(), MNT_DETACH);
    fs::remove_all(dir_);
  }
  /// Mounts a 64 KiB tmpfs on dir_ (a skip, with the reason, where that cannot be done).
  void mountSmallTmpfs() {
    if (geteuid() != 0) GTEST_SKIP() << "mounting a small tmpfs needs root";
    // A mount namespace of this process's own (CTest runs each test in its own process), private, so
    // the mount is seen by nothing else and ends with the process at the latest.
    if (unshare(CLONE_NEWNS) != 0 || mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
      GTEST_SKIP() << "no private mount namespace here: " << std::strerror(errno);
    if (mount("tmpfs", dir_.c_str(), "tmpfs", 0, "size=64k") != 0)
      GTEST_SKIP() << "cannot mount a tmpfs: " << std::strerror(errno);
    mounted_ = true;
  }
  /// Fills the tmpfs to the last byte.
  void fill() {
    std::ofstream filler(dir_ / "filler", std::ios::binary);
    const std::string block(4096, 'f');
    for (int i = 0; i < 64 && filler; ++i) filler.write(block.data(), block.size());
  }
  fs::path dir_;
  bool mounted_ = false;
};

// readFile reads what is there: a file of any size up to the limit in one buffer, a /proc file whose
// size reads 0, nothing over the limit, no folder.
TEST_F(WriteFile, ReadFileReadsWhatIsThereUpToTheLimit) {
  const std::string bytes(3 << 20, 'x');
  ASSERT_TRUE(writeFileAtomically((dir_ / "big").string(), bytes, nullptr));
  EXPECT_EQ(contents(dir_ / "big"), bytes);
  std::string text, err;
  EXPECT_FALSE(readFile((dir_ / "big").string(), &text, &err, bytes.size() - 1));
  EXPECT_NE(err.find("larger than"), std::string::npos) << err;
  EXPECT_TRUE(readFile((dir_ / "big").string(), &text, &err, bytes.size())) << err;
  ASSERT_TRUE(readFile("/proc/self/status", &text, &err)) << err;
  EXPECT_NE(text.find("Pid:"), std::string::npos);
  EXPECT_FALSE(readFile(dir_.string(), &text, &err));
  EXPECT_NE(err.find("not a regular file"), std::string::npos) << err;
  EXPECT_FALSE(readFile((dir_ / "none").string(), &text, &err));
  EXPECT_NE(err.find("does not exist"), std::string::npos) << err;
  // A FIFO where a file was expected (a runner can put one in its scratch folder): refused at once,
  // not waited on for a writer that never comes.
  ASSERT_EQ(mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  EXPECT_FALSE(readFile((dir_ / "fifo").string(), &text, &err));
  EXPECT_NE(err.find("not a regular file"), std::string::npos) << err;
}

TEST_F(WriteFile, ReplacesTheFileAndLeavesNothingElse) {
  const fs::path file = dir_ / "class.json";
  std::string err;
  ASSERT_TRUE(writeFileAtomically(file.string(), "old", &err)) << err;
  ASSERT_TRUE(writeFileAtomically(file.string(), "new", &err)) << err;
  EXPECT_EQ(contents(file), "new");
  EXPECT_EQ(names(dir_), std::vector<std::string>{"class.json"});
  struct stat st;
  ASSERT_EQ(stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  // A 255-byte name: the temporary name must not be the name plus a suffix (over NAME_MAX).
  const fs::path longName = dir_ / std::string(255, 'n');
  EXPECT_TRUE(writeFileAtomically(longName.string(), "x", &err)) << err;
}

TEST_F(WriteFile, AFolderThatCannotBeWrittenIsNamed) {
  std::string err;
  const std::string path = (dir_ / "missing" / "report.json").string();
  EXPECT_FALSE(writeFileAtomically(path, "x", &err));
  EXPECT_NE(err.find(path), std::string::npos) << err;
  EXPECT_NE(err.find("No such file or directory"), std::string::npos) << err;
}

// A full disk: the error of a small write arrives at close (or fsync), which was not checked, so a
// good gradebook.csv was replaced by an empty one and the caller was told all went well.
TEST_F(WriteFile, AFullDiskFailsAndKeepsTheOldFile) {
  mountSmallTmpfs();
  if (IsSkipped()) return;
  const fs::path file = dir_ / "gradebook.csv";
  const std::string good = "student,total\nalice,20\n";
  std::string err;
  ASSERT_TRUE(writeFileAtomically(file.string(), good, &err)) << err;
  fill();
  EXPECT_FALSE(writeFileAtomically(file.string(), "student,total\nalice,19\n", &err));
  EXPECT_NE(err.find(file.string()), std::string::npos) << err;
  EXPECT_NE(err.find("No space left on device"), std::string::npos) << err;
  EXPECT_EQ(contents(file), good);
  EXPECT_EQ(names(dir_), (std::vector<std::string>{"filler", "gradebook.csv"}));  // no temporary file left
}

// Evidence images were written with an ofstream or fopen that truncated the file first: on a full disk
// the earlier image became a few bytes, or none. They go through the checked writer now.
TEST_F(WriteFile, ImagesOnAFullDiskFailAndKeepTheOldFile) {
  mountSmallTmpfs();
  if (IsSkipped()) return;
  const Image image(16, 16, 3, 0.5f);
  const fs::path pfm = dir_ / "output_diff.pfm", png = dir_ / "output_actual.png";
  std::string err;
  ASSERT_TRUE(writePfm(pfm.string(), image, &err)) << err;
  ASSERT_TRUE(writePng(png.string(), image, 0.0f, 1.0f, &err)) << err;
  const std::string pfmBefore = contents(pfm), pngBefore = contents(png);
  fill();
  const Image other(16, 16, 3, 0.25f);
  EXPECT_FALSE(writePfm(pfm.string(), other, &err));
  EXPECT_NE(err.find(pfm.string()), std::string::npos) << err;
  EXPECT_NE(err.find("No space left on device"), std::string::npos) << err;
  EXPECT_FALSE(writePng(png.string(), other, 0.0f, 1.0f, &err));
  EXPECT_NE(err.find(png.string()), std::string::npos) << err;
  EXPECT_NE(err.find("No space left on device"), std::string::npos) << err;
  EXPECT_TRUE(contents(pfm) == pfmBefore) << pfm << " is not what it was";
  EXPECT_TRUE(contents(png) == pngBefore) << png << " is not what it was";
  EXPECT_EQ(names(dir_), (std::vector<std::string>{"filler", "output_actual.png", "output_diff.pfm"}));
}

}  // namespace
}  // namespace clgrade
