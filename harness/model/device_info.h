// What a report records about the device that produced its numbers.
#pragma once

#include <cstddef>
#include <string>

namespace clgrade {

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
  /// The device itself, the same in every process of the machine whatever it is numbered there
  /// (CUDA_VISIBLE_DEVICES renumbers GPUs): "uuid-<hex>" (cl_khr_device_uuid), else
  /// "pci-<domain>-<bus>-<device>-<function>" in hex (cl_khr_pci_bus_info); "" where the driver says
  /// neither.
  std::string physicalId;
};

/// An NVIDIA GPU (NVIDIA's OpenCL platform): where the counters, the GPU placement and the vendor's
/// clocks apply.
inline bool isNvidiaGpu(const DeviceInfo& d) {
  return d.type == "gpu" && d.platform.find("NVIDIA") != std::string::npos;
}

/// A GPU with memory and copy engines of its own: not Oclgrind, whose device says it is every type,
/// GPU included. Where the device fills buffers and transfers go through pinned host memory.
inline bool isHardwareGpu(const DeviceInfo& d) {
  return d.type == "gpu" && d.platform.find("Oclgrind") == std::string::npos;
}

/// What tells one device from another where a grade runs: its platform, name and driver. A runner
/// must see the device its keeper chose (`--device auto` can choose another where its sandbox holds
/// other ICD files: then its figures would be another device's).
inline std::string deviceIdentity(const DeviceInfo& d) {
  return d.platform + " / " + d.name + " (driver " + d.driver + ")";
}

}  // namespace clgrade
