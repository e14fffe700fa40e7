// clgrade devices: the OpenCL platforms and devices, and what to do when a GPU is not listed.
#include <iostream>

#include "cl/device.h"
#include "cli/command.h"

namespace clgrade::cli {
namespace {

int listDevicesCommand() {
  std::string err;
  const std::vector<DeviceEntry> devices = listDevices(&err);
  if (devices.empty()) {
    std::cerr << "clgrade: " << err << "\n";
    return kNoDevice;
  }
  for (const DeviceEntry& d : devices) {
    std::cout << d.info.platform << ":" << d.deviceIndex << "  [" << d.info.type << "] " << d.info.name << "  (driver "
              << d.info.driver << ", " << d.info.version << ", max group " << d.info.maxWorkGroupSize << ", local "
              << d.info.localMemBytes / 1024 << " KiB" << (d.info.physicalId.empty() ? "" : ", " + d.info.physicalId)
              << ")\n";
  }
  bool gpu = false, cpu = false;
  for (const DeviceEntry& d : devices) gpu = gpu || d.info.type == "gpu", cpu = cpu || d.info.type == "cpu";
  if (!gpu) std::cout << "no GPU listed. " << gpuSetupHint(cpu) << "\n";
  return kOk;
}

}  // namespace

void addDevicesCommand(CLI::App& app, Commands* commands) {
  commands->push_back({app.add_subcommand("devices", "list the OpenCL platforms and devices"), listDevicesCommand});
}

}  // namespace clgrade::cli
