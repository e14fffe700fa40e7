/* Red team (issue 27): what the sandbox's own folders allow. The kernel tries a nested user namespace
 * (a way to more kernel attack surface), files in the sandbox's root and /dev (bwrap's tmpfs folders,
 * which took up to half the machine's memory each, uncounted), and 100 MiB in /dev/shm. The sandbox
 * refuses the namespace and both folders, and holds /dev/shm to 64 MiB. */
#include "syscalls.h"  /* tests/sandbox/syscalls.h, copied beside this file by the test */

__constant char kScript[] =
    "if unshare -U true 2> /dev/null; then echo userns=yes; else echo userns=no; fi; "
    "if echo x > /escape 2> /dev/null; then echo rootwrite=yes; else echo rootwrite=no; fi; "
    "if echo x > /dev/escape 2> /dev/null; then echo devwrite=yes; else echo devwrite=no; fi; "
    "dd if=/dev/zero of=/dev/shm/fill bs=1M count=100 2> /dev/null; "
    "echo shm=$(($(wc -c < /dev/shm/fill) / 1048576)); rm -f /dev/shm/fill";

RED_TEAM_CONVOLUTION
