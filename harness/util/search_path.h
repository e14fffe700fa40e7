// Finding a program as a shell would: the first folder of $PATH that holds it.
#pragma once

#include <string>

namespace clgrade {

/// `<dir>/<program>` for the first folder of $PATH where that exists; "" when none has it.
std::string findOnPath(const std::string& program);

}  // namespace clgrade
