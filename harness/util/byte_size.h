// Byte counts as people read them in messages.
#pragma once

#include <cstdint>
#include <string>

namespace clgrade {

/// "7.2 MiB": one decimal, binary megabytes.
std::string mib(uintmax_t bytes);

}  // namespace clgrade
