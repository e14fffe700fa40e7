#include "cl/device.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <iterator>

#include <CL/cl_ext.h>

namespace clgrade {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string typeName(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "gpu";
  if (type & CL_DEVICE_TYPE_CPU) return "cpu";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

/// CLHPP returns strings with the trailing NUL of the C API on some versions.
std::string clean(std::string s) {
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back())))) s.pop_back();
  return s;
}

std::string pciText(const cl_device_pci_bus_info_khr& pci) {
  char text[40];
  std::snprintf(text, sizeof text, "pci-%04x-%02x-%02x-%x", pci.pci_domain, pci.pci_bus, pci.pci_device,
                pci.pci_function);
  return text;
}

/// DeviceInfo::physicalId: what the driver says of the device itself (NVIDIA's says its UUID), from
/// the extensions that promise it, and only from them.
std::string physicalIdOf(const cl::Device& device) {
  std::string extensions;
  try {
    extensions = device.getInfo<CL_DEVICE_EXTENSIONS>();
  } catch (const cl::Error&) {
    return "";
  }
  const auto has = [&](const char* name) {
    const std::string padded = " " + extensions + " ";
    return padded.find(std::string(" ") + name + " ") != std::string::npos;
  };
  if (has("cl_khr_device_uuid")) {
    unsigned char uuid[CL_UUID_SIZE_KHR] = {};
    if (clGetDeviceInfo(device(), CL_DEVICE_UUID_KHR, sizeof uuid, uuid, nullptr) == CL_SUCCESS &&
        std::any_of(std::begin(uuid), std::end(uuid), [](unsigned char b) { return b != 0; })) {
      std::string hex = "uuid-";
      for (unsigned char b : uuid) hex += "0123456789abcdef"[b >> 4], hex += "0123456789abcdef"[b & 15];
      return hex;
    }
  }
  if (has("cl_khr_pci_bus_info")) {
    cl_device_pci_bus_info_khr pci{};
    if (clGetDeviceInfo(device(), CL_DEVICE_PCI_BUS_INFO_KHR, sizeof pci, &pci, nullptr) == CL_SUCCESS)
      return pciText(pci);
  }
  return "";
}

}  // namespace

std::vector<DeviceEntry> listDevices(std::string* err) {
  std::vector<DeviceEntry> entries;
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error& e) {
    if (err) *err = "no OpenCL platform found (" + describe(e) + "). " + gpuSetupHint();
    return entries;
  }
  for (size_t p = 0; p < platforms.size(); ++p) {
    std::vector<cl::Device> devices;
    try {
      platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      continue;  // a platform without devices is not an error for the others
    }
    for (size_t d = 0; d < devices.size(); ++d) {
      DeviceEntry entry;
      entry.platformIndex = static_cast<int>(p);
      entry.deviceIndex = static_cast<int>(d);
      entry.device = devices[d];
      entry.info.platform = clean(platforms[p].getInfo<CL_PLATFORM_NAME>());
      entry.info.platformVersion = clean(platforms[p].getInfo<CL_PLATFORM_VERSION>());
      entry.info.name = clean(devices[d].getInfo<CL_DEVICE_NAME>());
      entry.info.driver = clean(devices[d].getInfo<CL_DRIVER_VERSION>());
      entry.info.version = clean(devices[d].getInfo<CL_DEVICE_VERSION>());
      entry.info.type = typeName(devices[d].getInfo<CL_DEVICE_TYPE>());
      entry.info.maxWorkGroupSize = devices[d].getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
      entry.info.localMemBytes = devices[d].getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
      entry.info.globalMemBytes = devices[d].getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
      entry.info.computeUnits = devices[d].getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
      entry.info.maxClockMHz = devices[d].getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>();
      entry.info.timerResolutionNs = devices[d].getInfo<CL_DEVICE_PROFILING_TIMER_RESOLUTION>();
      entry.info.physicalId = physicalIdOf(devices[d]);
      entries.push_back(entry);
    }
  }
  if (entries.empty() && err) *err = "OpenCL platforms exist but offer no device. " + gpuSetupHint();
  return entries;
}

bool chooseDevice(const std::string& spec, DeviceEntry* chosen, std::string* err) {
  std::vector<DeviceEntry> all = listDevices(err);
  if (all.empty()) return false;
  const std::string want = lower(spec.empty() ? "auto" : spec);
  auto pick = [&](auto predicate) {
    for (const DeviceEntry& e : all) {
      if (predicate(e)) {
        *chosen = e;
        return true;
      }
    }
    return false;
  };
  auto isPocl = [](const DeviceEntry& e) {
    return lower(e.info.platform).find("portable") != std::string::npos ||
           lower(e.info.platform).find("pocl") != std::string::npos;
  };
  if (want == "gpu") {
    if (pick([](const DeviceEntry& e) { return e.info.type == "gpu"; })) return true;
    if (err) *err = "no GPU device found. " + gpuSetupHint();
    return false;
  }
  if (want == "cpu") {
    if (pick([&](const DeviceEntry& e) { return e.info.type == "cpu" && isPocl(e); })) return true;
    if (pick([](const DeviceEntry& e) { return e.info.type == "cpu"; })) return true;
    if (err) *err = "no CPU device found (install pocl-opencl-icd)";
    return false;
  }
  if (want == "auto") {
    if (pick([](const DeviceEntry& e) { return e.info.type == "gpu"; })) return true;
    if (pick([&](const DeviceEntry& e) { return e.info.type == "cpu" && isPocl(e); })) return true;
    return pick([](const DeviceEntry&) { return true; });
  }
  // "<platform-substring>[:index]"
  std::string platform = want;
  int index = 0;
  const size_t colon = want.rfind(':');
  if (colon != std::string::npos) {
    platform = want.substr(0, colon);
    const std::string digits = want.substr(colon + 1);
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), ::isdigit)) {
      if (err) *err = "bad --device '" + spec + "': the part after ':' must be a device index";
      return false;
    }
    index = std::stoi(digits);
  }
  if (pick([&](const DeviceEntry& e) {
        return lower(e.info.platform).find(platform) != std::string::npos && e.deviceIndex == index;
      }))
    return true;
  if (err) {
    *err = "no device matches --device '" + spec + "'; available:";
    for (const DeviceEntry& e : all)
      *err += " [" + e.info.platform + ":" + std::to_string(e.deviceIndex) + " " + e.info.name + "]";
  }
  return false;
}

std::string gpuSetupHint(bool cpuListed) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool nvidiaLibrary = fs::exists("/usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1", ec) ||
                             fs::exists("/usr/lib64/libnvidia-opencl.so.1", ec) ||
                             fs::exists("/usr/local/nvidia/lib64/libnvidia-opencl.so.1", ec);
  const bool nvidiaIcd = fs::exists("/etc/OpenCL/vendors/nvidia.icd", ec);
  if (nvidiaLibrary && !nvidiaIcd)
    return "NVIDIA's OpenCL library is installed but no ICD file names it: run "
           "`echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd` (as root), or point "
           "OCL_ICD_VENDORS at a folder holding such a .icd file.";
  // A machine that lists PoCL needs no advice about it.
  return std::string(cpuListed ? "" : "For a CPU device install pocl-opencl-icd; ") +
         (cpuListed ? "For" : "for") + " a GPU install its vendor's OpenCL ICD (or set OCL_ICD_VENDORS to a folder of .icd files).";
}

}  // namespace clgrade
