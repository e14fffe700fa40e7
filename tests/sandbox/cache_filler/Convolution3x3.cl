/* Red team: fills the disk through the compiler cache. PoCL's cache (POCL_CACHE_DIR) is the one
 * writable folder outside the scratch folder: it is kept across the submission's grades. The first
 * work-item reads its path from the runner's environment (the script starts with none) and writes
 * 16 MiB files into it until a write fails (up to 3.2 GB). What the cache grows by
 * while the runner runs counts towards the task's disk quota (--task-disk) like the scratch folder. */
#include "syscalls.h"  /* tests/sandbox/syscalls.h, copied beside this file by the test */

__constant char kScript[] =
    "d=$(tr '\\0' '\\n' < /proc/$PPID/environ | sed -n 's/^POCL_CACHE_DIR=//p'); [ -n \"$d\" ] || exit 1; "
    "i=0; while [ $i -lt 200 ]; do dd if=/dev/zero of=$d/fill$i bs=1M count=16 2>/dev/null || break; i=$((i+1)); done";

RED_TEAM_CONVOLUTION
