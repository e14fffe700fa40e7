// The red-team kernels' system calls, included by each (the test copies it into every case folder).
/* x86-64 Linux system calls from inside a kernel: PoCL compiles OpenCL C to native code in the
 * grading process, so inline assembly runs as that process. A GPU cannot build this file. */
long sys3(long n, long a, long b, long c)
{
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return ret;
}
long sys4(long n, long a, long b, long c, long d)
{
    long ret;
    __asm__ volatile("mov %5, %%r10\n\tsyscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(d)
                     : "rcx", "r10", "r11", "memory");
    return ret;
}
#define SYS_FORK 57
#define SYS_EXECVE 59
#define SYS_WAIT4 61
#define SYS_EXIT_GROUP 231
#define SYS_SETSID 112
#define SYS_SOCKET 41
#define SYS_CONNECT 42

/* Starts `path` with `argv` (a NULL-terminated array of string addresses) and an empty environment
 * in a child process; `newSession`: the child first leaves for a session of its own (setsid);
 * `wait`: waits for it. The child's pid. */
long spawn(ulong path, ulong* argv, int newSession, int wait)
{
    ulong envp[1] = {0};
    const long pid = sys3(SYS_FORK, 0, 0, 0);
    if (pid == 0) {
        if (newSession) sys3(SYS_SETSID, 0, 0, 0);
        sys3(SYS_EXECVE, (long)path, (long)argv, (long)envp);
        sys3(SYS_EXIT_GROUP, 127, 0, 0);
    }
    if (pid > 0 && wait) sys4(SYS_WAIT4, pid, 0, 0, 0);
    return pid;
}

__constant char kShell[] = "/bin/sh";
__constant char kDashC[] = "-c";

/* Runs `script` with /bin/sh -c and waits for it. */
void shell(__constant char* script)
{
    ulong argv[4] = {(ulong)kShell, (ulong)kDashC, (ulong)script, 0};
    spawn((ulong)kShell, argv, 0, 1);
}

/* The task 1 kernel of a red-team case: the first work-item runs the case's `kScript` with /bin/sh,
 * every work-item writes 0 (the case is about what the script reaches, not the convolution). */
#define RED_TEAM_CONVOLUTION                                                                              \
    __kernel void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel, \
                              uint Width, uint Height, uint Pitch)                                        \
    {                                                                                                     \
        const int x = get_global_id(0), y = get_global_id(1);                                            \
        if (x == 0 && y == 0) shell(kScript);                                                             \
        if (x < Width && y < Height) d_Dst[y * Pitch + x] = 0.0f;                                         \
    }
