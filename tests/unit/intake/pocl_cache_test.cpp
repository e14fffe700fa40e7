// The submissions' PoCL caches are removed when unused for long or beyond the size kept, least
// recently used first, never one a sandbox holds.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "intake/pocl_cache.h"
#include "util/files.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

class PoclCacheEviction : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("clgrade-pocl-evict-" + std::to_string(getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  /// A cache of `kib` KiB last used `daysAgo` days ago (its lock file's time).
  void cache(const std::string& name, int kib, double daysAgo) {
    const fs::path dir = root_ / name;
    fs::create_directories(dir);
    std::string err;
    ASSERT_TRUE(writeFileAtomically((dir / "kernel.so").string(), std::string(size_t(kib) * 1024, 'x'), &err, false));
    const fs::path lock = dir.string() + ".lock";
    ASSERT_TRUE(writeFileAtomically(lock.string(), "", &err, false));
    fs::last_write_time(lock, fs::file_time_type::clock::now() -
                                  std::chrono::duration_cast<fs::file_time_type::duration>(
                                      std::chrono::duration<double>(daysAgo * 86400)));
  }
  bool kept(const std::string& name) const { return fs::exists(root_ / name); }

  fs::path root_;
};

TEST_F(PoclCacheEviction, OldCachesGoWithTheirLocks) {
  cache("old", 64, 20);
  cache("recent", 64, 1);
  const CacheEviction e = evictSubmissionCaches(root_.string(), 14, uint64_t(1) << 30);
  EXPECT_EQ(e.removed, 1);
  EXPECT_FALSE(kept("old"));
  EXPECT_FALSE(fs::exists(root_ / "old.lock"));
  EXPECT_TRUE(kept("recent"));
  EXPECT_GT(e.freedBytes, 60u * 1024);
}

TEST_F(PoclCacheEviction, BeyondTheSizeTheLeastRecentlyUsedGoFirst) {
  cache("a", 512, 3);
  cache("b", 512, 2);
  cache("c", 512, 1);
  const CacheEviction e = evictSubmissionCaches(root_.string(), 14, uint64_t(1100) * 1024);
  EXPECT_EQ(e.removed, 1);
  EXPECT_FALSE(kept("a"));
  EXPECT_TRUE(kept("b"));
  EXPECT_TRUE(kept("c"));
}

TEST_F(PoclCacheEviction, ACacheInUseIsNeverRemoved) {
  cache("busy", 64, 30);
  const int lock = open((root_ / "busy.lock").c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(lock, 0);
  ASSERT_EQ(flock(lock, LOCK_EX | LOCK_NB), 0);  // a sandbox grading with it
  const CacheEviction e = evictSubmissionCaches(root_.string(), 14, 0);
  close(lock);
  EXPECT_EQ(e.removed, 0);
  EXPECT_TRUE(kept("busy"));
}

}  // namespace
}  // namespace clgrade
