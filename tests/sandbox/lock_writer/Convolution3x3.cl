/* Red team: writes into the timing locks. Its request names the timing lock and the profiler lock,
 * files outside its scratch folder that every runner of the grade (or of the batch) opens; the kernel
 * appends to each. They were bound writable: 2 GiB each (RLIMIT_FSIZE) out of reach of the scratch
 * quota, in the results folder. They are read-only now (flock needs no write). */
#include "syscalls.h"  /* tests/sandbox/syscalls.h, copied beside this file by the test */

__constant char kScript[] =
    "req=$(tr '\\000' '\\n' < /proc/$PPID/cmdline | tail -n 1); "
    "lock=$(grep -o '\"timing_lock\":\"[^\"]*\"' $req | cut -d'\"' -f4); echo lock=$lock; "
    "for f in $lock $lock.profiler; do if echo filler >> $f 2>/dev/null; then echo WROTE $f; fi; done; echo done";

RED_TEAM_CONVOLUTION
