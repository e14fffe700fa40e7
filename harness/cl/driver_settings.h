#pragma once

namespace clgrade {

/// Settings of the GPU drivers and of the C library's allocator that every clgrade process and
/// every process it starts share (a runner, a counters session, the trusted timer inherit them and a
/// sandbox passes them through). Made once, first thing in main, before any OpenCL or CUDA call; a
/// setting the user made stays.
///
/// CUDA_DEVICE_MAX_CONNECTIONS=1: NVIDIA's driver makes a context with 8 hardware work queues by
/// default; each is made and torn down under a lock the whole host shares. A batch starts five GPU
/// processes a submission, each with one in-order queue that needs a single connection: with one,
/// the host starts and ends 8.7 such processes a second instead of 4.3 (two H200s, 8 at once;
/// docs/performance.md), and the kernels' own run times are the same.
///
/// GLIBC_TUNABLES gets glibc.malloc.hugetlb=1 (added to what the user set, unless it names that
/// tunable; a sandbox gets that entry alone, util/glibc_tunables.h): malloc asks for transparent huge pages (madvise)
/// for its large blocks. A runner makes, uploads and reads back planes of up to 192 MiB, each a fresh mapping that the
/// kernel otherwise faults in and zeroes 4 KiB at a time, charging each page to the runner's memory group under locks
/// every runner shares. Two H200s, 24 runners at once: the runners' system time fell from 146-153 to 105-109 CPU
/// seconds a class of 60, the class from 60.0-60.8 to 57.8-58.2 s, with the same verdicts and counts. glibc reads it as
/// a process starts: it applies to the processes clgrade starts, not to the one that sets it. glibc before 2.35 ignores
/// it.
void applyDriverSettings();

}  // namespace clgrade
