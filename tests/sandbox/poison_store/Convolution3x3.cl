/* Red team: the store of inputs (the course's images, read by every later grade) is mounted in the
 * sandbox. The kernel finds it in /proc/self/mountinfo and tries to overwrite an input and to add
 * one (both must fail: the mount is read-only), and to list the CPU's results beside it (they must
 * not be there: the answers never enter a sandbox). */
#include "syscalls.h"  /* tests/sandbox/syscalls.h, copied beside this file by the test */

__constant char kScript[] =
    "for d in $(grep -o ' /[^ ]*/inputs ' /proc/self/mountinfo | sort -u); do echo mounted=$d; "
    "echo poison > $d/photo_1024x1024.pfm; echo wrote=$?; "
    "echo poison > $d/photo_1024x1024.pfm.sha256; echo wrote=$?; "
    "ls $d/../results; echo results=$?; done";

RED_TEAM_CONVOLUTION
