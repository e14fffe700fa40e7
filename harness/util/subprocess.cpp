#include "util/subprocess.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

extern char** environ;

namespace clgrade {

std::string signalName(int signal) {
  // sigabbrev_np is glibc >= 2.32; Debian 12 has 2.36.
  const char* abbrev = sigabbrev_np(signal);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(signal);
}

std::string ProcessResult::describe() const {
  if (!started) return "could not start: " + error;
  if (timedOut && waitedSeconds >= 0.5)
    return "timed out after " + std::to_string(static_cast<int>(seconds - waitedSeconds + 0.5)) + " s (not counting " +
           std::to_string(static_cast<int>(waitedSeconds + 0.5)) + " s waiting for other grading jobs)";
  if (timedOut) return "timed out after " + std::to_string(static_cast<int>(seconds + 0.5)) + " s";
  if (tooManyProcesses) return "stopped: it started too many processes";
  if (memoryExceeded)
    return "stopped after using more than " + std::to_string(peakResidentBytes >> 20) + " MiB of memory";
  if (!stoppedBy.empty()) return "stopped: " + stoppedBy;
  if (signal)
    return "killed by signal " + std::to_string(signal) + " (" + signalName(signal) + ", " + strsignal(signal) + ")";
  return "exit code " + std::to_string(exitCode);
}

std::string selfExecutable() {
  std::error_code ec;
  return std::filesystem::read_symlink("/proc/self/exe", ec).string();
}

uint64_t physicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? uint64_t(pages) * uint64_t(size) : 0;
}

int usableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

namespace {

int openOutput(const std::string& path) {
  return open(path.empty() ? "/dev/null" : path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

/// Resident bytes of a process from /proc/<pid>/statm (0 when it is gone).
uint64_t residentBytes(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/statm", static_cast<int>(pid));
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buffer[128];
  const ssize_t n = read(fd, buffer, sizeof buffer - 1);
  close(fd);
  if (n <= 0) return 0;
  buffer[n] = '\0';
  unsigned long long size = 0, resident = 0;
  if (std::sscanf(buffer, "%llu %llu", &size, &resident) != 2) return 0;
  return uint64_t(resident) * uint64_t(sysconf(_SC_PAGESIZE));
}

/// One captured stream: a pipe read by the parent, the first `limit` bytes written to a file.
struct Capture {
  int readFd = -1;
  int fileFd = -1;
  uint64_t total = 0;
  size_t limit = 0;
  bool open() const { return readFd >= 0; }
  /// Reads what is there; false at end of file.
  bool drain() {
    char buffer[65536];
    for (;;) {
      const ssize_t n = read(readFd, buffer, sizeof buffer);
      if (n > 0) {
        if (total < limit) {
          const size_t keep = std::min<uint64_t>(uint64_t(n), limit - total);
          if (fileFd >= 0 && write(fileFd, buffer, keep) < 0) { /* a full disk: keep draining */
          }
        }
        total += uint64_t(n);
        continue;
      }
      if (n == 0) return false;
      if (errno == EINTR) continue;
      return errno == EAGAIN || errno == EWOULDBLOCK;
    }
  }
  void close_() {
    if (readFd >= 0) close(readFd);
    if (fileFd >= 0) close(fileFd);
    readFd = fileFd = -1;
  }
};

using ChildrenMap = std::map<pid_t, std::vector<pid_t>>;

/// Every process's children, from one pass over /proc.
ChildrenMap scanChildren() {
  ChildrenMap children;
  std::error_code ec;
  for (const std::filesystem::directory_entry& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    char path[64], buffer[512];
    std::snprintf(path, sizeof path, "/proc/%s/stat", name.c_str());
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    const ssize_t n = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (n <= 0) continue;
    buffer[n] = '\0';
    const char* close_ = std::strrchr(buffer, ')');  // the command name may hold spaces and parentheses
    int ppid = 0;
    char state = 0;
    if (!close_ || std::sscanf(close_ + 1, " %c %d", &state, &ppid) != 2) continue;
    children[ppid].push_back(static_cast<pid_t>(std::atoi(name.c_str())));
  }
  return children;
}

/// scanChildren's map, one pass shared by every watcher of this process within kTreeScanPeriod: a
/// batch of 24 jobs read the whole of /proc 240 times a second, one pass for each tree it watched.
/// A process started since the pass is counted at the next one, as it was at a watcher's next tick.
constexpr std::chrono::milliseconds kTreeScanPeriod(100);
std::shared_ptr<const ChildrenMap> recentChildren() {
  static std::mutex mutex;
  static std::shared_ptr<const ChildrenMap> scanned;
  static std::chrono::steady_clock::time_point scannedAt;
  const std::lock_guard<std::mutex> hold(mutex);
  const auto now = std::chrono::steady_clock::now();
  if (!scanned || now - scannedAt >= kTreeScanPeriod) {
    scanned = std::make_shared<const ChildrenMap>(scanChildren());
    scannedAt = now;
  }
  return scanned;
}

/// Resident bytes of a process and all its descendants (a sandbox: bwrap, its init, the program and
/// whatever the program started).
uint64_t treeResidentBytes(pid_t root, int* processes) {
  const std::shared_ptr<const ChildrenMap> children = recentChildren();
  uint64_t total = 0;
  std::vector<pid_t> todo{root};
  for (size_t i = 0; i < todo.size() && i < 100000; ++i) {
    total += residentBytes(todo[i]);
    const auto it = children->find(todo[i]);
    if (it != children->end()) todo.insert(todo.end(), it->second.begin(), it->second.end());
  }
  *processes = static_cast<int>(todo.size());
  return total;
}

/// The child's stdout and stderr: pipes drained into capped files (ProcessSpec::outputLimitBytes),
/// or the files themselves. False with `error` when they cannot be opened.
bool openOutputs(const ProcessSpec& spec, Capture (&captures)[2], int* out, int* err, std::string* error) {
  if (spec.outputLimitBytes > 0) {
    for (int i = 0; i < 2; ++i) {
      int fds[2];
      if (pipe2(fds, O_CLOEXEC) != 0) {
        *error = std::string("cannot create a pipe: ") + std::strerror(errno);
        for (Capture& c : captures) c.close_();
        if (*out >= 0) close(*out);
        return false;
      }
      captures[i].readFd = fds[0];
      captures[i].limit = spec.outputLimitBytes;
      fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
      (i == 0 ? *out : *err) = fds[1];
    }
    captures[0].fileFd = openOutput(spec.stdoutPath);
    captures[1].fileFd = openOutput(spec.stderrPath);
  } else {
    *out = openOutput(spec.stdoutPath);
    *err = openOutput(spec.stderrPath);
  }
  if (*out >= 0 && *err >= 0) return true;
  *error = "cannot open the output files";
  if (*out >= 0) close(*out);
  if (*err >= 0) close(*err);
  for (Capture& c : captures) c.close_();
  return false;
}

/// What execve gets, prepared before the child starts: between its start and exec a child of a
/// multi-threaded parent may only make async-signal-safe calls (no malloc, no setenv).
struct ExecImage {
  std::vector<char*> args, envp;
  std::vector<std::string> envStrings;
  std::vector<int> keep;  ///< the descriptors above 2 the child keeps, ascending
  explicit ExecImage(const ProcessSpec& spec) {
    if (spec.inheritFds) keep = *spec.inheritFds;
    std::sort(keep.begin(), keep.end());
    for (const std::string& a : spec.argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    for (char** e = environ; !spec.clearEnvironment && e && *e; ++e) {
      const std::string entry = *e;
      const std::string name = entry.substr(0, entry.find('='));
      if (!spec.env.count(name)) envStrings.push_back(entry);
    }
    for (const auto& [name, value] : spec.env) envStrings.push_back(name + "=" + value);
    for (std::string& s : envStrings) envp.push_back(s.data());
    envp.push_back(nullptr);
  }
};

/// Closes the descriptors from `low` to `high`; async-signal-safe.
void closeRange(int low, int high) {
  if (low > high) return;
#ifdef SYS_close_range
  if (syscall(SYS_close_range, static_cast<unsigned>(low), static_cast<unsigned>(high), 0u) == 0) return;
#endif
  // No close_range (a kernel before 5.9, a container's seccomp profile): one close each, up to the
  // highest descriptor the process may hold.
  struct rlimit files {};
  const int top =
      getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY && files.rlim_cur < (1u << 20)
          ? static_cast<int>(files.rlim_cur) - 1
          : 65535;
  for (int fd = low; fd <= std::min(high, top); ++fd) close(fd);
}

/// The child starts with its stdin on /dev/null, its outputs, and the descriptors its spec names:
/// nothing that whoever started clgrade left open (a CI runner's, a shell's, a platform script's
/// files) reaches the program, nor, through /proc/<pid>/fd, a kernel inside a sandbox (issue 27).
/// Async-signal-safe.
void keepOnlyOwnDescriptors(const ExecImage& image, int out, int err) {
  dup2(out, 1);
  dup2(err, 2);
  const int nothing = open("/dev/null", O_RDONLY);
  if (nothing > 0) {
    dup2(nothing, 0);
    close(nothing);
  }
  int from = 3;
  for (int fd : image.keep) {
    if (fd < from) continue;
    closeRange(from, fd - 1);
    from = fd + 1;
  }
  closeRange(from, INT_MAX);
}

/// The child before exec: its control groups first (before it can start anything), its own process
/// group (so a time-out kills its children too), death with the parent, limits, outputs,
/// environment; then the program. It shares the parent's memory (startChild): system calls only,
/// nothing written but its own stack (and errno, of the parent's thread, which waits meanwhile), and
/// the credentials changed by raw system calls (glibc's setuid would tell every thread of the parent
/// to change theirs).
[[noreturn]] void becomeChild(const ProcessSpec& spec, const ExecImage& image, int out, int err, pid_t parent,
                              const std::vector<int>& groups) {
  for (int fd : groups)
    if (fd < 0 || write(fd, "0", 1) != 1) _exit(126);
  setpgid(0, 0);
  if (spec.dieWithParent) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(126);  // the parent died before prctl
  }
  if (spec.limits.noCoreDumps) {
    const struct rlimit none { 0, 0 };
    setrlimit(RLIMIT_CORE, &none);
  }
  if (spec.limits.fileSizeBytes) {
    const struct rlimit size { spec.limits.fileSizeBytes, spec.limits.fileSizeBytes };
    setrlimit(RLIMIT_FSIZE, &size);
    signal(SIGXFSZ, SIG_IGN);  // inherited across exec: a write past the limit fails instead
  }
  if (spec.limits.addressSpaceBytes) {
    const struct rlimit as { spec.limits.addressSpaceBytes, spec.limits.addressSpaceBytes };
    setrlimit(RLIMIT_AS, &as);
  }
  if (spec.limits.maxProcesses) {
    const struct rlimit n { spec.limits.maxProcesses, spec.limits.maxProcesses };
    setrlimit(RLIMIT_NPROC, &n);
  }
  if (spec.inheritFds)
    for (int fd : *spec.inheritFds) fcntl(fd, F_SETFD, 0);
  const gid_t extra = static_cast<gid_t>(spec.supplementaryGid);
  if (spec.gid >= 0 && (syscall(SYS_setgroups, spec.supplementaryGid >= 0 ? 1 : 0, &extra) != 0 ||
                        syscall(SYS_setgid, static_cast<gid_t>(spec.gid)) != 0))
    _exit(126);
  if (spec.uid >= 0 && syscall(SYS_setuid, static_cast<uid_t>(spec.uid)) != 0) _exit(126);
  keepOnlyOwnDescriptors(image, out, err);
  execve(image.args[0], image.args.data(), image.envp.data());
  _exit(127);
}

struct ChildStart {
  const ProcessSpec* spec;
  const ExecImage* image;
  int out, err;
  pid_t parent;
  const std::vector<int>* groups;
  sigset_t mask;  ///< the parent thread's signal mask, restored in the child before exec
};

int childMain(void* arg) {
  const ChildStart& c = *static_cast<const ChildStart*>(arg);
  // No handler of the parent's may run here, in its memory: each caught signal back to its default.
  for (int signal = 1; signal < NSIG; ++signal) {
    struct sigaction action {};
    if (sigaction(signal, nullptr, &action) != 0 || action.sa_handler == SIG_DFL || action.sa_handler == SIG_IGN)
      continue;
    action = {};
    action.sa_handler = SIG_DFL;
    sigaction(signal, &action, nullptr);
  }
  sigprocmask(SIG_SETMASK, &c.mask, nullptr);
  becomeChild(*c.spec, *c.image, c.out, c.err, c.parent, *c.groups);
}

/// Starts the child as posix_spawn does: it shares this process's memory and runs on a stack of its
/// own while this thread waits for its exec. A fork would copy the page tables of the keeper (gigabytes
/// of inputs and results in a batch) and make every page it then writes fault once more, in every
/// thread, for each of the hundreds of processes a batch starts. -1 with errno when none starts.
pid_t startChild(const ProcessSpec& spec, const ExecImage& image, int out, int err, pid_t parent,
                 const std::vector<int>& groups) {
  ChildStart c{&spec, &image, out, err, parent, &groups, {}};
  std::vector<char> stack(size_t(256) << 10);
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &c.mask);  // none delivered to the child before its handlers are reset
  const pid_t pid = clone(childMain, stack.data() + stack.size(), CLONE_VM | CLONE_VFORK | SIGCHLD, &c);
  const int cloneErrno = errno;
  pthread_sigmask(SIG_SETMASK, &c.mask, nullptr);
  errno = cloneErrno;
  return pid;
}

/// Watches the running child until it ends or breaks a limit (then its whole group is killed):
/// drains its outputs, samples its resident memory, counts its time without the time it waits on
/// other jobs. True when the child was reaped (`status` holds how it ended).
bool superviseChild(const ProcessSpec& spec, pid_t pid, Capture (&captures)[2],
                    std::chrono::steady_clock::time_point start, ProcessResult* result, int* status) {
  const bool piped = spec.outputLimitBytes > 0;
  unsigned treeTick = 0;
  unsigned waitTick = 0;
  double lastSeconds = 0;
  bool waiting = false;
  auto kill_ = [&] {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
  };
  for (;;) {
    if (piped) {
      pollfd fds[2];
      nfds_t n = 0;
      for (Capture& c : captures)
        if (c.open()) fds[n++] = {c.readFd, POLLIN, 0};
      if (n > 0) {
        poll(fds, n, 20);
        for (Capture& c : captures)
          if (c.open() && !c.drain()) {
            close(c.readFd);
            c.readFd = -1;
          }
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    const pid_t done = waitpid(pid, status, WNOHANG);
    result->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (done == pid) return true;
    // A whole tree is summed every 100 ms (one pass over /proc); a single process every 20 ms.
    uint64_t rss = 0;
    if (!spec.watchProcessTree)
      rss = residentBytes(pid);
    else if (++treeTick % 5 == 0) {
      int processes = 0;
      rss = treeResidentBytes(pid, &processes);
      if (spec.maxTreeProcesses > 0 && processes >= spec.maxTreeProcesses) {
        kill_();
        result->tooManyProcesses = true;
        return false;
      }
    }
    // Time spent waiting on other jobs is taken out of the time limit (checked every 100 ms).
    if (spec.waitingOnOthers && waitTick++ % 5 == 0) waiting = spec.waitingOnOthers(pid);
    if (waiting && result->waitedSeconds < spec.uncountedLimitSeconds)
      result->waitedSeconds =
          std::min(spec.uncountedLimitSeconds, result->waitedSeconds + result->seconds - lastSeconds);
    lastSeconds = result->seconds;
    if (rss > result->peakResidentBytes) result->peakResidentBytes = rss;
    if (spec.memoryLimitBytes && rss > spec.memoryLimitBytes) {
      kill_();
      result->memoryExceeded = true;
      return false;
    }
    if (spec.timeoutSeconds > 0 && result->seconds - result->waitedSeconds > spec.timeoutSeconds) {
      kill_();
      result->timedOut = true;
      result->stoppedWaiting = waiting && result->waitedSeconds >= spec.uncountedLimitSeconds;
      return false;
    }
    if (spec.monitor) {
      std::string reason = spec.monitor(result->seconds);
      if (!reason.empty()) {
        kill_();
        result->stoppedBy = std::move(reason);
        return false;
      }
    }
    if (!piped) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace

ProcessResult runProcess(const ProcessSpec& spec) {
  ProcessResult result;
  const auto start = std::chrono::steady_clock::now();
  if (spec.argv.empty()) {
    result.error = "no command";
    return result;
  }
  int out = -1, err = -1;
  Capture captures[2];
  if (!openOutputs(spec, captures, &out, &err, &result.error)) return result;
  const ExecImage image(spec);
  const pid_t parent = getpid();
  std::vector<int> groups;  // opened here: the child only writes
  for (const std::string& file : spec.joinGroups) groups.push_back(open(file.c_str(), O_WRONLY | O_CLOEXEC));
  auto closeGroups = [&groups] {
    for (int fd : groups)
      if (fd >= 0) close(fd);
  };

  std::fflush(nullptr);
  const pid_t pid = startChild(spec, image, out, err, parent, groups);
  if (pid < 0) {
    result.error = std::strerror(errno);
    closeGroups();
    close(out);
    close(err);
    for (Capture& c : captures) c.close_();
    return result;
  }
  closeGroups();
  setpgid(pid, pid);  // also here: the child may not have run its own setpgid yet
  close(out);
  close(err);
  result.started = true;
  int status = 0;
  if (!superviseChild(spec, pid, captures, start, &result, &status)) waitpid(pid, &status, 0);
  // What is left in the pipes (a grandchild that still holds them is not waited for).
  for (Capture& c : captures) {
    if (c.open()) c.drain();
    c.close_();
  }
  result.stdoutBytes = captures[0].total;
  result.stderrBytes = captures[1].total;
  if (WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  if (spec.signalsAsExitCodes && result.exitCode > 128 && result.exitCode < 128 + 65) {
    result.signal = result.exitCode - 128;
    result.exitCode = -1;
  }
  if (spec.afterEnd) spec.afterEnd(&result);
  return result;
}

ProcessResult runProcess(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                         double timeoutSeconds, const std::string& stdoutPath, const std::string& stderrPath) {
  ProcessSpec spec;
  spec.argv = argv;
  spec.env = env;
  spec.timeoutSeconds = timeoutSeconds;
  spec.stdoutPath = stdoutPath;
  spec.stderrPath = stderrPath;
  return runProcess(spec);
}

}  // namespace clgrade
