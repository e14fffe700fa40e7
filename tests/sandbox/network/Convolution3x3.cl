/* Red team: tries to reach a server on the grading machine's loopback (127.0.0.1:47613, which the test
 * listens on) and prints what connect returned. In the sandbox's own network namespace nothing
 * answers: the test's listener sees no connection. */
#include "syscalls.h"  /* tests/sandbox/syscalls.h, copied beside this file by the test */

__kernel void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                          uint Width, uint Height, uint Pitch)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x == 0 && y == 0) {
        /* struct sockaddr_in: AF_INET, port 47613 (0xB9FD, big-endian), 127.0.0.1 */
        uchar address[16] = {2, 0, 0xB9, 0xFD, 127, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
        const long fd = sys3(SYS_SOCKET, 2, 1, 0);
        const long r = fd >= 0 ? sys3(SYS_CONNECT, fd, (long)address, 16) : fd;
        printf("socket=%ld connect=%ld\n", fd, r);
    }
    if (x < Width && y < Height) d_Dst[y * Pitch + x] = 0.0f;
}
