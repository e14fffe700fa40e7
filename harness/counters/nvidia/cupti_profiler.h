// The GPU's hardware counters for this process's own CUDA launches, through CUPTI's range profiler
// (CUDA 12.6 and later): the counters ncu reads, without an ncu process around the replay. ncu
// attaches to a process from outside and takes turns with every other ncu of the host; here the
// process that replays a submission's launches counts them itself, one range per launch (kernel
// replay: each launch is run as many passes as the metrics need, CUPTI restoring its memory).
// libcupti is loaded with dlopen at run time: clgrade builds and runs without CUDA.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "counters/nvidia/cuda_driver.h"

namespace clgrade {

/// One counted launch: the kernel's name as CUDA knows it and the metrics' values, in the order asked.
struct CuptiRange {
  std::string name;
  std::vector<double> values;
};

class CuptiRangeProfiler {
 public:
  /// Loads libcupti (CLGRADE_CUPTI names it, else libcupti.so.13 or .12, then the CUDA toolkit's
  /// folders), builds the configuration of `metrics` for the chip of CUDA device `ordinal`, and starts
  /// counting every kernel launched on `context` (which must be current). At most `maxLaunches` are
  /// kept. nullptr with the reason (no libcupti, too old a CUPTI, no permission to read counters, a
  /// metric the chip does not have).
  static std::unique_ptr<CuptiRangeProfiler> start(CUcontext context, int ordinal,
                                                   const std::vector<std::string>& metrics, size_t maxLaunches,
                                                   std::string* err);
  ~CuptiRangeProfiler();
  CuptiRangeProfiler(const CuptiRangeProfiler&) = delete;
  CuptiRangeProfiler& operator=(const CuptiRangeProfiler&) = delete;

  /// Stops counting and gives the launches since start, in launch order. False with the reason (a
  /// launch dropped because more than maxLaunches came is an error, not a shorter list).
  bool finish(std::vector<CuptiRange>* ranges, std::string* err);

  /// How many times each launch runs to collect the metrics.
  size_t passes() const { return passes_; }
  /// The library that was loaded.
  const std::string& library() const { return library_; }
  /// Where start's time went ("load 0.01 s, host 1.20 s, ..."), for the session's log.
  const std::string& startTimes() const { return startTimes_; }

 private:
  struct Api;
  CuptiRangeProfiler() = default;
  bool check(int result, const char* call, std::string* err) const;

  std::unique_ptr<Api> api_;
  std::string library_;
  void* handle_ = nullptr;
  void* rangeProfiler_ = nullptr;
  void* host_ = nullptr;
  std::vector<std::string> metrics_;
  std::vector<unsigned char> config_;
  std::vector<unsigned char> counterData_;
  size_t passes_ = 0;
  bool started_ = false;
  std::string startTimes_;
};

}  // namespace clgrade
