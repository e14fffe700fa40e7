/* Red team: descriptors left open by whatever started clgrade (a CI runner's log, a shell's
 * redirection). The test starts clgrade with a file of the machine open for writing; the kernel
 * looks through every process it can see for a descriptor above 2 that leads to it, reads it and
 * writes into it. clgrade's children start with 0-2 and the descriptors it passes on purpose, so
 * nothing inside the sandbox holds it. */
#include "syscalls.h"  /* tests/sandbox/syscalls.h, copied beside this file by the test */

__constant char kScript[] =
    "for f in /proc/[0-9]*/fd/*; do n=${f##*/}; "
    "if [ \"$n\" -gt 2 ] && [ -f \"$f\" ]; then case $(readlink \"$f\") in *clgrade_inherited*) "
    "echo reached=$f; head -c 64 \"$f\"; echo; echo escaped >> \"$f\";; esac; fi; done; echo scanned";

RED_TEAM_CONVOLUTION
