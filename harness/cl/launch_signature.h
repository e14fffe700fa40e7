// What makes two launches the same launch for a counter: the kernel, its geometry and every argument
// but the contents of its buffers. The course launches a pass once per colour channel with nothing
// else changed; counting one of them says what counting all would (the rules read ratios).
#pragma once

#include <string>
#include <vector>

#include "cl/kernel_args.h"
#include "cl/launch.h"

namespace clgrade {

/// The kernel's name, the geometry, and per argument its scalar bytes, its local allocation's size
/// or its buffer's size, as one string: equal strings, launches that differ only in their data.
std::string launchSignature(const cl::Kernel& kernel, const std::vector<KernelArg>& args, const Geometry& geometry);

}  // namespace clgrade
