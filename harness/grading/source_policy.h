// What a kernel source may contain before it reaches a compiler.
#pragma once

#include <string>

namespace clgrade {

/// Reasons the task's source is refused before it reaches a compiler (an #include directive: the
/// course compiled each file alone, and an include could read any file of the grading machine).
/// Empty when the source is acceptable.
std::string refuseSource(const std::string& source);

}  // namespace clgrade
