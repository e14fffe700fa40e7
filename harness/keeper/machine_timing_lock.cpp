#include "keeper/machine_timing_lock.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "sandbox/sandbox.h"
#include "util/cache_home.h"
#include "util/own_folder.h"
#include "util/timing_lock.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

/// `path` made (or found) as this user's plain file that a sandbox's uid may open to read (flock needs
/// no more), whatever the umask; "" or why not.
std::string ownLockFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return path + " cannot be made: " + std::strerror(errno);
  struct stat st {};
  std::string why;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    why = path + " is not a plain file";
  else if (st.st_uid != geteuid())
    why = path + " belongs to another user";
  else if ((st.st_mode & 07777) != 0644 && ::fchmod(fd, 0644) != 0)
    why = "cannot set the permissions of " + path;
  ::close(fd);
  return why;
}

}  // namespace

std::string machineLockFolder() { return cacheHome() + "/clgrade/locks"; }

std::string machineTimingLock(const DeviceInfo& device, bool sandboxed, std::string* why, const std::string& folder) {
  if (!isHardwareGpu(device)) {
    *why = "not a GPU";
    return "";
  }
  if (device.physicalId.empty()) {
    *why = "its driver does not say which GPU it is (no cl_khr_device_uuid, no PCI location)";
    return "";
  }
  std::error_code ec;
  fs::create_directories(fs::path(folder).parent_path(), ec);
  // Passable by a sandbox's uid (root's sandboxes run as uids of their own), listable by none of
  // them, and no other user's: one who made it first could swap the locks.
  if (*why = ownFolder(folder, 0711, true); !why->empty()) return "";
  const std::string path = folder + "/timing-" + device.physicalId + ".lock";
  for (const std::string& file : {path, profilerLockFor(path)})
    if (*why = ownLockFile(file); !why->empty()) return "";
  if (sandboxed && !sandboxCanReach(path)) {
    *why = "a sandbox cannot reach " + folder;
    return "";
  }
  return path;
}

}  // namespace clgrade
