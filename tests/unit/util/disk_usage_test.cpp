// The disk a folder's files take (util/files.h diskUsageBytes), which the scratch quota watches.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "util/files.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

TEST(DiskUsage, CountsWhatFilesHoldNotWhatTheyClaim) {
  const fs::path dir = fs::temp_directory_path() / ("clgrade-disk-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "deeper");
  ASSERT_TRUE(writeFileAtomically((dir / "deeper/full").string(), std::string(size_t(4) << 20, 'x'), nullptr, false));
  // A sparse file claims 1 GiB and holds nothing; a link is not followed.
  const int fd = ::open((dir / "sparse").c_str(), O_CREAT | O_WRONLY, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, off_t(1) << 30), 0);
  ::close(fd);
  fs::create_symlink("/usr", dir / "link");
  const uint64_t used = diskUsageBytes(dir.string());
  EXPECT_GE(used, uint64_t(4) << 20);
  EXPECT_LT(used, uint64_t(6) << 20);
  EXPECT_LE(diskUsageBytes(dir.string(), 1), used) << "stops once above";
  EXPECT_EQ(diskUsageBytes((dir / "nothing-here").string()), 0u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace clgrade
