// The practical limits, measured in the same run: a plain OpenCL copy of one plane (bandwidth) and
// an empty kernel launched like the kernel under test (the cost of its launch geometry).
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

/// A kernel that does nothing, on `geometry`: what starting that many work-groups costs on this
/// device whatever they do. The assignment fixes the launch (one work-item per pixel for the 3x3
/// convolution and the histogram), so no kernel on it can be meaningfully faster than this; on an
/// H100 an empty 4096 x 4096 launch in 16 x 16 groups takes 43 us, as long as the reference
/// histogram, where a float4 read of the image takes 25 us.
TimedLaunch emptyLaunch(const Runtime& rt, const Geometry& geometry);

}  // namespace clgrade
