#include "sandbox/seccomp_filter.h"

#include <seccomp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace clgrade {
namespace {

/// Refused with EPERM. None is made by a runner, the simulator, PoCL, NVIDIA's driver or ncu's
/// target process (checked with the test suite on PoCL and with `check` on an H100).
const char* const kRefused[] = {
    // Other processes: tracing, reading and writing their memory.
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    // Namespaces and mounts (bwrap has made the sandbox's by the time the filter applies).
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen", "fsmount",
    "fsconfig", "fspick", "mount_setattr",
    // The kernel itself: modules, kexec, eBPF, keyrings, the log, swap, accounting, quotas.
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load", "bpf", "add_key", "request_key",
    "keyctl", "syslog", "swapon", "swapoff", "acct", "quotactl", "reboot", "lookup_dcookie",
    // io_uring runs operations no filter sees; userfaultfd stalls the kernel on page faults.
    "io_uring_setup", "io_uring_enter", "io_uring_register", "userfaultfd",
    // Files by handle (past the sandbox's view of the file system), fanotify, the clock.
    "open_by_handle_at", "name_to_handle_at", "fanotify_init", "settimeofday", "clock_settime", "clock_adjtime",
    "adjtimex", "vhangup", "personality", nullptr};

}  // namespace

const char* const* refusedSystemCalls() { return kRefused; }

int seccompFilterFd(std::string* err) {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) {
    *err = "libseccomp could not make a filter";
    return -1;
  }
  for (const char* const* name = kRefused; *name; ++name) {
    const int nr = seccomp_syscall_resolve_name(*name);
    if (nr == __NR_SCMP_ERROR) continue;  // not a call of this architecture
    if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0) != 0) {
      *err = std::string("libseccomp refused a rule for ") + *name;
      seccomp_release(ctx);
      return -1;
    }
  }
  const int fd = memfd_create("clgrade-seccomp", MFD_CLOEXEC);
  if (fd < 0 || seccomp_export_bpf(ctx, fd) != 0 || lseek(fd, 0, SEEK_SET) != 0) {
    *err = std::string("the system-call filter could not be written: ") + std::strerror(errno);
    if (fd >= 0) close(fd);
    seccomp_release(ctx);
    return -1;
  }
  seccomp_release(ctx);
  return fd;
}

}  // namespace clgrade
