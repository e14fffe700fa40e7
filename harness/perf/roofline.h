// The practical bandwidth limit, measured in the same run: a plain OpenCL copy of one plane.
#pragma once

#include "tasks/task.h"

namespace clgrade {

/// A copy of `planeBytes` bytes from one buffer to another (float4 per work-item when `wide` and
/// the size allows, else float), made ready for timing; `bytes` counts the read and the write.
/// The float copy shows what kernels moving one pixel per work-item can reach at most.
TimedLaunch copyLaunch(const Runtime& rt, size_t planeBytes, bool wide = true);

/// Only reading one plane (float4 per work-item): the limit of kernels that read much and write
/// little, like the histogram. `bytes` counts the read. (The copy's layout when float4 does not fit.)
TimedLaunch readLaunch(const Runtime& rt, size_t planeBytes);

}  // namespace clgrade
