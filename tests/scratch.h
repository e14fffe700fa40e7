// A test process's own folders below the test temp folder, gone when the process ends well: CI's
// machines and developers' /tmp kept a folder of every test process that ever ran (a grade's outputs,
// sandboxes' scratch, batches' classes). A process with a failed test keeps its folder, for a person
// to read what the failure left.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>
#include <set>
#include <string>

namespace clgrade::test {

namespace detail {

class ScratchFolders {
 public:
  void add(const std::filesystem::path& folder) {
    const std::lock_guard<std::mutex> hold(mutex_);
    folders_.insert(folder.string());
  }
  ~ScratchFolders() {
    // Only the process that made them: a forked child that exits runs this too.
    if (getpid() != owner_) return;
    const ::testing::UnitTest* run = ::testing::UnitTest::GetInstance();
    if (run->failed_test_count() > 0 || run->ad_hoc_test_result().Failed()) return;
    std::error_code ec;
    for (const std::string& folder : folders_) std::filesystem::remove_all(folder, ec);
  }

 private:
  const pid_t owner_ = getpid();
  std::mutex mutex_;
  std::set<std::string> folders_;
};

/// Made on first use, after gtest's own instance: destroyed before it, at the process's end.
inline ScratchFolders& scratchFolders() {
  static ScratchFolders folders;
  return folders;
}

}  // namespace detail

/// <test temp folder>/<prefix>_<pid>/<name>, emptied, and made unless `make` is false.
inline std::filesystem::path freshFolder(const std::string& prefix, const std::string& name, bool make = true) {
  const std::filesystem::path process =
      std::filesystem::path(::testing::TempDir()) / (prefix + "_" + std::to_string(getpid()));
  detail::scratchFolders().add(process);
  const std::filesystem::path folder = process / name;
  std::filesystem::remove_all(folder);
  if (make) std::filesystem::create_directories(folder);
  return folder;
}

}  // namespace clgrade::test
