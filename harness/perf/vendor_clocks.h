// The clocks a GPU runs at now, where the vendor exposes them (NVIDIA: NVML, loaded at run time
// so clgrade needs no NVIDIA library to build or to run elsewhere).
#pragma once

#include <string>

#include "cl/device.h"

namespace clgrade {

/// "SM 1980 MHz, memory 3201 MHz" for an NVIDIA GPU when libnvidia-ml answers; empty otherwise.
std::string currentClocks(const DeviceInfo& device);

}  // namespace clgrade
