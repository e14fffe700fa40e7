#include "cl/driver_settings.h"

#include <cstdlib>

namespace clgrade {

void applyDriverSettings() {
  setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", /*overwrite=*/0);
}

}  // namespace clgrade
