#include "store/course_store.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "util/cache_home.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

/// Makes `path` with `mode` if missing; "" when it is a folder of ours that no one else can write into,
/// else why not.
std::string ownFolder(const std::string& path, mode_t mode) {
  std::error_code ec;
  fs::create_directories(path, ec);
  struct stat st;
  if (lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return path + " is not a folder";
  if (st.st_uid != geteuid()) return path + " belongs to another user";
  if (st.st_mode & (S_IWGRP | S_IWOTH)) return path + " can be written by other users";
  if ((st.st_mode & 07777) != mode) chmod(path.c_str(), mode);
  return "";
}

/// Removes the folders of other builds below `root` that no grade has used for ten minutes, all
/// but the most recently used one.
void removeOtherBuilds(const std::string& root, const std::string& mine) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> others;
  for (auto it = fs::directory_iterator(root, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    if (it->path().filename() != mine && it->is_directory(ec) && !it->is_symlink(ec))
      others.emplace_back(it->last_write_time(ec), it->path());
  std::sort(others.rbegin(), others.rend());
  const auto idle = fs::file_time_type::clock::now() - std::chrono::minutes(10);
  for (size_t i = 1; i < others.size(); ++i)
    if (others[i].first < idle) fs::remove_all(others[i].second, ec);
}

}  // namespace

std::string defaultStoreRoot() { return cacheHome() + "/clgrade/store"; }

CourseStore openCourseStore(const std::string& rootIn, std::string* why) {
  CourseStore none;
  none.root = "none";
  if (rootIn == "none") return none;
  const std::string root = rootIn.empty() ? defaultStoreRoot() : rootIn;
  const std::string id = buildId();
  const std::string build = root + "/" + id;
  // The inputs are read by the sandboxes' uid; the results only by the keeper.
  std::string problem = ownFolder(root, 0755);
  if (problem.empty()) problem = ownFolder(build, 0755);
  if (problem.empty()) problem = ownFolder(build + "/inputs", 0755);
  if (problem.empty()) problem = ownFolder(build + "/results", 0700);
  if (!problem.empty()) {
    if (why) *why = "the store of inputs is not used: " + problem;
    return none;
  }
  std::error_code ec;
  fs::last_write_time(build, fs::file_time_type::clock::now(), ec);  // used now: not removed by others
  removeOtherBuilds(root, id);
  return {std::make_shared<const ImageStore>(build + "/inputs", true),
          std::make_shared<const ImageStore>(build + "/results", true), rootIn};
}

CourseStore readOnlyInputs(const std::string& inputsFolder) {
  if (inputsFolder.empty()) return {};
  return {std::make_shared<const ImageStore>(inputsFolder, false), nullptr, ""};
}

}  // namespace clgrade
