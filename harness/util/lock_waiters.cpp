#include "util/lock_waiters.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "util/files.h"

namespace clgrade {
namespace {

/// A lock line of /proc/locks: "1: FLOCK  ADVISORY  WRITE 4242 00:2d:1234 0 EOF", a waiter has "->"
/// after the number.
struct LockLine {
  std::string id;
  bool blocked = false;
  std::string type;
  pid_t pid = 0;
  unsigned long long major = 0, minor = 0, inode = 0;
};

bool parseLine(const std::string& line, LockLine* out) {
  std::istringstream in(line);
  std::string token, advisory, mode, where;
  if (!(in >> out->id)) return false;
  if (!(in >> token)) return false;
  if (token == "->") {
    out->blocked = true;
    if (!(in >> token)) return false;
  }
  out->type = token;
  long pid = 0;
  if (!(in >> advisory >> mode >> pid >> where)) return false;
  out->pid = static_cast<pid_t>(pid);
  // MAJOR:MINOR:INODE, the device numbers in hexadecimal.
  return std::sscanf(where.c_str(), "%llx:%llx:%llu", &out->major, &out->minor, &out->inode) == 3;
}

/// Whether `pid` is `root` or below it (at most 64 parents up: a process table is not that deep).
bool inTree(pid_t pid, pid_t root, pid_t (*parentOf)(pid_t, const void*), const void* table) {
  for (int depth = 0; depth < 64 && pid > 1; ++depth) {
    if (pid == root) return true;
    pid = parentOf(pid, table);
  }
  return pid == root;
}

pid_t procParent(pid_t pid, const void*) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  std::string text;
  if (!readFile(path, &text, nullptr, 4096)) return 0;
  // The command name may hold spaces and parentheses: the state and parent follow the last ')'.
  const size_t close = text.rfind(')');
  char state = 0;
  int ppid = 0;
  if (close == std::string::npos || std::sscanf(text.c_str() + close + 1, " %c %d", &state, &ppid) != 2) return 0;
  return static_cast<pid_t>(ppid);
}

}  // namespace

bool waitsForOthersLock(const std::string& procLocks, unsigned long long device, unsigned long long inode, pid_t root,
                        pid_t (*parentOf)(pid_t, const void*), const void* table) {
  std::vector<LockLine> onFile;
  std::istringstream in(procLocks);
  for (std::string line; std::getline(in, line);) {
    LockLine l;
    if (!parseLine(line, &l) || l.type != "FLOCK" || l.inode != inode) continue;
    if (makedev(l.major, l.minor) != device) continue;
    onFile.push_back(l);
  }
  for (const LockLine& waiter : onFile) {
    if (!waiter.blocked || !inTree(waiter.pid, root, parentOf, table)) continue;
    for (const LockLine& holder : onFile)
      if (!holder.blocked && holder.id == waiter.id && holder.pid > 0 && parentOf(holder.pid, table) != 0 &&
          !inTree(holder.pid, root, parentOf, table))
        return true;
  }
  return false;
}

bool treeWaitsForOthersLock(const std::string& path, pid_t root) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return false;
  std::string locks;
  if (!readFile("/proc/locks", &locks, nullptr, size_t(16) << 20)) return false;
  return waitsForOthersLock(locks, st.st_dev, st.st_ino, root, procParent, nullptr);
}

}  // namespace clgrade
