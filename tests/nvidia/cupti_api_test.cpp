// clgrade declares CUPTI's parameter blocks itself (counters/nvidia/cupti_api.h) so that it builds
// without CUDA. Where CUDA's own headers are installed (CLGRADE_CUPTI_HEADERS), every block and
// constant is compared with them here: a block laid out differently would hand CUPTI wrong fields.
#include <gtest/gtest.h>

#include <cstddef>

#include "counters/nvidia/cupti_api.h"

#ifdef CLGRADE_CUPTI_HEADERS
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

// Same size, and each field at the same offset with the same size.
#define SAME_FIELD(ours, theirs, ourField, theirField)                                          \
  static_assert(offsetof(clgrade::cupti::ours, ourField) == offsetof(theirs, theirField),       \
                #ours "." #ourField " is not where CUPTI has " #theirField);                    \
  static_assert(sizeof(clgrade::cupti::ours::ourField) == sizeof(((theirs*)nullptr)->theirField), \
                #ours "." #ourField " is not as wide as CUPTI's " #theirField)
#define SAME_SIZE(ours, theirs) \
  static_assert(sizeof(clgrade::cupti::ours) == sizeof(theirs), #ours " is not as large as " #theirs)

SAME_SIZE(Header, CUpti_Profiler_Initialize_Params);
SAME_FIELD(Header, CUpti_Profiler_Initialize_Params, pPriv, pPriv);
SAME_SIZE(GetChipName, CUpti_Device_GetChipName_Params);
SAME_FIELD(GetChipName, CUpti_Device_GetChipName_Params, deviceIndex, deviceIndex);
SAME_FIELD(GetChipName, CUpti_Device_GetChipName_Params, pChipName, pChipName);
SAME_SIZE(GetCounterAvailability, CUpti_Profiler_GetCounterAvailability_Params);
SAME_FIELD(GetCounterAvailability, CUpti_Profiler_GetCounterAvailability_Params, ctx, ctx);
SAME_FIELD(GetCounterAvailability, CUpti_Profiler_GetCounterAvailability_Params, counterAvailabilityImageSize,
           counterAvailabilityImageSize);
SAME_FIELD(GetCounterAvailability, CUpti_Profiler_GetCounterAvailability_Params, pCounterAvailabilityImage,
           pCounterAvailabilityImage);
SAME_SIZE(HostInitialize, CUpti_Profiler_Host_Initialize_Params);
SAME_FIELD(HostInitialize, CUpti_Profiler_Host_Initialize_Params, profilerType, profilerType);
SAME_FIELD(HostInitialize, CUpti_Profiler_Host_Initialize_Params, pChipName, pChipName);
SAME_FIELD(HostInitialize, CUpti_Profiler_Host_Initialize_Params, pCounterAvailabilityImage, pCounterAvailabilityImage);
SAME_FIELD(HostInitialize, CUpti_Profiler_Host_Initialize_Params, pHostObject, pHostObject);
SAME_SIZE(HostObjectOnly, CUpti_Profiler_Host_Deinitialize_Params);
SAME_FIELD(HostObjectOnly, CUpti_Profiler_Host_Deinitialize_Params, pObject, pHostObject);
SAME_SIZE(HostObjectOnly, CUpti_RangeProfiler_Disable_Params);
SAME_FIELD(HostObjectOnly, CUpti_RangeProfiler_Disable_Params, pObject, pRangeProfilerObject);
SAME_SIZE(HostObjectOnly, CUpti_RangeProfiler_Start_Params);
SAME_FIELD(HostObjectOnly, CUpti_RangeProfiler_Start_Params, pObject, pRangeProfilerObject);
SAME_SIZE(HostConfigAddMetrics, CUpti_Profiler_Host_ConfigAddMetrics_Params);
SAME_FIELD(HostConfigAddMetrics, CUpti_Profiler_Host_ConfigAddMetrics_Params, ppMetricNames, ppMetricNames);
SAME_FIELD(HostConfigAddMetrics, CUpti_Profiler_Host_ConfigAddMetrics_Params, numMetrics, numMetrics);
SAME_SIZE(HostGetConfigImageSize, CUpti_Profiler_Host_GetConfigImageSize_Params);
SAME_FIELD(HostGetConfigImageSize, CUpti_Profiler_Host_GetConfigImageSize_Params, configImageSize, configImageSize);
SAME_SIZE(HostGetConfigImage, CUpti_Profiler_Host_GetConfigImage_Params);
SAME_FIELD(HostGetConfigImage, CUpti_Profiler_Host_GetConfigImage_Params, configImageSize, configImageSize);
SAME_FIELD(HostGetConfigImage, CUpti_Profiler_Host_GetConfigImage_Params, pConfigImage, pConfigImage);
SAME_SIZE(HostGetNumOfPasses, CUpti_Profiler_Host_GetNumOfPasses_Params);
SAME_FIELD(HostGetNumOfPasses, CUpti_Profiler_Host_GetNumOfPasses_Params, configImageSize, configImageSize);
SAME_FIELD(HostGetNumOfPasses, CUpti_Profiler_Host_GetNumOfPasses_Params, pConfigImage, pConfigImage);
SAME_FIELD(HostGetNumOfPasses, CUpti_Profiler_Host_GetNumOfPasses_Params, numOfPasses, numOfPasses);
SAME_SIZE(HostEvaluateToGpuValues, CUpti_Profiler_Host_EvaluateToGpuValues_Params);
SAME_FIELD(HostEvaluateToGpuValues, CUpti_Profiler_Host_EvaluateToGpuValues_Params, pCounterDataImage, pCounterDataImage);
SAME_FIELD(HostEvaluateToGpuValues, CUpti_Profiler_Host_EvaluateToGpuValues_Params, counterDataImageSize,
           counterDataImageSize);
SAME_FIELD(HostEvaluateToGpuValues, CUpti_Profiler_Host_EvaluateToGpuValues_Params, rangeIndex, rangeIndex);
SAME_FIELD(HostEvaluateToGpuValues, CUpti_Profiler_Host_EvaluateToGpuValues_Params, ppMetricNames, ppMetricNames);
SAME_FIELD(HostEvaluateToGpuValues, CUpti_Profiler_Host_EvaluateToGpuValues_Params, numMetrics, numMetrics);
SAME_FIELD(HostEvaluateToGpuValues, CUpti_Profiler_Host_EvaluateToGpuValues_Params, pMetricValues, pMetricValues);
SAME_SIZE(Enable, CUpti_RangeProfiler_Enable_Params);
SAME_FIELD(Enable, CUpti_RangeProfiler_Enable_Params, ctx, ctx);
SAME_FIELD(Enable, CUpti_RangeProfiler_Enable_Params, pRangeProfilerObject, pRangeProfilerObject);
SAME_SIZE(SetConfig, CUpti_RangeProfiler_SetConfig_Params);
SAME_FIELD(SetConfig, CUpti_RangeProfiler_SetConfig_Params, configSize, configSize);
SAME_FIELD(SetConfig, CUpti_RangeProfiler_SetConfig_Params, pConfig, pConfig);
SAME_FIELD(SetConfig, CUpti_RangeProfiler_SetConfig_Params, counterDataImageSize, counterDataImageSize);
SAME_FIELD(SetConfig, CUpti_RangeProfiler_SetConfig_Params, pCounterDataImage, pCounterDataImage);
SAME_FIELD(SetConfig, CUpti_RangeProfiler_SetConfig_Params, range, range);
SAME_FIELD(SetConfig, CUpti_RangeProfiler_SetConfig_Params, replayMode, replayMode);
SAME_FIELD(SetConfig, CUpti_RangeProfiler_SetConfig_Params, maxRangesPerPass, maxRangesPerPass);
SAME_FIELD(SetConfig, CUpti_RangeProfiler_SetConfig_Params, numNestingLevels, numNestingLevels);
SAME_FIELD(SetConfig, CUpti_RangeProfiler_SetConfig_Params, minNestingLevel, minNestingLevel);
SAME_FIELD(SetConfig, CUpti_RangeProfiler_SetConfig_Params, passIndex, passIndex);
SAME_FIELD(SetConfig, CUpti_RangeProfiler_SetConfig_Params, targetNestingLevel, targetNestingLevel);
SAME_SIZE(Stop, CUpti_RangeProfiler_Stop_Params);
SAME_FIELD(Stop, CUpti_RangeProfiler_Stop_Params, passIndex, passIndex);
SAME_FIELD(Stop, CUpti_RangeProfiler_Stop_Params, targetNestingLevel, targetNestingLevel);
SAME_FIELD(Stop, CUpti_RangeProfiler_Stop_Params, isAllPassSubmitted, isAllPassSubmitted);
SAME_SIZE(DecodeData, CUpti_RangeProfiler_DecodeData_Params);
SAME_FIELD(DecodeData, CUpti_RangeProfiler_DecodeData_Params, numOfRangeDropped, numOfRangeDropped);
SAME_SIZE(GetCounterDataSize, CUpti_RangeProfiler_GetCounterDataSize_Params);
SAME_FIELD(GetCounterDataSize, CUpti_RangeProfiler_GetCounterDataSize_Params, pMetricNames, pMetricNames);
SAME_FIELD(GetCounterDataSize, CUpti_RangeProfiler_GetCounterDataSize_Params, numMetrics, numMetrics);
SAME_FIELD(GetCounterDataSize, CUpti_RangeProfiler_GetCounterDataSize_Params, maxNumOfRanges, maxNumOfRanges);
SAME_FIELD(GetCounterDataSize, CUpti_RangeProfiler_GetCounterDataSize_Params, maxNumRangeTreeNodes,
           maxNumRangeTreeNodes);
SAME_FIELD(GetCounterDataSize, CUpti_RangeProfiler_GetCounterDataSize_Params, counterDataSize, counterDataSize);
SAME_SIZE(CounterDataImageInitialize, CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
SAME_FIELD(CounterDataImageInitialize, CUpti_RangeProfiler_CounterDataImage_Initialize_Params, counterDataSize,
           counterDataSize);
SAME_FIELD(CounterDataImageInitialize, CUpti_RangeProfiler_CounterDataImage_Initialize_Params, pCounterData,
           pCounterData);
SAME_SIZE(GetCounterDataInfo, CUpti_RangeProfiler_GetCounterDataInfo_Params);
SAME_FIELD(GetCounterDataInfo, CUpti_RangeProfiler_GetCounterDataInfo_Params, pCounterDataImage, pCounterDataImage);
SAME_FIELD(GetCounterDataInfo, CUpti_RangeProfiler_GetCounterDataInfo_Params, counterDataImageSize,
           counterDataImageSize);
SAME_FIELD(GetCounterDataInfo, CUpti_RangeProfiler_GetCounterDataInfo_Params, numTotalRanges, numTotalRanges);
SAME_SIZE(GetRangeInfo, CUpti_RangeProfiler_CounterData_GetRangeInfo_Params);
SAME_FIELD(GetRangeInfo, CUpti_RangeProfiler_CounterData_GetRangeInfo_Params, rangeIndex, rangeIndex);
SAME_FIELD(GetRangeInfo, CUpti_RangeProfiler_CounterData_GetRangeInfo_Params, rangeDelimiter, rangeDelimiter);
SAME_FIELD(GetRangeInfo, CUpti_RangeProfiler_CounterData_GetRangeInfo_Params, rangeName, rangeName);

static_assert(clgrade::cupti::kAutoRange == CUPTI_AutoRange, "CUPTI_AutoRange");
static_assert(clgrade::cupti::kKernelReplay == CUPTI_KernelReplay, "CUPTI_KernelReplay");
static_assert(clgrade::cupti::kRangeProfilerType == CUPTI_PROFILER_TYPE_RANGE_PROFILER, "the range profiler's type");
static_assert(clgrade::cupti::kInsufficientPrivileges == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "the privilege error");
#endif

namespace clgrade {
namespace {

// The size each block declares is what CUPTI_PROFILER_STRUCT_SIZE gives: up to its last field.
TEST(CuptiApi, BlocksDeclareTheirSizeUpToTheLastField) {
  EXPECT_EQ(cupti::block(&cupti::Stop::isAllPassSubmitted).structSize, offsetof(cupti::Stop, isAllPassSubmitted) + 1);
  EXPECT_EQ(cupti::block(&cupti::SetConfig::targetNestingLevel).structSize,
            offsetof(cupti::SetConfig, targetNestingLevel) + sizeof(uint16_t));
  EXPECT_EQ(cupti::block(&cupti::Header::pPriv).structSize, 2 * sizeof(void*));
}

TEST(CuptiApi, LayoutComparedWithCudasHeaders) {
#ifndef CLGRADE_CUPTI_HEADERS
  GTEST_SKIP() << "CUDA's CUPTI headers are not installed here: the blocks were not compared with them";
#else
  SUCCEED() << "compared at compile time with " CLGRADE_CUPTI_HEADERS;
#endif
}

}  // namespace
}  // namespace clgrade
