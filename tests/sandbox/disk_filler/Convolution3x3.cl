/* Red team: fills the disk. The first work-item writes 16 MiB files into /tmp (the sandbox's scratch
 * folder, on the grading machine's disk) until a write fails: up to 3.2 GB, enough to leave another
 * submission's results unwritable on a small disk. The scratch quota (--task-disk) stops the task,
 * and its scratch folder goes with it. */
#include "syscalls.h"  /* tests/sandbox/syscalls.h, copied beside this file by the test */

__constant char kScript[] =
    "i=0; while [ $i -lt 200 ]; do dd if=/dev/zero of=/tmp/fill$i bs=1M count=16 2>/dev/null || break; i=$((i+1)); done";

RED_TEAM_CONVOLUTION
