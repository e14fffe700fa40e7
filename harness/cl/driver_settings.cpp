#include "cl/driver_settings.h"

#include <cstdlib>
#include <string>

namespace clgrade {

void applyDriverSettings() {
  setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", /*overwrite=*/0);
  const std::string hugePages = "glibc.malloc.hugetlb=1";
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (!tunables || !*tunables)
    setenv("GLIBC_TUNABLES", hugePages.c_str(), 1);
  else if (std::string(tunables).find("glibc.malloc.hugetlb=") == std::string::npos)
    setenv("GLIBC_TUNABLES", (std::string(tunables) + ":" + hugePages).c_str(), 1);
}

}  // namespace clgrade
