// Hardware bank-conflict counters on NVIDIA GPUs: the task's analysis case runs in a child process
// under NVIDIA's profiler (ncu), and every OpenCL launch is replayed through the CUDA driver from the
// program's PTX, because ncu does not see OpenCL kernels.
#pragma once

#include <string>
#include <vector>

#include "counters/counters.h"
#include "counters/nvidia/ncu_csv.h"
#include "grading/analysis.h"
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

/// On an NVIDIA GPU: the hardware counts of the task's analysis case go to `counters` next to the
/// simulated ones and into the simulated checks' details; where the simulator is missing, the
/// tile-load check is judged from them (conflicts per shared store instruction within the rubric's
/// tolerance) and the discontinuity technique from the shared loads.
void judgeWithHardware(const Runtime& rt, const Task& task, const TaskRubric& taskRubric, const Rubric& rubric,
                       const AnalysisFolders& folders, std::map<std::string, CheckResult>* checks,
                       std::vector<CounterRow>* counters);

/// The hardware counts as report rows.
std::vector<CounterRow> hardwareRows(const HardwareRun& run, const std::string& deviceName);

}  // namespace clgrade
