#include "sandbox/cgroup.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

namespace clgrade {
namespace {

/// The controllers a sandbox's group gets where they are there; memory (first) is required.
const char* const kControllers[] = {"memory", "pids", "cpu"};

bool writeText(const std::string& path, const std::string& text, std::string* err) {
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    if (err) *err = path + ": " + std::strerror(errno);
    if (fd >= 0) close(fd);
    return false;
  }
  close(fd);
  return true;
}

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::set<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::set<std::string> set;
  for (std::string w; in >> w;) set.insert(w);
  return set;
}

bool isFolder(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

/// The number after `key` in a "key value" file (memory.events, memory.oom_control); 0 if absent.
uint64_t keyedValue(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string k;
  uint64_t v = 0;
  while (in >> k >> v)
    if (k == key) return v;
  return 0;
}

/// One cgroup mount of /proc/self/mountinfo.
struct CgroupMount {
  std::string root, point, type, options;  ///< type "cgroup" (v1, options name its controllers) or "cgroup2"
};

std::vector<CgroupMount> cgroupMounts() {
  std::vector<CgroupMount> mounts;
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string id, parent, device, root, point, options, field;
    fields >> id >> parent >> device >> root >> point >> options;
    while (fields >> field && field != "-") {
    }
    std::string type, source, super;
    fields >> type >> source >> super;
    if (type == "cgroup" || type == "cgroup2") mounts.push_back({root, point, type, super});
  }
  return mounts;
}

/// Whether a v1 mount holds `controller` (its options name it, "cpu,cpuacct").
bool holds(const CgroupMount& m, const std::string& controller) {
  std::istringstream list(m.options);
  bool has = false;
  for (std::string o; m.type == "cgroup" && std::getline(list, o, ',');) has = has || o == controller;
  return has;
}

/// This process's group in the hierarchy of `controller` ("" for v2), from /proc/self/cgroup.
std::string ownGroup(const std::string& controller) {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    const size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string names = line.substr(a + 1, b - a - 1);
    bool match = controller.empty() ? names.empty() : false;
    std::istringstream list(names);
    for (std::string n; std::getline(list, n, ',');) match = match || n == controller;
    if (match) return line.substr(b + 1);
  }
  return "";
}

/// The folder of this process's own group below a mount, when it can be seen there.
std::string ownFolder(const CgroupMount& m, const std::string& group) {
  std::string rel = group;
  if (m.root != "/" && rel.compare(0, m.root.size(), m.root) == 0) rel = rel.substr(m.root.size());
  const std::string folder = m.point + (rel == "/" ? "" : rel);
  return isFolder(folder) ? folder : m.point;
}

/// A group can be made and removed below `folder`.
bool canMakeBelow(const std::string& folder, std::string* why) {
  const std::string probe = folder + "/clgrade-probe-" + std::to_string(getpid());
  if (mkdir(probe.c_str(), 0755) != 0 && errno != EEXIST) {
    *why = "cannot make a group in " + folder + ": " + std::strerror(errno);
    return false;
  }
  rmdir(probe.c_str());
  return true;
}

bool probeV2(const std::vector<CgroupMount>& mounts, CgroupSupport* s, std::string* why) {
  for (const CgroupMount& m : mounts) {
    if (m.type != "cgroup2") continue;
    const std::string own = ownFolder(m, ownGroup(""));
    const std::set<std::string> available = words(readText(own + "/cgroup.controllers"));
    if (!available.count("memory")) {
      *why = "cgroup v2 at " + m.point + " has no memory controller for " + own;
      continue;
    }
    // Groups below ours get the controllers only where ours hands them down; a group that holds
    // processes cannot (the v2 rule): then clgrade must run in a group delegated to it.
    const std::set<std::string> enabled = words(readText(own + "/cgroup.subtree_control"));
    std::vector<std::string> controllers;
    std::string missing, err;
    for (const char* c : kControllers) {
      if (!available.count(c)) {
        missing += std::string(missing.empty() ? "" : ", ") + c;
        continue;
      }
      if (!enabled.count(c) && !writeText(own + "/cgroup.subtree_control", std::string("+") + c, &err)) {
        *why = "cgroup v2: the " + std::string(c) + " controller cannot be handed to groups below " + own + " (" +
               err + "; run clgrade in a group of its own, e.g. systemd-run --scope -p Delegate=yes)";
        return false;
      }
      controllers.push_back(c);
    }
    if (!canMakeBelow(own, why)) return false;
    s->version = 2;
    s->controllers = controllers;
    s->parents = {own};
    if (!missing.empty()) s->missing = "no " + missing + " controller in " + own;
    return true;
  }
  return false;
}

bool probeV1(const std::vector<CgroupMount>& mounts, CgroupSupport* s, std::string* why) {
  std::string missing;
  for (const char* c : kControllers) {
    std::string folder;
    for (const CgroupMount& m : mounts)
      if (holds(m, c)) folder = ownFolder(m, ownGroup(c));
    std::string cannot;
    if (folder.empty() || !canMakeBelow(folder, &cannot)) {
      if (std::string(c) == "memory") {
        *why = folder.empty() ? "no cgroup v1 hierarchy of memory either" : cannot;
        return false;
      }
      missing += std::string(missing.empty() ? "" : ", ") + c;
      continue;
    }
    s->controllers.push_back(c);
    s->parents.push_back(folder);
  }
  s->version = 1;
  if (!missing.empty()) s->missing = "no usable cgroup v1 hierarchy of " + missing;
  return true;
}

CgroupSupport probe() {
  CgroupSupport s;
  if (geteuid() != 0) {
    s.reason = "clgrade is not root, so it makes no control groups (memory is watched by resident size only)";
    return s;
  }
  const std::vector<CgroupMount> mounts = cgroupMounts();
  std::string whyV2, whyV1;
  if (probeV2(mounts, &s, &whyV2) || probeV1(mounts, &s, &whyV1)) {
    s.available = true;
    return s;
  }
  s.reason = whyV2.empty() ? whyV1 : whyV2 + (whyV1.empty() ? "" : "; " + whyV1);
  return s;
}

}  // namespace

const CgroupSupport& cgroupSupport() {
  static const CgroupSupport support = probe();
  return support;
}

int cpuQuotaCoresOf(const std::vector<std::string>& folders) {
  double least = 0;
  auto bound = [&](double quota, double period) {
    if (quota > 0 && period > 0 && (least == 0 || quota / period < least)) least = quota / period;
  };
  for (const std::string& folder : folders) {
    std::istringstream v2(readText(folder + "/cpu.max"));  // "max 100000" where unbounded
    std::string quota;
    double period = 0;
    if (v2 >> quota >> period && quota != "max") bound(std::atof(quota.c_str()), period);
    const std::string v1 = readText(folder + "/cpu.cfs_quota_us");  // -1 where unbounded
    if (!v1.empty()) bound(std::atof(v1.c_str()), std::atof(readText(folder + "/cpu.cfs_period_us").c_str()));
  }
  return least > 0 ? std::max(1, int(std::ceil(least - 1e-9))) : 0;
}

int cpuQuotaCores() {
  std::vector<std::string> folders;
  for (const CgroupMount& m : cgroupMounts()) {
    if (m.type != "cgroup2" && !holds(m, "cpu")) continue;
    // This group's folder and its parents' up to the mount's: a parent's quota bounds it as well.
    for (std::string folder = ownFolder(m, ownGroup(m.type == "cgroup2" ? "" : "cpu"));;) {
      folders.push_back(folder);
      if (folder.size() <= m.point.size()) break;
      folder = folder.substr(0, folder.rfind('/'));
      if (folder.size() < m.point.size()) break;
    }
  }
  return cpuQuotaCoresOf(folders);
}

std::string cgroupDescription() {
  const CgroupSupport& s = cgroupSupport();
  if (!s.available) return "no cgroup: " + s.reason;
  std::string enforced;
  for (const std::string& c : s.controllers)
    enforced += ", " + std::string(c == "memory" ? "memory (tmpfs and shared memory included)"
                                   : c == "pids" ? "tasks"
                                                 : "an equal CPU share");
  return "cgroup v" + std::to_string(s.version) + " per sandbox: " + enforced.substr(2) +
         (s.missing.empty() ? "" : " (not enforced: " + s.missing + ")");
}

std::shared_ptr<SandboxCgroup> SandboxCgroup::make(const CgroupLimits& limits, std::string* err) {
  const CgroupSupport& s = cgroupSupport();
  if (!s.available) {
    *err = s.reason;
    return nullptr;
  }
  static std::atomic<unsigned> made{0};
  std::vector<std::string> folders;
  // A name can be taken: a clgrade killed before it removed its groups (SIGKILL, a node's reboot
  // of the job) had this process id once. Its empty group is removed and the name reused; one still
  // holding processes is left alone and the next name tried.
  for (int attempt = 0; attempt < 16 && folders.size() < s.parents.size(); ++attempt) {
    const std::string name = "/clgrade-" + std::to_string(getpid()) + "-" + std::to_string(made++);
    for (const std::string& parent : s.parents) {
      const std::string folder = parent + name;
      int error = mkdir(folder.c_str(), 0755) == 0 ? 0 : errno;
      if (error == EEXIST && rmdir(folder.c_str()) == 0) error = mkdir(folder.c_str(), 0755) == 0 ? 0 : errno;
      if (error == 0) {
        folders.push_back(folder);
        continue;
      }
      *err = "cannot make the control group " + folder + ": " + std::strerror(error);
      const bool taken = error == EEXIST;
      for (const std::string& f : folders) rmdir(f.c_str());
      folders.clear();
      if (!taken) return nullptr;
      break;
    }
  }
  if (folders.size() < s.parents.size()) return nullptr;
  std::shared_ptr<SandboxCgroup> group(new SandboxCgroup(s.version, folders));
  const std::string memory = std::to_string(limits.memoryBytes), tasks = std::to_string(limits.maxTasks);
  bool ok = true;
  for (size_t i = 0; i < s.controllers.size(); ++i) {
    const std::string& c = s.controllers[i];
    const std::string& f = s.version == 2 ? folders.front() : folders[i];
    auto has = [&f](const char* file) { return access((f + "/" + file).c_str(), F_OK) == 0; };
    if (c == "memory" && limits.memoryBytes) {
      ok = ok && writeText(f + (s.version == 2 ? "/memory.max" : "/memory.limit_in_bytes"), memory, err);
      // Swap counts too: none on v2, and memory with swap together on v1 (with swap accounting).
      if (s.version == 2 && has("memory.swap.max")) ok = ok && writeText(f + "/memory.swap.max", "0", err);
      if (s.version == 1 && has("memory.memsw.limit_in_bytes"))
        ok = ok && writeText(f + "/memory.memsw.limit_in_bytes", memory, err);
    } else if (c == "pids" && limits.maxTasks) {
      ok = ok && writeText(f + "/pids.max", tasks, err);
    } else if (c == "cpu") {
      ok = ok && writeText(f + (s.version == 2 ? "/cpu.weight" : "/cpu.shares"), s.version == 2 ? "100" : "1024", err);
    }
  }
  if (!ok) {
    *err = "cannot set the control group's limits: " + *err;
    return nullptr;
  }
  return group;
}

SandboxCgroup::~SandboxCgroup() {
  // Whatever is left (a process that left the sandbox's session and PID tree cannot leave its group).
  for (int round = 0; round < 50; ++round) {
    bool any = false;
    for (const std::string& f : folders_) {
      std::istringstream pids(readText(f + "/cgroup.procs"));
      for (long pid; pids >> pid;) {
        any = true;
        kill(static_cast<pid_t>(pid), SIGKILL);
      }
    }
    if (!any) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (const std::string& f : folders_) rmdir(f.c_str());
}

std::vector<std::string> SandboxCgroup::procsFiles() const {
  std::vector<std::string> files;
  for (const std::string& f : folders_) files.push_back(f + "/cgroup.procs");
  return files;
}

bool SandboxCgroup::outOfMemory() const {
  if (version_ == 2) return keyedValue(readText(folders_.front() + "/memory.events"), "oom_kill") > 0;
  return keyedValue(readText(folders_.front() + "/memory.oom_control"), "oom_kill") > 0;
}

uint64_t SandboxCgroup::peakBytes() const {
  const std::string file = version_ == 2 ? "/memory.peak" : "/memory.max_usage_in_bytes";
  try {
    return std::stoull(readText(folders_.front() + file));
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace clgrade
