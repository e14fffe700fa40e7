// The part of GLIBC_TUNABLES that clgrade sets (cl/driver_settings.h) and hands to its sandboxes.
#pragma once

#include <string>

namespace clgrade {

/// The `glibc.malloc.hugetlb=N` entry of this process's GLIBC_TUNABLES, the last where it names it
/// twice (as glibc reads it); "" where it has none. A sandbox's environment gets this entry alone:
/// the user's other tunables stay outside the sandbox.
std::string hugePagesTunable();

}  // namespace clgrade
