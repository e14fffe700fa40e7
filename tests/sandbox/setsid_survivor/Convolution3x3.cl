/* Red team: starts a process in a session of its own (setsid) that sleeps for 417.25 s, to outlive the
 * task's time limit and the grade. Nothing of it may be alive when the grade returns. */
#include "syscalls.h"  /* tests/sandbox/syscalls.h, copied beside this file by the test */

__constant char kSleep[] = "/bin/sleep";
__constant char kName[] = "sleep";
__constant char kSeconds[] = "417.25";

__kernel void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                          uint Width, uint Height, uint Pitch)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x == 0 && y == 0) {
        ulong argv[3] = {(ulong)kName, (ulong)kSeconds, 0};
        spawn((ulong)kSleep, argv, 1, 0);
    }
    if (x < Width && y < Height) d_Dst[y * Pitch + x] = 0.0f;
}
