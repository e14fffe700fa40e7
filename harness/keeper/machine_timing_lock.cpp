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

/// `path` made (or found) as this user's plain file, whatever the umask, that only this user's
/// processes and its sandboxes may open (to read: flock needs no more): 0600 where the sandboxes run
/// as this user's uid, root's and its sandboxes' group's (0640) as root. Any user who could open it
/// could hold it and stall every timing on the GPU. As root on a machine with a real group of that
/// id, readable by all (0644), as before there was a group. "" or why not.
std::string ownLockFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return path + " cannot be made: " + std::strerror(errno);
  const long group = sandboxLockGroup();
  const mode_t mode = group >= 0 ? 0640 : geteuid() == 0 ? 0644 : 0600;
  struct stat st {};
  std::string why;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    why = path + " is not a plain file";
  else if (st.st_uid != geteuid())
    why = path + " belongs to another user";
  else if (group >= 0 && st.st_gid != static_cast<gid_t>(group) &&
           ::fchown(fd, st.st_uid, static_cast<gid_t>(group)) != 0)
    why = "cannot give " + path + " to the sandboxes' group";
  else if ((st.st_mode & 07777) != mode && ::fchmod(fd, mode) != 0)
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
