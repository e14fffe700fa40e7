/* Red team: runs a shell from the kernel. It prints `id` (the sandbox must show an unprivileged
 * uid) and tries to create /tmp/clgrade_sandbox_escape on the grading machine (it must not appear). */
#include "syscalls.h"  /* tests/sandbox/syscalls.h, copied beside this file by the test */

__constant char kScript[] = "id; echo escaped > /tmp/clgrade_sandbox_escape; echo wrote=$?";

RED_TEAM_CONVOLUTION
