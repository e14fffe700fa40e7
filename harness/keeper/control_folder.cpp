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

std::string ControlFolder::reachableFolder() {
  const std::string inside = absolutePath(control_);
  if (!sandboxed_ || sandboxCanReach(inside + "/file")) return inside;
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / "clgrade-scratch-XXXXXX").string();
  if (!mkdtemp(pattern.data())) return inside;
  chmod(pattern.c_str(), 0755);
  made_.push_back(pattern);
  return pattern;
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
