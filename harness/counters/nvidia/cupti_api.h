// CUPTI's parameter blocks for the calls clgrade makes (counters/nvidia/cupti_profiler.h), declared
// here so that clgrade builds without CUDA's headers. tests/nvidia/cupti_api_test.cpp compares them
// with CUDA's own headers where those are installed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "counters/nvidia/cuda_driver.h"

namespace clgrade {

// The parameter blocks of the calls used, as cupti_profiler_target.h, cupti_target.h,
// cupti_profiler_host.h and cupti_range_profiler.h (CUDA 12.6+) lay them out. Every block starts with
// its size, which CUPTI reads to know which fields the caller has: a newer libcupti accepts these.
namespace cupti {

using Result = int;  // CUptiResult; 0 is CUPTI_SUCCESS
struct Object;       // CUpti_RangeProfiler_Object, CUpti_Profiler_Host_Object: opaque

constexpr int kAutoRange = 1;           // CUPTI_AutoRange: one range per kernel launch
constexpr int kKernelReplay = 2;        // CUPTI_KernelReplay: the passes run inside each launch
constexpr int kRangeProfilerType = 0;   // CUPTI_PROFILER_TYPE_RANGE_PROFILER
constexpr Result kInsufficientPrivileges = 35;

struct Header {
  size_t structSize;
  void* pPriv;
};
struct GetChipName {
  size_t structSize;
  void* pPriv;
  size_t deviceIndex;
  const char* pChipName;
};
struct GetCounterAvailability {
  size_t structSize;
  void* pPriv;
  CUcontext ctx;
  size_t counterAvailabilityImageSize;
  uint8_t* pCounterAvailabilityImage;
};
struct HostInitialize {
  size_t structSize;
  void* pPriv;
  int profilerType;
  const char* pChipName;
  const uint8_t* pCounterAvailabilityImage;
  Object* pHostObject;
};
struct HostObjectOnly {  // Host_Deinitialize; RangeProfiler Disable and Start
  size_t structSize;
  void* pPriv;
  Object* pObject;
};
struct HostConfigAddMetrics {
  size_t structSize;
  void* pPriv;
  Object* pHostObject;
  const char** ppMetricNames;
  size_t numMetrics;
};
struct HostGetConfigImageSize {
  size_t structSize;
  void* pPriv;
  Object* pHostObject;
  size_t configImageSize;
};
struct HostGetConfigImage {
  size_t structSize;
  void* pPriv;
  Object* pHostObject;
  size_t configImageSize;
  uint8_t* pConfigImage;
};
struct HostGetNumOfPasses {
  size_t structSize;
  void* pPriv;
  size_t configImageSize;
  uint8_t* pConfigImage;
  size_t numOfPasses;
};
struct HostEvaluateToGpuValues {
  size_t structSize;
  void* pPriv;
  Object* pHostObject;
  const uint8_t* pCounterDataImage;
  size_t counterDataImageSize;
  size_t rangeIndex;
  const char** ppMetricNames;
  size_t numMetrics;
  double* pMetricValues;
};
struct Enable {
  size_t structSize;
  void* pPriv;
  CUcontext ctx;
  Object* pRangeProfilerObject;
};
struct SetConfig {
  size_t structSize;
  void* pPriv;
  Object* pRangeProfilerObject;
  size_t configSize;
  const uint8_t* pConfig;
  size_t counterDataImageSize;
  uint8_t* pCounterDataImage;
  int range;
  int replayMode;
  size_t maxRangesPerPass;
  uint16_t numNestingLevels;
  uint16_t minNestingLevel;
  size_t passIndex;
  uint16_t targetNestingLevel;
};
struct Stop {
  size_t structSize;
  void* pPriv;
  Object* pRangeProfilerObject;
  size_t passIndex;
  size_t targetNestingLevel;
  uint8_t isAllPassSubmitted;
};
struct DecodeData {
  size_t structSize;
  void* pPriv;
  Object* pRangeProfilerObject;
  size_t numOfRangeDropped;
};
struct GetCounterDataSize {
  size_t structSize;
  void* pPriv;
  Object* pRangeProfilerObject;
  const char** pMetricNames;
  size_t numMetrics;
  size_t maxNumOfRanges;
  uint32_t maxNumRangeTreeNodes;
  size_t counterDataSize;
};
struct CounterDataImageInitialize {
  size_t structSize;
  void* pPriv;
  Object* pRangeProfilerObject;
  size_t counterDataSize;
  uint8_t* pCounterData;
};
struct GetCounterDataInfo {
  size_t structSize;
  void* pPriv;
  const uint8_t* pCounterDataImage;
  size_t counterDataImageSize;
  size_t numTotalRanges;
};
struct GetRangeInfo {
  size_t structSize;
  void* pPriv;
  const uint8_t* pCounterDataImage;
  size_t counterDataImageSize;
  size_t rangeIndex;
  const char* rangeDelimiter;
  const char* rangeName;
};

/// A block with its size set (the size up to and including its last field, as CUPTI_PROFILER_STRUCT_SIZE).
template <typename T, typename Last>
T block(Last T::*last) {
  T t{};
  t.structSize = static_cast<size_t>(reinterpret_cast<const char*>(&(t.*last)) - reinterpret_cast<const char*>(&t)) +
                 sizeof(Last);
  return t;
}

}  // namespace cupti

}  // namespace clgrade
