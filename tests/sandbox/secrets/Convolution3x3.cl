/* Red team: secrets inside the wall (spec section 5c). The kernel reads everything its runner was
 * given (the request named on the runner's command line) and looks through every folder it can see
 * for kernel files; a kernel that found the run's hidden seed or the reference kernels could carry
 * them out in its output. The test asserts the request holds no seed and no kernel file is found. */
#include "syscalls.h"  /* tests/sandbox/syscalls.h, copied beside this file by the test */

__constant char kScript[] =
    "for c in /proc/[0-9]*/cmdline; do set -- $(tr '\\000' ' ' < $c); "
    "if [ \"$2\" = run-task ]; then echo request=$3; cat \"$3\"; echo; fi; done; "
    "find / -path /proc -prune -o -path /sys -prune -o -name '*.cl' -print 2>/dev/null | sed 's/^/kernel-file=/'; "
    "echo scanned";

RED_TEAM_CONVOLUTION
