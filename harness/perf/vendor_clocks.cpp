#include "perf/vendor_clocks.h"

#include <dlfcn.h>

namespace clgrade {
namespace {

// The few NVML entry points used, declared as NVML's header declares them (nvml.h is not needed).
using NvmlInit = int (*)();
using NvmlHandleByIndex = int (*)(unsigned, void**);
using NvmlClockInfo = int (*)(void*, int, unsigned*);
constexpr int kNvmlClockSm = 1, kNvmlClockMem = 2;

}  // namespace

std::string currentClocks(const DeviceInfo& device) {
  if (!isNvidiaGpu(device)) return "";
  void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!nvml) return "";
  auto init = reinterpret_cast<NvmlInit>(dlsym(nvml, "nvmlInit_v2"));
  auto handleOf = reinterpret_cast<NvmlHandleByIndex>(dlsym(nvml, "nvmlDeviceGetHandleByIndex_v2"));
  auto clockOf = reinterpret_cast<NvmlClockInfo>(dlsym(nvml, "nvmlDeviceGetClockInfo"));
  std::string text;
  void* handle = nullptr;
  unsigned sm = 0, mem = 0;
  // Device 0: OpenCL and NVML may number several GPUs differently; the report says which it read.
  if (init && handleOf && clockOf && init() == 0 && handleOf(0, &handle) == 0 &&
      clockOf(handle, kNvmlClockSm, &sm) == 0 && clockOf(handle, kNvmlClockMem, &mem) == 0)
    text = "now SM " + std::to_string(sm) + " MHz, memory " + std::to_string(mem) + " MHz (NVML, GPU 0)";
  dlclose(nvml);
  return text;
}

}  // namespace clgrade
