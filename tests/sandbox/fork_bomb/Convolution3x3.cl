/* Red team: a fork bomb. Every process forks for ever; the sandbox's process limit contains it and
 * the task's time limit ends it, with nothing left behind. */
#include "syscalls.h"  /* tests/sandbox/syscalls.h, copied beside this file by the test */

__kernel void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                          uint Width, uint Height, uint Pitch)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x == 0 && y == 0)
        for (;;) sys3(SYS_FORK, 0, 0, 0);
    if (x < Width && y < Height) d_Dst[y * Pitch + x] = 0.0f;
}
