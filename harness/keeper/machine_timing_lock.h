// One timing lock per GPU for every clgrade process of the machine. A batch's own lock, or a
// grade's, orders only its own timed launches: a second batch, or a check, on the same GPU timed
// its kernels at the same moment, and each made the other's figures slower (spec 5c: what
// another process does must not decide a kernel's speed). The lock is named after the GPU itself
// (DeviceInfo::physicalId), so processes that number their GPUs differently (CUDA_VISIBLE_DEVICES,
// a batch's places) still meet on it; its profiler lock (util/timing_lock.h) is the GPU's too. It
// is one user's, opened by its processes and its sandboxes alone (root's through their group,
// sandbox/sandbox.h's sandboxLockGroup): another user who could hold it would stall every timing on
// the GPU. A runner stopped by a long wait on another's hold is a machine fault
// (ProcessResult::stoppedWaiting, keeper/runner_end.h).
#pragma once

#include <string>

#include "model/device_info.h"

namespace clgrade {

/// Where the machine's GPU locks are: <cache home>/clgrade/locks (/var/cache/clgrade/locks as root,
/// whose sandboxes read the course's inputs beside it). Processes of other users take their own:
/// they meet only where they name one --timing-lock file.
std::string machineLockFolder();

/// The timing lock of `device` in `folder`, the file made (a sandbox binds only what exists) and
/// reachable by a sandbox's uid where `sandboxed`. "" with *why where there is none: not a GPU (a
/// CPU device's timings grade nothing, and its cores are what every process shares anyway), a
/// driver that does not say which GPU it is, or a folder that cannot be made or reached.
std::string machineTimingLock(const DeviceInfo& device, bool sandboxed, std::string* why,
                              const std::string& folder = machineLockFolder());

}  // namespace clgrade
