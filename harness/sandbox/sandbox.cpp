#include "sandbox/sandbox.h"

#include <fcntl.h>
#include <grp.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <mutex>

#include "sandbox/cgroup.h"
#include "sandbox/seccomp_filter.h"
#include "util/files.h"
#include "util/glibc_tunables.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

/// The first executable bwrap on the usual paths (no PATH search: the keeper's PATH is not trusted
/// to be sane on a course server either).
std::string findBwrap() {
  const char* env = std::getenv("CLGRADE_BWRAP");
  if (env && *env) return env;
  for (const char* p : {"/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"})
    if (access(p, X_OK) == 0) return p;
  return "";
}

/// A uid of its own for each sandbox while the keeper is root: processes of one sandbox then count
/// against its own process limit only (RLIMIT_NPROC counts per uid), and no sandbox can signal or
/// trace another. The keeper thread's id is unique among live threads, and a sandbox never outlives
/// the thread that waits for it.
constexpr long kSandboxUidBase = 2000000000;

long sandboxUid() {
  if (geteuid() != 0) return -1;
  return kSandboxUidBase + static_cast<long>(syscall(SYS_gettid));
}

/// Below every sandbox uid (they are their own groups too), so no sandbox's own gid is this one.
constexpr long kSandboxLockGroup = kSandboxUidBase - 1;

/// Set by the probe when a new /proc cannot be mounted (inside a container: its runtime masks parts
/// of the container's /proc, and the kernel then refuses another): the sandboxes see the container's
/// own /proc, read-only. Its processes' private files stay the keeper's (another uid); their command
/// lines are readable, which hold no more than the runner already knows.
std::atomic<bool> g_containerProc{false};
/// Set by the probe when this bwrap and kernel take the hardening below (issue 27): no nested user
/// namespaces (--disable-userns, which needs a user namespace of the sandbox's own), the root and
/// /dev read-only (bwrap's tmpfs folders take up to half the RAM each and no limit counted them) and
/// a /dev/shm of kShmBytes. Where they are refused (an old bwrap, a container's seccomp profile) the
/// sandbox runs without them and says so.
std::atomic<bool> g_hardened{false};
constexpr const char* kShmBytes = "67108864";  // 64 MiB
/// True while the probe runs its empty sandboxes (they must not wait for the probe).
thread_local bool g_probing = false;

/// /bin, /lib, ... as the host has them: links into /usr (merged /usr) or folders bound read-only.
void systemView(std::vector<std::string>* a) {
  auto add = [&](std::initializer_list<std::string> words) { a->insert(a->end(), words); };
  add({"--ro-bind", "/usr", "/usr"});
  for (const char* top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(top, ec);
    if (ec || !fs::exists(st)) continue;
    if (fs::is_symlink(st))
      add({"--symlink", fs::read_symlink(top, ec).string(), top});
    else
      add({"--ro-bind", top, top});
  }
  // Of /etc only what the dynamic loader and the OpenCL ICD loader read.
  for (const char* etc : {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/OpenCL",
                          "/etc/alternatives", "/etc/localtime"}) {
    std::error_code ec;
    if (fs::exists(etc, ec)) add({"--ro-bind", etc, etc});
  }
  // /sys read-only: PoCL (hwloc) reads the CPU topology and memory size there, GPU drivers the PCI bus.
  if (g_containerProc)
    add({"--ro-bind", "/proc", "/proc"});
  else
    add({"--proc", "/proc"});
  add({"--dev", "/dev", "--ro-bind", "/sys", "/sys"});
}

/// The NVIDIA device nodes and /opt (Nsight Compute).
void gpuView(std::vector<std::string>* a) {
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator("/dev", ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("nvidia", 0) == 0 && !e.is_directory(ec))
      a->insert(a->end(), {"--dev-bind", e.path().string(), e.path().string()});
  }
  if (fs::exists("/dev/dri", ec)) a->insert(a->end(), {"--dev-bind", "/dev/dri", "/dev/dri"});
  if (fs::exists("/opt", ec)) a->insert(a->end(), {"--ro-bind", "/opt", "/opt"});
}

/// The first folder above `path` that the sandbox's uid cannot pass through ("" when none): bwrap
/// resolves a mount's path as that uid.
std::string unreachableFolder(const std::string& path, long uid) {
  if (uid < 0) return "";
  for (fs::path dir = fs::path(path).parent_path(); !dir.empty() && dir != dir.root_path(); dir = dir.parent_path()) {
    struct stat st;
    if (stat(dir.c_str(), &st) != 0) return dir.string();
    if (!(st.st_mode & S_IXOTH) && st.st_uid != static_cast<uid_t>(uid)) return dir.string();
  }
  return "";
}

/// A copy of `path` (a file or a folder, links kept as links) in this sandbox's own staging folder
/// `<scratch>/.staged` (issue 27): made afresh for every sandbox (what it reads is what is there now,
/// never an older copy kept by date), readable by the sandbox's uid and no other (as root: owned by
/// root, group the sandbox's, no access for others; the sandbox cannot change it), removed with the
/// scratch folder. For what a sandbox must read but its uid cannot reach (a build under /root). ""
/// with `err` when it cannot be made.
std::string stagedCopy(const std::string& path, const std::string& scratch, long uid, std::string* err) {
  const std::string staging = scratch + "/.staged";
  std::error_code ec;
  fs::create_directories(staging, ec);
  const bool root = geteuid() == 0 && uid >= 0;
  if (!ec && root && chown(staging.c_str(), 0, static_cast<gid_t>(uid)) != 0)
    ec = std::error_code(errno, std::generic_category());
  if (!ec) fs::permissions(staging, fs::perms(0750), ec);
  // One folder per staged path: two paths of one name (two tools called clgrade) stay apart.
  size_t n = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(staging, ec)) (void)e, ++n;
  const std::string dir = staging + "/" + std::to_string(n);
  const std::string copy = dir + "/" + fs::path(path).filename().string();
  if (!ec) fs::create_directory(dir, ec);
  if (!ec) fs::copy(path, copy, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  if (ec) {
    *err = "the sandbox cannot reach " + path + " and it cannot be copied where it can: " + ec.message();
    return "";
  }
  // Readable (and executables executable) by the sandbox's group; nothing for other users.
  auto open = [&](const fs::path& p) {
    std::error_code e;
    const fs::file_status st = fs::symlink_status(p, e);
    if (fs::is_symlink(st)) return;
    if (root && lchown(p.c_str(), 0, static_cast<gid_t>(uid)) != 0) return;
    const bool x = fs::is_directory(st) || (st.permissions() & fs::perms::owner_exec) != fs::perms::none;
    fs::permissions(p, x ? fs::perms(0750) : fs::perms(0640), e);
  };
  open(dir);
  open(copy);
  if (fs::is_directory(copy, ec))
    for (auto it = fs::recursive_directory_iterator(copy, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
      open(it->path());
  return copy;
}

/// What the OpenCL ICD loader reads outside the system's folders, as the keeper's environment names
/// it (the README's recipe for NVIDIA without root: OCL_ICD_VENDORS=<a folder>): the vendors folder,
/// the libraries its .icd files and OCL_ICD_FILENAMES name by absolute path, and their folders (a
/// driver's library loads its siblings). Without them the keeper saw a device and every runner none.
std::vector<std::string> icdLoaderPaths() {
  std::vector<std::string> paths;
  std::error_code ec;
  auto add = [&](const std::string& path) {
    if (path.empty() || path[0] != '/' || !fs::exists(path, ec)) return;
    for (const char* system : {"/usr/", "/etc/", "/lib", "/bin/", "/sbin/", "/opt/"})
      if (path.rfind(system, 0) == 0) return;  // the sandbox has these already
    if (std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(path);
  };
  auto library = [&](std::string name) {
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
    if (name.empty() || name[0] != '/') return;
    add(fs::path(name).parent_path().string());
  };
  if (const char* vendors = std::getenv("OCL_ICD_VENDORS"); vendors && *vendors) {
    if (fs::is_directory(vendors, ec)) {
      add(fs::absolute(vendors, ec).lexically_normal().string());
      for (const fs::directory_entry& e : fs::directory_iterator(vendors, ec)) {
        std::string text;
        if (e.path().extension() == ".icd" && readFile(e.path().string(), &text, nullptr, 4096)) library(text);
      }
    } else {
      library(vendors);  // a single .icd file's library, or the file itself
      add(vendors);
    }
  }
  if (const char* files = std::getenv("OCL_ICD_FILENAMES"); files && *files) {
    std::string list = files;
    for (size_t at = 0; at <= list.size();) {
      const size_t end = std::min(list.find(':', at), list.size());
      library(list.substr(at, end - at));
      at = end + 1;
    }
  }
  return paths;
}

/// Opens `path` as an O_PATH descriptor for bwrap's --bind-fd: the keeper resolves the path with its
/// own rights (a build under /root is not reachable by the sandbox's uid), bwrap binds what it got.
int openForBind(const std::string& path, std::string* err) {
  const int fd = open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) *err = "cannot open " + path + " for the sandbox: " + std::strerror(errno);
  return fd;
}

}  // namespace

std::map<std::string, std::string> openclEnvironment(const std::string& scratch,
                                                     const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> env{{"HOME", scratch},
                                         {"TMPDIR", "/tmp"},
                                         {"PATH", "/usr/local/bin:/usr/bin:/bin"},
                                         {"LANG", "C.UTF-8"},
                                         {"POCL_CACHE_DIR", scratch + "/pocl-cache"},
                                         {"XDG_CACHE_HOME", scratch + "/cache"}};
  for (const char* name : {"OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "POCL_DEVICES", "POCL_MAX_CPU_CU_COUNT",
                           "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "CUDA_DEVICE_MAX_CONNECTIONS"}) {
    const char* v = std::getenv(name);
    if (v && *v) env[name] = v;
  }
  // The huge pages of cl/driver_settings.h, and none of the user's other tunables.
  if (const std::string hugePages = hugePagesTunable(); !hugePages.empty()) env["GLIBC_TUNABLES"] = hugePages;
  for (const auto& [k, v] : extra) env[k] = v;
  return env;
}

const SandboxSupport& sandboxSupport() {
  static SandboxSupport support;
  static std::once_flag once;
  std::call_once(once, [] {
    support.bwrap = findBwrap();
    support.identity = geteuid() == 0 ? "a uid of its own per sandbox (nobody inside)"
                                      : "your own uid outside, nobody inside (no process limit: run as root for one)";
    if (support.bwrap.empty()) {
      support.reason = "bubblewrap (bwrap) is not installed: apt-get install bubblewrap";
      return;
    }
    // Earlier versions staged copies in one folder every user could read, never removed (a runner's
    // request there held the hidden seed): gone with the first sandbox of this one.
    std::error_code staleEc;
    if (geteuid() == 0) fs::remove_all("/var/cache/clgrade/staging", staleEc);
    // In the system's temporary folder, TMPDIR honoured (a machine whose /tmp is read-only sets it).
    std::error_code tmpEc;
    std::string pattern = (fs::temp_directory_path(tmpEc) / "clgrade-probe-XXXXXX").string();
    if (tmpEc || !mkdtemp(pattern.data())) {
      support.reason = "cannot make a scratch folder in the temporary folder (" + pattern +
                       "; set TMPDIR to a writable one): " + std::strerror(errno);
      return;
    }
    const std::string scratch = pattern;
    SandboxSpec spec;
    spec.scratch = scratch;
    spec.env = {{"PATH", "/usr/bin:/bin"}};
    const std::string errPath = std::string(scratch) + ".err";
    // One empty sandbox: "" when it ran, else why not.
    auto attempt = [&]() -> std::string {
      ProcessSpec p;
      p.argv = {"/bin/true"};
      p.timeoutSeconds = 30;
      p.stderrPath = errPath;
      std::string err;
      if (!sandboxProcess(spec, &p, &err)) return err.empty() ? "the sandbox could not be set up" : err;
      const ProcessResult r = runProcess(p);
      if (r.ok()) return "";
      std::string why;
      if (FILE* f = std::fopen(errPath.c_str(), "r")) {
        char line[512] = {0};
        if (std::fgets(line, sizeof line, f)) why = line;
        std::fclose(f);
      }
      while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
      return "bwrap cannot make a sandbox here (" + r.describe() + (why.empty() ? "" : ": " + why) +
             "); user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1, or "
             "user.max_user_namespaces > 0)";
    };
    g_probing = true;
    g_hardened = true;
    std::string hardening = attempt();
    if (!hardening.empty()) g_hardened = false;
    std::string why = hardening.empty() ? "" : attempt();
    if (why.find("mount proc") != std::string::npos) {
      // In a container (Docker, Podman: where PrairieLearn and Gradescope grade): its own /proc.
      g_containerProc = true;
      const std::string again = attempt();
      if (again.empty())
        support.identity += "; the container's /proc, read-only (a new one cannot be mounted here)";
      else
        g_containerProc = false;
      why = again.empty() ? "" : why + "; with the container's /proc: " + again;
    }
    g_probing = false;
    if (!hardening.empty() && why.empty())
      support.identity +=
          "; nested user namespaces allowed and / and /dev writable (this bwrap refused "
          "--disable-userns or --remount-ro: " +
          hardening + ")";
    support.available = why.empty();
    support.reason = why;
    std::error_code ec;
    fs::remove(errPath, ec);
    fs::remove_all(scratch, ec);
  });
  return support;
}

bool sandboxCanReach(const std::string& path) { return unreachableFolder(path, sandboxUid()).empty(); }

long sandboxLockGroup() {
  // A machine whose directory gives real groups ids this high (SSSD's ranges reach 2000200000) may
  // have one with this id: its members could then open the locks. Then there is no such group.
  static const bool unused = [] {
    struct group entry {};
    struct group* found = nullptr;
    std::vector<char> buffer(16384);
    return getgrgid_r(static_cast<gid_t>(kSandboxLockGroup), &entry, buffer.data(), buffer.size(), &found) == 0 &&
           found == nullptr;
  }();
  return geteuid() == 0 && unused ? kSandboxLockGroup : -1;
}

std::string sandboxDescription(bool sandboxed) {
  if (!sandboxed) return "none (--no-sandbox: student code ran with the grader's rights)";
  const SandboxSupport& support = sandboxSupport();  // the probe decides g_hardened
  return "bubblewrap: own user, PID, network, IPC and UTS namespaces; " + support.identity + "; read-only system" +
         (g_hardened ? ", root and /dev, no nested user namespaces, /dev/shm of 64 MiB" : "") +
         "; one scratch folder; process limit; a system-call filter (ptrace, namespaces, mounts, eBPF, "
         "io_uring, keyrings ... refused); " +
         cgroupDescription();
}

namespace {

/// A control group of the sandbox's own (sandbox/cgroup.h), which `process` joins as it starts:
/// memory with tmpfs and shared memory, tasks, an equal CPU share. Its out-of-memory kill is the
/// process's memory limit.
bool joinOwnGroup(const SandboxSpec& spec, ProcessSpec* process, std::shared_ptr<SandboxCgroup>* group,
                  std::string* err) {
  CgroupLimits limits;
  limits.memoryBytes = spec.memoryBytes ? spec.memoryBytes : process->memoryLimitBytes;
  limits.maxTasks = spec.maxProcesses;
  std::string why;
  *group = SandboxCgroup::make(limits, &why);
  if (!*group) {
    *err = "the sandbox's control group: " + why;
    return false;
  }
  process->joinGroups = (*group)->procsFiles();
  process->afterEnd = [kept = *group](ProcessResult* r) {
    if (r->signal == SIGKILL && kept->outOfMemory()) r->memoryExceeded = true;
    r->peakResidentBytes = std::max(r->peakResidentBytes, kept->peakBytes());
  };
  return true;
}

}  // namespace

bool sandboxProcess(const SandboxSpec& spec, ProcessSpec* process, std::string* err) {
  // Whether this machine's sandboxes mount their own /proc is the probe's finding: made first.
  if (!g_probing) (void)sandboxSupport();
  const std::string bwrap = findBwrap();
  if (bwrap.empty()) {
    *err = "bubblewrap (bwrap) is not installed: apt-get install bubblewrap";
    return false;
  }
  const long uid = sandboxUid();
  std::error_code ec;
  fs::create_directories(spec.scratch + "/tmp", ec);
  if (ec) {
    *err = "cannot make the scratch folder " + spec.scratch + ": " + ec.message();
    return false;
  }
  if (uid >= 0) {
    for (const std::string& dir : {spec.scratch, spec.scratch + "/tmp"})
      if (chown(dir.c_str(), static_cast<uid_t>(uid), static_cast<gid_t>(uid)) != 0) {
        *err = "cannot give the scratch folder to the sandbox's uid: " + std::string(std::strerror(errno));
        return false;
      }
  }
  chmod(spec.scratch.c_str(), 0700);
  // The shared cache under its lock, else a private one (see SandboxSpec::cache).
  std::string cache = spec.scratch + "/pocl-cache";
  std::shared_ptr<const void> cacheLock;
  if (!spec.cache.empty()) {
    fs::create_directories(fs::path(spec.cache).parent_path(), ec);
    const int lock = open((spec.cache + ".lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    if (lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0) {
      futimens(lock, nullptr);  // when it was last used: old caches are removed (intake/pocl_cache.h)
      cacheLock = std::shared_ptr<const void>(nullptr, [lock](const void*) { close(lock); });
      cache = spec.cache;
      fs::create_directories(cache, ec);
      // Everything below it: the submission's last sandbox had another uid.
      if (uid >= 0) {
        if (chown(cache.c_str(), static_cast<uid_t>(uid), static_cast<gid_t>(uid)) != 0)
          cache = spec.scratch + "/pocl-cache";
        for (auto it = fs::recursive_directory_iterator(spec.cache, ec);
             !ec && cache == spec.cache && it != fs::recursive_directory_iterator(); it.increment(ec))
          if (lchown(it->path().c_str(), static_cast<uid_t>(uid), static_cast<gid_t>(uid)) != 0) break;
      }
      chmod(spec.cache.c_str(), 0700);
    } else if (lock >= 0) {
      close(lock);
    }
  }

  auto fds = std::make_shared<std::vector<int>>();
  std::shared_ptr<const std::vector<int>> owner(fds.get(), [fds](const std::vector<int>*) {
    for (int fd : *fds) close(fd);
  });
  // No --hostname: a container's seccomp profile (Docker's, Podman's: where PrairieLearn and
  // Gradescope grade) refuses sethostname even in the sandbox's own user namespace, and the name
  // protects nothing; the UTS namespace is still the sandbox's own (--unshare-all).
  std::vector<std::string> a{
      bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--uid", "65534", "--gid", "65534", "--cap-drop",
      "ALL"};
  if (g_hardened) a.insert(a.end(), {"--unshare-user", "--disable-userns"});
  systemView(&a);
  if (g_hardened) a.insert(a.end(), {"--size", kShmBytes, "--tmpfs", "/dev/shm"});
  if (spec.gpu) gpuView(&a);
  auto bindFd = [&](std::string path, const std::string& dest, bool writable) {
    std::string closed = unreachableFolder(path, uid);
    // Read-only, it can be a copy in a folder the sandbox's uid reaches (a build under /root, say).
    if (!closed.empty() && !writable) {
      const std::string staged = stagedCopy(path, spec.scratch, uid, err);
      if (staged.empty()) return false;
      path = staged;
      closed.clear();
    }
    if (!closed.empty()) {
      *err = "the sandbox cannot reach " + path + ": the folder " + closed +
             " is not searchable by other users (chmod o+x it, or install clgrade and keep reports elsewhere)";
      return false;
    }
    const int fd = openForBind(path, err);
    if (fd < 0) return false;
    fds->push_back(fd);
    a.insert(a.end(), {writable ? "--bind-fd" : "--ro-bind-fd", std::to_string(fd), dest});
    return true;
  };
  // /tmp first: the scratch folder or a mount may itself lie below /tmp on the host.
  if (!bindFd(spec.scratch + "/tmp", "/tmp", true)) return false;
  for (const SandboxMount& m : spec.mounts)
    if (!bindFd(m.path, m.path, m.writable)) return false;
  for (const std::string& path : icdLoaderPaths())
    if (!bindFd(path, path, false)) return false;
  if (!bindFd(spec.scratch, spec.scratch, true)) return false;
  if (cache == spec.cache && !bindFd(spec.cache, spec.cache, true)) return false;
  if (g_hardened) a.insert(a.end(), {"--remount-ro", "/dev", "--remount-ro", "/"});
  // The system-call filter (sandbox/seccomp_filter.h), applied by bwrap just before the program.
  const int filter = seccompFilterFd(err);
  if (filter < 0) return false;
  fds->push_back(filter);
  a.insert(a.end(), {"--seccomp", std::to_string(filter)});
  a.push_back("--clearenv");
  // The compiler caches (PoCL's, and NVIDIA's JIT cache of PTX) live in the cache it got.
  for (const auto& [k, v] : spec.env)
    if (k != "POCL_CACHE_DIR" && k != "CUDA_CACHE_PATH") a.insert(a.end(), {"--setenv", k, v});
  a.insert(a.end(), {"--setenv", "POCL_CACHE_DIR", cache, "--setenv", "CUDA_CACHE_PATH", cache + "/nv"});
  a.insert(a.end(), {"--chdir", spec.scratch, "--"});
  a.insert(a.end(), process->argv.begin(), process->argv.end());
  process->argv = std::move(a);
  process->env.clear();
  process->clearEnvironment = true;
  process->inheritFds = owner;
  process->uid = uid;
  process->gid = uid;
  if (uid >= 0) process->supplementaryGid = sandboxLockGroup();  // the machine's timing locks
  // RLIMIT_NPROC counts every process of a uid: only a uid of the sandbox's own can carry it.
  process->limits.maxProcesses = uid >= 0 && spec.maxProcesses > 0 ? uint64_t(spec.maxProcesses) : 0;
  process->watchProcessTree = true;
  std::shared_ptr<SandboxCgroup> group;
  if (cgroupSupport().available && !joinOwnGroup(spec, process, &group, err)) return false;
  process->heldWhileRunning =
      std::make_shared<std::pair<std::shared_ptr<const void>, std::shared_ptr<SandboxCgroup>>>(cacheLock, group);
  // bwrap ends as its program did, a signal as exit code 128 + the signal.
  process->signalsAsExitCodes = true;
  process->maxTreeProcesses = spec.maxTreeProcesses;
  return true;
}

}  // namespace clgrade
