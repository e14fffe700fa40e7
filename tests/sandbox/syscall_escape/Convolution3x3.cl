/* Red team: runs a shell from the kernel. It prints `id` (the sandbox must show an unprivileged
 * uid) and tries to create /tmp/clgrade_sandbox_escape on the grading machine (it must not appear). */
#include "syscalls.h"  /* tests/sandbox/syscalls.h, copied beside this file by the test */

__constant char kScript[] = "id; echo escaped > /tmp/clgrade_sandbox_escape; echo wrote=$?";

__kernel void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                          uint Width, uint Height, uint Pitch)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x == 0 && y == 0) {
        shell(kScript);
    }
    if (x < Width && y < Height) d_Dst[y * Pitch + x] = 0.0f;
}
