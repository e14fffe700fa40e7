// Finding OpenCL devices and choosing one from a `--device` string.
#pragma once

#include <string>
#include <vector>

#include "cl/opencl.h"
#include "model/device_info.h"

namespace clgrade {

/// One device with its position, as `clgrade devices` lists it.
struct DeviceEntry {
  int platformIndex = 0;
  int deviceIndex = 0;  ///< index within its platform
  cl::Device device;
  DeviceInfo info;
};

/// Every device of every platform; an empty list (and a reason in *err) when the ICD loader
/// finds no platform at all.
std::vector<DeviceEntry> listDevices(std::string* err);

/// Chooses a device: "auto" (first GPU, else a CPU device, preferring PoCL), "cpu", "gpu", or
/// "<platform-substring>[:index]" (case-insensitive match on the platform name, index within it).
bool chooseDevice(const std::string& spec, DeviceEntry* chosen, std::string* err);

/// Hints for a machine whose GPU has no ICD file (NVIDIA's library present, loader blind to it), or
/// what to install (`cpuListed`: a CPU device is listed already, so nothing about PoCL).
std::string gpuSetupHint(bool cpuListed = false);

}  // namespace clgrade
