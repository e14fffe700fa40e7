// Running one pass kernel over every channel of an image, as the course framework does
// (one buffer per channel, one launch per channel).
#pragma once

#include <functional>
#include <string>

#include "tasks/task_context.h"

namespace clgrade {

/// A read-only buffer holding `values` (a filter's c_Kernel).
cl::Buffer constantFloats(const Runtime& rt, const std::vector<float>& values);

/// Binds a pass's arguments: the output plane and the input plane of the current channel.
using BindPlanes = std::function<void(cl::Kernel& kernel, const cl::Buffer& dst, const cl::Buffer& src)>;

/// For each channel of `input`: uploads it pitched (padding 0, rows below the image NaN), fills an
/// output plane with the sentinel, binds, launches, reads back. Launch times go to `outcome`,
/// writes outside the image to `audit`. Returns the outputs as one image.
Image runPerChannel(TaskContext& ctx, CaseOutcome& outcome, const std::string& name, cl::Kernel& kernel,
                    const Geometry& geometry, const Image& input, int rows, const BindPlanes& bind, WriteAudit* audit);

}  // namespace clgrade
