// A folder of this user's that no other user can write into: the course's store, the machine's GPU
// locks (keeper/machine_timing_lock.h). One that another user made first, or can write, is refused.
#pragma once

#include <sys/types.h>

#include <string>

namespace clgrade {

/// `path` as a folder of this user that no one else can write into: made with `mode` when missing
/// (and `mode` set exactly, whatever the umask); `setMode`: an existing one set to `mode` too (the
/// store's own folders), else only checked (a root the user named). "" or why not.
std::string ownFolder(const std::string& path, mode_t mode, bool setMode);

}  // namespace clgrade
