#include "keeper/machine_timing_lock.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "sandbox/sandbox.h"
#include "util/cache_home.h"

namespace fs = std::filesystem;

namespace clgrade {

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
  fs::create_directories(folder, ec);
  // Passable by a sandbox's uid (root's sandboxes run as uids of their own), listable by none of them.
  if (!ec) ::chmod(folder.c_str(), 0711);
  const std::string path = folder + "/timing-" + device.physicalId + ".lock";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) {
    *why = path + " cannot be made: " + std::strerror(errno);
    return "";
  }
  ::close(fd);
  if (sandboxed && !sandboxCanReach(path)) {
    *why = "a sandbox cannot reach " + folder;
    return "";
  }
  return path;
}

}  // namespace clgrade
