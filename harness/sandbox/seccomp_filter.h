// The system-call filter of every sandbox (libseccomp, handed to bwrap as --seccomp): what no
// grading run needs and a hostile kernel could use against the machine or the wall is refused
// with EPERM: tracing or reading other processes, new namespaces, mounts, kernel modules and
// keyrings, eBPF, io_uring (whose operations no filter sees), userfaultfd, the clock, the
// machine's state. A call of another architecture's table (int 0x80 on x86-64) kills the process.
#pragma once

#include <string>

namespace clgrade {

/// A descriptor holding the compiled filter (a memfd at offset 0, read once by bwrap), or -1 with
/// `err`. Made anew for each sandbox: bwrap consumes what it reads.
int seccompFilterFd(std::string* err);

/// The system calls the filter refuses, for the sandbox line and the tests.
const char* const* refusedSystemCalls();

}  // namespace clgrade
