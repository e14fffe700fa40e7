#include "cl/driver_settings.h"

#include <cstdlib>
#include <string>

#include "util/glibc_tunables.h"

namespace clgrade {

void applyDriverSettings() {
  setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", /*overwrite=*/0);
  if (!hugePagesTunable().empty()) return;  // the user's choice
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  const std::string kept = tunables && *tunables ? std::string(tunables) + ":" : "";
  setenv("GLIBC_TUNABLES", (kept + "glibc.malloc.hugetlb=1").c_str(), 1);
}

}  // namespace clgrade
