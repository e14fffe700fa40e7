#include "counters/nvidia/cupti_profiler.h"

#include "counters/nvidia/cupti_api.h"

#include <dlfcn.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <sstream>

namespace clgrade {


struct CuptiRangeProfiler::Api {
  template <typename P>
  using Call = cupti::Result (*)(P*);
  cupti::Result (*getResultString)(cupti::Result, const char**);
  Call<cupti::Header> profilerInitialize;
  Call<cupti::GetChipName> deviceGetChipName;
  Call<cupti::GetCounterAvailability> getCounterAvailability;
  Call<cupti::HostInitialize> hostInitialize;
  Call<cupti::HostObjectOnly> hostDeinitialize;
  Call<cupti::HostConfigAddMetrics> hostConfigAddMetrics;
  Call<cupti::HostGetConfigImageSize> hostGetConfigImageSize;
  Call<cupti::HostGetConfigImage> hostGetConfigImage;
  Call<cupti::HostGetNumOfPasses> hostGetNumOfPasses;
  Call<cupti::HostEvaluateToGpuValues> hostEvaluateToGpuValues;
  Call<cupti::Enable> enable;
  Call<cupti::HostObjectOnly> disable;
  Call<cupti::SetConfig> setConfig;
  Call<cupti::HostObjectOnly> startRanges;
  Call<cupti::Stop> stop;
  Call<cupti::DecodeData> decodeData;
  Call<cupti::GetCounterDataSize> getCounterDataSize;
  Call<cupti::CounterDataImageInitialize> counterDataImageInitialize;
  Call<cupti::GetCounterDataInfo> getCounterDataInfo;
  Call<cupti::GetRangeInfo> getRangeInfo;
};

namespace {

/// The libraries tried, in order: where the process's own search path finds them, then the CUDA
/// toolkit's usual folders (a sandbox passes no LD_LIBRARY_PATH).
std::vector<std::string> candidates() {
  std::vector<std::string> names;
  if (const char* chosen = std::getenv("CLGRADE_CUPTI"); chosen && *chosen) names.push_back(chosen);
  for (const char* dir : {"", "/usr/local/cuda/extras/CUPTI/lib64/", "/usr/local/cuda/lib64/",
                          "/usr/local/cuda/targets/x86_64-linux/lib/", "/usr/lib/x86_64-linux-gnu/"})
    for (const char* so : {"libcupti.so.13", "libcupti.so.12", "libcupti.so"}) names.push_back(std::string(dir) + so);
  return names;
}

template <typename F>
bool resolveCupti(void* handle, const char* symbol, F* out, std::string* missing) {
  *out = reinterpret_cast<F>(dlsym(handle, symbol));
  if (!*out && missing->empty()) *missing = symbol;
  return *out != nullptr;
}

}  // namespace

bool CuptiRangeProfiler::check(int result, const char* call, std::string* err) const {
  if (result == 0) return true;
  const char* text = nullptr;
  if (api_->getResultString) api_->getResultString(result, &text);
  *err = std::string(call) + ": " + (text ? text : "CUPTI error " + std::to_string(result));
  if (result == cupti::kInsufficientPrivileges)
    *err += " (reading the GPU's counters needs root, or the driver option NVreg_RestrictProfilingToAdminUsers=0)";
  return false;
}

std::unique_ptr<CuptiRangeProfiler> CuptiRangeProfiler::start(CUcontext context, int ordinal,
                                                              const std::vector<std::string>& metrics,
                                                              size_t maxLaunches, std::string* err) {
  std::unique_ptr<CuptiRangeProfiler> p(new CuptiRangeProfiler);
  auto last = std::chrono::steady_clock::now();
  std::ostringstream times;
  times.precision(3);
  const auto lap = [&](const char* what) {
    const auto now = std::chrono::steady_clock::now();
    times << (times.tellp() > 0 ? ", " : "") << what << " " << std::chrono::duration<double>(now - last).count() << " s";
    last = now;
  };
  for (const std::string& name : candidates()) {
    if ((p->handle_ = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL))) {
      p->library_ = name;
      break;
    }
  }
  if (!p->handle_) {
    *err = "no libcupti (CUDA's profiling library) could be loaded (CLGRADE_CUPTI may name it)";
    return nullptr;
  }
  p->api_ = std::make_unique<Api>();
  Api& a = *p->api_;
  std::string missing;
  resolveCupti(p->handle_, "cuptiGetResultString", &a.getResultString, &missing);
  resolveCupti(p->handle_, "cuptiProfilerInitialize", &a.profilerInitialize, &missing);
  resolveCupti(p->handle_, "cuptiDeviceGetChipName", &a.deviceGetChipName, &missing);
  resolveCupti(p->handle_, "cuptiProfilerGetCounterAvailability", &a.getCounterAvailability, &missing);
  resolveCupti(p->handle_, "cuptiProfilerHostInitialize", &a.hostInitialize, &missing);
  resolveCupti(p->handle_, "cuptiProfilerHostDeinitialize", &a.hostDeinitialize, &missing);
  resolveCupti(p->handle_, "cuptiProfilerHostConfigAddMetrics", &a.hostConfigAddMetrics, &missing);
  resolveCupti(p->handle_, "cuptiProfilerHostGetConfigImageSize", &a.hostGetConfigImageSize, &missing);
  resolveCupti(p->handle_, "cuptiProfilerHostGetConfigImage", &a.hostGetConfigImage, &missing);
  resolveCupti(p->handle_, "cuptiProfilerHostGetNumOfPasses", &a.hostGetNumOfPasses, &missing);
  resolveCupti(p->handle_, "cuptiProfilerHostEvaluateToGpuValues", &a.hostEvaluateToGpuValues, &missing);
  resolveCupti(p->handle_, "cuptiRangeProfilerEnable", &a.enable, &missing);
  resolveCupti(p->handle_, "cuptiRangeProfilerDisable", &a.disable, &missing);
  resolveCupti(p->handle_, "cuptiRangeProfilerSetConfig", &a.setConfig, &missing);
  resolveCupti(p->handle_, "cuptiRangeProfilerStart", &a.startRanges, &missing);
  resolveCupti(p->handle_, "cuptiRangeProfilerStop", &a.stop, &missing);
  resolveCupti(p->handle_, "cuptiRangeProfilerDecodeData", &a.decodeData, &missing);
  resolveCupti(p->handle_, "cuptiRangeProfilerGetCounterDataSize", &a.getCounterDataSize, &missing);
  resolveCupti(p->handle_, "cuptiRangeProfilerCounterDataImageInitialize", &a.counterDataImageInitialize, &missing);
  resolveCupti(p->handle_, "cuptiRangeProfilerGetCounterDataInfo", &a.getCounterDataInfo, &missing);
  resolveCupti(p->handle_, "cuptiRangeProfilerCounterDataGetRangeInfo", &a.getRangeInfo, &missing);
  if (!missing.empty()) {
    *err = p->library_ + " has no " + missing + " (the range profiler needs CUDA 12.6 or later)";
    return nullptr;
  }
  lap("load");
  p->metrics_ = metrics;
  std::vector<const char*> names;
  for (const std::string& m : p->metrics_) names.push_back(m.c_str());

  auto init = cupti::block(&cupti::Header::pPriv);
  if (!p->check(a.profilerInitialize(&init), "cuptiProfilerInitialize", err)) return nullptr;
  auto chip = cupti::block(&cupti::GetChipName::pChipName);
  chip.deviceIndex = static_cast<size_t>(ordinal);
  if (!p->check(a.deviceGetChipName(&chip), "cuptiDeviceGetChipName", err)) return nullptr;
  // Which counters this GPU has now (asked before the range profiler holds the device).
  auto availability = cupti::block(&cupti::GetCounterAvailability::pCounterAvailabilityImage);
  availability.ctx = context;
  if (!p->check(a.getCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability", err)) return nullptr;
  std::vector<uint8_t> available(availability.counterAvailabilityImageSize);
  availability.pCounterAvailabilityImage = available.data();
  if (!p->check(a.getCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability", err)) return nullptr;

  lap("chip and counters available");
  auto host = cupti::block(&cupti::HostInitialize::pHostObject);
  host.profilerType = cupti::kRangeProfilerType;
  host.pChipName = chip.pChipName;
  host.pCounterAvailabilityImage = available.data();
  if (!p->check(a.hostInitialize(&host), "cuptiProfilerHostInitialize", err)) return nullptr;
  p->host_ = host.pHostObject;
  auto add = cupti::block(&cupti::HostConfigAddMetrics::numMetrics);
  add.pHostObject = host.pHostObject;
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  if (!p->check(a.hostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics", err)) return nullptr;
  lap("host");
  auto configSize = cupti::block(&cupti::HostGetConfigImageSize::configImageSize);
  configSize.pHostObject = host.pHostObject;
  if (!p->check(a.hostGetConfigImageSize(&configSize), "cuptiProfilerHostGetConfigImageSize", err)) return nullptr;
  p->config_.resize(configSize.configImageSize);
  auto config = cupti::block(&cupti::HostGetConfigImage::pConfigImage);
  config.pHostObject = host.pHostObject;
  config.configImageSize = p->config_.size();
  config.pConfigImage = p->config_.data();
  if (!p->check(a.hostGetConfigImage(&config), "cuptiProfilerHostGetConfigImage", err)) return nullptr;
  auto passes = cupti::block(&cupti::HostGetNumOfPasses::numOfPasses);
  passes.configImageSize = p->config_.size();
  passes.pConfigImage = p->config_.data();
  if (!p->check(a.hostGetNumOfPasses(&passes), "cuptiProfilerHostGetNumOfPasses", err)) return nullptr;
  p->passes_ = passes.numOfPasses;

  lap("config");
  auto enable = cupti::block(&cupti::Enable::pRangeProfilerObject);
  enable.ctx = context;
  if (!p->check(a.enable(&enable), "cuptiRangeProfilerEnable", err)) return nullptr;
  p->rangeProfiler_ = enable.pRangeProfilerObject;
  auto dataSize = cupti::block(&cupti::GetCounterDataSize::counterDataSize);
  dataSize.pRangeProfilerObject = enable.pRangeProfilerObject;
  dataSize.pMetricNames = names.data();
  dataSize.numMetrics = names.size();
  dataSize.maxNumOfRanges = maxLaunches;
  dataSize.maxNumRangeTreeNodes = static_cast<uint32_t>(maxLaunches);
  if (!p->check(a.getCounterDataSize(&dataSize), "cuptiRangeProfilerGetCounterDataSize", err)) return nullptr;
  p->counterData_.resize(dataSize.counterDataSize);
  auto image = cupti::block(&cupti::CounterDataImageInitialize::pCounterData);
  image.pRangeProfilerObject = enable.pRangeProfilerObject;
  image.counterDataSize = p->counterData_.size();
  image.pCounterData = p->counterData_.data();
  if (!p->check(a.counterDataImageInitialize(&image), "cuptiRangeProfilerCounterDataImageInitialize", err))
    return nullptr;
  auto set = cupti::block(&cupti::SetConfig::targetNestingLevel);
  set.pRangeProfilerObject = enable.pRangeProfilerObject;
  set.configSize = p->config_.size();
  set.pConfig = p->config_.data();
  set.counterDataImageSize = p->counterData_.size();
  set.pCounterDataImage = p->counterData_.data();
  set.range = cupti::kAutoRange;
  set.replayMode = cupti::kKernelReplay;
  set.maxRangesPerPass = maxLaunches;
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.passIndex = 0;
  set.targetNestingLevel = 1;
  if (!p->check(a.setConfig(&set), "cuptiRangeProfilerSetConfig", err)) return nullptr;
  auto go = cupti::block(&cupti::HostObjectOnly::pObject);
  go.pObject = enable.pRangeProfilerObject;
  if (!p->check(a.startRanges(&go), "cuptiRangeProfilerStart", err)) return nullptr;
  p->started_ = true;
  lap("enable and start");
  p->startTimes_ = times.str();
  return p;
}

bool CuptiRangeProfiler::finish(std::vector<CuptiRange>* ranges, std::string* err) {
  ranges->clear();
  if (!started_) {
    *err = "the range profiler was not counting";
    return false;
  }
  Api& a = *api_;
  auto* object = static_cast<cupti::Object*>(rangeProfiler_);
  auto stop = cupti::block(&cupti::Stop::isAllPassSubmitted);
  stop.pRangeProfilerObject = object;
  started_ = false;
  if (!check(a.stop(&stop), "cuptiRangeProfilerStop", err)) return false;
  auto decode = cupti::block(&cupti::DecodeData::numOfRangeDropped);
  decode.pRangeProfilerObject = object;
  if (!check(a.decodeData(&decode), "cuptiRangeProfilerDecodeData", err)) return false;
  if (decode.numOfRangeDropped > 0) {
    *err = std::to_string(decode.numOfRangeDropped) + " launches were not counted (more than the profiler keeps)";
    return false;
  }
  auto info = cupti::block(&cupti::GetCounterDataInfo::numTotalRanges);
  info.pCounterDataImage = counterData_.data();
  info.counterDataImageSize = counterData_.size();
  if (!check(a.getCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo", err)) return false;
  std::vector<const char*> names;
  for (const std::string& m : metrics_) names.push_back(m.c_str());
  for (size_t i = 0; i < info.numTotalRanges; ++i) {
    CuptiRange range;
    auto name = cupti::block(&cupti::GetRangeInfo::rangeName);
    name.pCounterDataImage = counterData_.data();
    name.counterDataImageSize = counterData_.size();
    name.rangeIndex = i;
    name.rangeDelimiter = "/";
    if (!check(a.getRangeInfo(&name), "cuptiRangeProfilerCounterDataGetRangeInfo", err)) return false;
    range.name = name.rangeName ? name.rangeName : "";
    range.values.assign(names.size(), 0.0);
    auto values = cupti::block(&cupti::HostEvaluateToGpuValues::pMetricValues);
    values.pHostObject = static_cast<cupti::Object*>(host_);
    values.pCounterDataImage = counterData_.data();
    values.counterDataImageSize = counterData_.size();
    values.rangeIndex = i;
    values.ppMetricNames = names.data();
    values.numMetrics = names.size();
    values.pMetricValues = range.values.data();
    if (!check(a.hostEvaluateToGpuValues(&values), "cuptiProfilerHostEvaluateToGpuValues", err)) return false;
    ranges->push_back(std::move(range));
  }
  return true;
}

CuptiRangeProfiler::~CuptiRangeProfiler() {
  if (!api_) return;
  Api& a = *api_;
  if (started_) {
    auto stop = cupti::block(&cupti::Stop::isAllPassSubmitted);
    stop.pRangeProfilerObject = static_cast<cupti::Object*>(rangeProfiler_);
    a.stop(&stop);
  }
  if (rangeProfiler_ && a.disable) {
    auto off = cupti::block(&cupti::HostObjectOnly::pObject);
    off.pObject = static_cast<cupti::Object*>(rangeProfiler_);
    a.disable(&off);
  }
  if (host_ && a.hostDeinitialize) {
    auto off = cupti::block(&cupti::HostObjectOnly::pObject);
    off.pObject = static_cast<cupti::Object*>(host_);
    a.hostDeinitialize(&off);
  }
  // libcupti stays loaded, as libcuda does: it hooks the driver and is not made to be unloaded.
}

}  // namespace clgrade
