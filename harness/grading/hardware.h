// Hardware bank-conflict counters on NVIDIA GPUs: the task's analysis case runs in a child process
// under NVIDIA's profiler (ncu), and every OpenCL launch is replayed through the CUDA driver from the
// program's PTX, because ncu does not see OpenCL kernels.
#pragma once

#include <string>
#include <vector>

#include "counters/counters.h"
#include "counters/nvidia/ncu_csv.h"
#include "rubric/rubric.h"

namespace clgrade {

struct HardwareRun {
  enum class Outcome { Ran, Unavailable, Failed } outcome = Outcome::Unavailable;
  std::string message;  ///< why not, or what went wrong
  std::string logPath;  ///< ncu's output, relative to the report folder
  std::vector<HardwareCounts> counts;
  double seconds = 0;
};

/// ncu: $CLGRADE_NCU, else on PATH, else under /usr/local/cuda or /opt/nvidia/nsight-compute.
std::string findNcu();

/// Runs `clgrade hwcount` for the task under ncu when `device` is an NVIDIA GPU.
HardwareRun runHardwareCounters(const std::string& toolsDir, const DeviceInfo& device, const std::string& kernelsDir,
                                const Rubric& rubric, const TaskRubric& task, const std::string& reportDir);

/// The child's side (`clgrade hwcount`): runs the analysis case on the NVIDIA GPU with every launch
/// replayed through CUDA. Returns a process exit code.
int hwcountInChild(const std::string& kernelsDir, const Rubric& rubric, const std::string& taskId,
                   const std::string& reportDir);

/// The hardware counts as report rows.
std::vector<CounterRow> hardwareRows(const HardwareRun& run, const std::string& deviceName);

}  // namespace clgrade
