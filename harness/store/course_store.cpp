#include "store/course_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <vector>

#include "util/cache_home.h"
#include "util/own_folder.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

/// In every build folder clgrade made: locked (shared) while a store of it is open, its time the
/// last opening. Only folders with it are ever removed.
constexpr const char* kMarker = ".clgrade-store";

/// Idle this long, a folder of another build may be removed.
constexpr auto kIdle = std::chrono::minutes(10);

/// A folder above the store through which another user could swap it for one of theirs: writable by
/// others without the sticky bit ("" none).
std::string openAbove(const fs::path& folder) {
  for (fs::path dir = folder.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    struct stat st;
    if (stat(dir.c_str(), &st) == 0 && (st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
      return dir.string() + " can be written by every user";
    if (dir == dir.root_path()) break;
  }
  return "";
}

/// Whether `name` is one clgrade gives a build's folder (buildId: hex).
bool buildName(const std::string& name) {
  return name.size() >= 16 && name.size() <= 64 && name.find_first_not_of("0123456789abcdef") == std::string::npos;
}

/// Removes the folders of other builds below `root` that clgrade made, that no clgrade holds and that
/// none has opened for kIdle, all but the last opened.
void removeOtherBuilds(const std::string& root, const std::string& mine) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> others;
  for (auto it = fs::directory_iterator(root, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code e;
    if (name == mine || !buildName(name) || it->is_symlink(e) || !it->is_directory(e)) continue;
    const fs::file_time_type opened = fs::last_write_time(it->path() / kMarker, e);
    if (!e) others.emplace_back(opened, it->path());
  }
  std::sort(others.rbegin(), others.rend());
  const auto idle = fs::file_time_type::clock::now() - kIdle;
  for (size_t i = 1; i < others.size(); ++i) {
    if (others[i].first >= idle) continue;
    const int fd = open((others[i].second / kMarker).c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) fs::remove_all(others[i].second, ec);  // held: in use
    close(fd);
  }
}

/// Removes what writers stopped mid-way left (writeFileAtomically's temporary files) in `folder`.
void removeTornWrites(const std::string& folder) {
  std::error_code ec;
  const auto idle = fs::file_time_type::clock::now() - kIdle;
  for (auto it = fs::directory_iterator(folder, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::error_code e;
    if (it->path().filename().string().rfind(".clgrade-write-", 0) == 0 && fs::last_write_time(it->path(), e) < idle)
      fs::remove(it->path(), e);
  }
}

/// Opens and locks (shared) the marker of `build`; -1 with `why` when it cannot, or when a clgrade
/// removing the folder had it (the marker is then no longer the one at its path).
int holdBuild(const std::string& build, std::string* why) {
  const std::string marker = build + "/" + kMarker;
  const int fd = open(marker.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    *why = "cannot open " + marker + ": " + std::strerror(errno);
    return -1;
  }
  struct stat held, there;
  if (flock(fd, LOCK_SH) != 0 || fstat(fd, &held) != 0 || stat(marker.c_str(), &there) != 0 ||
      held.st_ino != there.st_ino || held.st_dev != there.st_dev) {
    close(fd);
    *why = marker + " was removed while it was opened";
    return -1;
  }
  futimens(fd, nullptr);  // opened now
  return fd;
}

}  // namespace

std::string defaultStoreRoot() { return cacheHome() + "/clgrade/store"; }

CourseStore openCourseStore(const std::string& rootIn, std::string* why) {
  CourseStore none;
  none.root = "none";
  if (rootIn == "none") return none;
  std::string problem;
  const std::string id = buildId();
  if (id.empty()) problem = "this executable has no build id and cannot be read to make one";
  const std::string root = fs::path(rootIn.empty() ? defaultStoreRoot() : rootIn).lexically_normal().string();
  const std::string build = root + "/" + id;
  if (problem.empty()) {
    std::error_code ec;
    fs::create_directories(fs::path(root).parent_path(), ec);  // the cache home's folders, as any program makes them
    problem = openAbove(root);
  }
  // The inputs are read by the sandboxes' uid; the results only by the keeper.
  if (problem.empty()) problem = ownFolder(root, 0755, false);
  if (problem.empty()) problem = ownFolder(build, 0755, true);
  int held = -1;
  for (int attempt = 0; problem.empty() && held < 0 && attempt < 2; ++attempt) {
    held = holdBuild(build, &problem);
    if (held < 0 && attempt == 0) {  // removed under us: made again, once
      problem = ownFolder(build, 0755, true);
    }
  }
  if (problem.empty()) problem = ownFolder(build + "/inputs", 0755, true);
  if (problem.empty()) problem = ownFolder(build + "/results", 0700, true);
  if (!problem.empty()) {
    if (held >= 0) close(held);
    if (why) *why = "the store of inputs is not used: " + problem;
    return none;
  }
  removeOtherBuilds(root, id);
  removeTornWrites(build + "/inputs");
  removeTornWrites(build + "/results");
  CourseStore store;
  store.inputs = std::make_shared<const ImageStore>(build + "/inputs", true);
  store.results = std::make_shared<const ImageStore>(build + "/results", true);
  store.root = rootIn;
  store.inUse = std::shared_ptr<const void>(nullptr, [held](const void*) { close(held); });
  return store;
}

CourseStore readOnlyInputs(const std::string& inputsFolder) {
  if (inputsFolder.empty()) return {};
  CourseStore view;
  view.inputs = std::make_shared<const ImageStore>(inputsFolder, false);
  return view;
}

}  // namespace clgrade
