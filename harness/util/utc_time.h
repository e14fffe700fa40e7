// The current time as reports write it.
#pragma once

#include <string>

namespace clgrade {

/// Now, UTC, ISO 8601 to the second: "2026-11-22T05:01:07Z".
std::string nowUtc();

}  // namespace clgrade
