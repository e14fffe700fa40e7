#include "keeper/control_folder.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>

#include "sandbox/sandbox.h"
#include "util/files.h"

namespace fs = std::filesystem;

namespace clgrade {

std::string absolutePath(const std::string& path) {
  std::error_code ec;
  const fs::path a = fs::absolute(path, ec);
  return ec ? path : a.lexically_normal().string();
}

ControlFolder::ControlFolder(const std::string& outDir, bool sandboxed)
    : control_((fs::path(outDir) / ".clgrade").string()), sandboxed_(sandboxed) {
  makeDirectories(outDir, nullptr);
  std::error_code ec;
  fs::remove_all(control_, ec);
  makeDirectories(control_, nullptr);
}

std::string makeReachableTempFolder(const std::string& stem) {
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / (stem + "-XXXXXX")).string();
  if (ec || !mkdtemp(pattern.data())) return "";
  chmod(pattern.c_str(), 0711);
  return pattern;
}

std::string ControlFolder::reachableFolder() {
  const std::string inside = absolutePath(control_);
  if (!sandboxed_ || sandboxCanReach(inside + "/file")) return inside;
  const std::string made = makeReachableTempFolder("clgrade-scratch");
  if (made.empty()) return inside;
  made_.push_back(made);
  return made;
}

std::string ControlFolder::scratchFor(const std::string& name) {
  const std::lock_guard<std::mutex> hold(mutex_);
  return reachableFolder() + "/" + name + ".sandbox";
}

std::string ControlFolder::ownTimingLock() {
  const std::lock_guard<std::mutex> hold(mutex_);
  return reachableFolder() + "/timing.lock";
}

void ControlFolder::removeAll() {
  const std::lock_guard<std::mutex> hold(mutex_);
  std::error_code ec;
  for (const std::string& dir : made_) fs::remove_all(dir, ec);
  made_.clear();
  fs::remove_all(control_, ec);
}

}  // namespace clgrade
