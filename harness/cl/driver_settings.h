#pragma once

namespace clgrade {

/// Settings of the GPU drivers that every clgrade process and every process it starts share (a
/// runner, a counters session, the trusted timer inherit them and a sandbox passes them through).
/// Made once, first thing in main, before any OpenCL or CUDA call; a setting the user made stays.
///
/// CUDA_DEVICE_MAX_CONNECTIONS=1: NVIDIA's driver makes a context with 8 hardware work queues by
/// default; each is made and torn down under a lock the whole host shares. A batch starts five GPU
/// processes a submission, each with one in-order queue that needs a single connection: with one,
/// the host starts and ends 8.7 such processes a second instead of 4.3 (two H200s, 8 at once;
/// docs/performance.md), and the kernels' own run times are the same.
void applyDriverSettings();

}  // namespace clgrade
