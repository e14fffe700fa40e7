/* Red team (issue 27): system calls no grading run needs, made straight from the kernel (PoCL runs it
 * as native code in the grading process). The sandbox's system-call filter refuses each with EPERM
 * (-1 here); unfiltered, a bogus ptrace request says ESRCH (-3), kcmp of the process with itself 0,
 * a personality query the persona, keyctl a keyring's serial, io_uring_setup a descriptor. */
#include "syscalls.h"  /* tests/sandbox/syscalls.h, copied beside this file by the test */

__kernel void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel, uint Width,
                          uint Height, uint Pitch)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x == 0 && y == 0) {
        long params[16];
        for (int i = 0; i < 16; ++i) params[i] = 0;
        const long self = sys3(39, 0, 0, 0); /* getpid */
        printf("ptrace=%ld\n", sys4(101, 0x7777, 0, 0, 0));
        printf("kcmp=%ld\n", sys4(312, self, self, 0, 0));
        printf("personality=%ld\n", sys3(135, 0xffffffffL, 0, 0));
        printf("keyctl=%ld\n", sys3(250, 0, -3, 1));
        printf("io_uring_setup=%ld\n", sys3(425, 4, (long)params, 0));
        printf("filtered\n");
    }
    if (x < Width && y < Height) d_Dst[y * Pitch + x] = 0.0f;
}
