// Whether a child waits for a lock that another grading job holds, as the kernel sees it: the time a
// task spends waiting for the timing lock (one GPU's timings take turns) is not the task's fault and
// must not count towards its time limit. The answer comes from /proc/locks, not from the child, so
// a runner cannot claim to be waiting.
#pragma once

#include <sys/types.h>

#include <string>

namespace clgrade {

/// True when a process of the tree below `root` is blocked in flock() on the file at `path` while
/// a live process outside that tree holds it. A tree that blocks on a lock it holds itself (one of
/// its processes holding, another waiting) is not waiting on others.
bool treeWaitsForOthersLock(const std::string& path, pid_t root);

/// The same, on the text of /proc/locks and a process table given as data (for tests): `parentOf`
/// maps a pid to its parent (0 when the process does not exist).
bool waitsForOthersLock(const std::string& procLocks, unsigned long long device, unsigned long long inode, pid_t root,
                        pid_t (*parentOf)(pid_t, const void*), const void* table);

}  // namespace clgrade
