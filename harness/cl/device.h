// Finding OpenCL devices and choosing one from a `--device` string.
#pragma once

#include <string>
#include <vector>

#include "cl/opencl.h"

namespace clgrade {

/// What a report records about the device that produced its numbers.
struct DeviceInfo {
  std::string platform;         ///< CL_PLATFORM_NAME
  std::string platformVersion;  ///< CL_PLATFORM_VERSION
  std::string name;             ///< CL_DEVICE_NAME
  std::string driver;           ///< CL_DRIVER_VERSION
  std::string version;          ///< CL_DEVICE_VERSION
  std::string type;             ///< "gpu", "cpu", "accelerator" or "other"
  size_t maxWorkGroupSize = 0;
  unsigned long long localMemBytes = 0;
  unsigned long long globalMemBytes = 0;
  unsigned computeUnits = 0;
  unsigned maxClockMHz = 0;      ///< CL_DEVICE_MAX_CLOCK_FREQUENCY (the rated clock, not the current one)
  size_t timerResolutionNs = 0;  ///< CL_DEVICE_PROFILING_TIMER_RESOLUTION
};

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

/// Hints for a machine whose GPU has no ICD file (NVIDIA's library present, loader blind to it).
std::string gpuSetupHint();

}  // namespace clgrade
