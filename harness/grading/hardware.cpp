#include "grading/hardware.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "checks/evidence.h"
#include "cl/kernel_args.h"
#include "counters/nvidia/replay.h"
#include "grading/analysis.h"
#include "tasks/task_context.h"
#include "util/files.h"
#include "util/subprocess.h"

namespace clgrade {

namespace fs = std::filesystem;

std::string findNcu() {
  if (const char* env = std::getenv("CLGRADE_NCU"); env && *env) return env;
  std::error_code ec;
  if (const char* path = std::getenv("PATH")) {
    std::string dirs = path;
    size_t start = 0;
    while (start <= dirs.size()) {
      const size_t end = dirs.find(':', start);
      const std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (!dir.empty() && fs::exists(dir + "/ncu", ec)) return dir + "/ncu";
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  if (fs::exists("/usr/local/cuda/bin/ncu", ec)) return "/usr/local/cuda/bin/ncu";
  if (fs::is_directory("/opt/nvidia/nsight-compute", ec))
    for (const auto& entry : fs::directory_iterator("/opt/nvidia/nsight-compute", ec))
      if (fs::exists(entry.path() / "ncu", ec)) return (entry.path() / "ncu").string();
  return "";
}

HardwareRun runHardwareCounters(const std::string& toolsDir, const DeviceInfo& device, const std::string& kernelsDir,
                                const Rubric& rubric, const TaskRubric& task, const std::string& reportDir) {
  HardwareRun run;
  if (device.type != "gpu" || device.platform.find("NVIDIA") == std::string::npos) {
    run.message = "hardware counters are read on NVIDIA GPUs only; " + device.platform + " does not expose them";
    return run;
  }
  const std::string ncu = findNcu();
  if (ncu.empty()) {
    run.message = "NVIDIA's profiler ncu was not found (set CLGRADE_NCU or put ncu on the PATH)";
    return run;
  }
  const std::string dir = "evidence/" + task.id;
  makeDirectories(reportDir + "/" + dir, nullptr);
  run.logPath = dir + "/ncu.csv";
  const std::string childLog = reportDir + "/" + dir + "/hardware.log";
  const ProcessResult p = runProcess(
      {ncu, "--csv", "--log-file", reportDir + "/" + run.logPath, "--metrics",
       "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,"
       "smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum",
       toolsDir + "/clgrade", "hwcount", kernelsDir, "--rubric", rubric.path, "--task", task.id, "--out", reportDir},
      {}, rubric.settings.analysisTimeoutSeconds, childLog, childLog);
  run.seconds = p.seconds;
  std::string csv, err;
  readFile(reportDir + "/" + run.logPath, &csv, nullptr);
  if (!parseNcuCsv(csv, &run.counts, &err)) {
    // The permission error and "no kernels" come back here as messages a person can act on.
    run.outcome = err.find("ERR_NVGPUCTRPERM") != std::string::npos ? HardwareRun::Outcome::Unavailable
                                                                   : HardwareRun::Outcome::Failed;
    run.message = err + (p.ok() ? "" : " (the profiled run: " + p.describe() + ")");
    return run;
  }
  run.outcome = HardwareRun::Outcome::Ran;
  return run;
}

namespace {

/// Replays every launch through CUDA; remembers what could not be replayed.
class ReplayObserver : public LaunchObserver {
 public:
  explicit ReplayObserver(std::unique_ptr<PtxReplay> replay) : replay_(std::move(replay)) {}
  void launched(const Runtime& rt, const cl::Kernel& kernel, const std::vector<KernelArg>& args,
                const Geometry& geometry) override {
    std::string err;
    if (!replay_->replay(rt, kernel, args, geometry, &err)) {
      ++failures;
      std::cerr << "clgrade: replay of " << kernel.getInfo<CL_KERNEL_FUNCTION_NAME>() << " failed: " << err << "\n";
    }
  }
  int failures = 0;

 private:
  std::unique_ptr<PtxReplay> replay_;
};

}  // namespace

int hwcountInChild(const std::string& kernelsDir, const Rubric& rubric, const std::string& taskId,
                   const std::string& reportDir) {
  AnalysisInput in;
  DeviceEntry device;
  std::string err;
  std::unique_ptr<PtxReplay> replay;
  if (!analysisInput(kernelsDir, rubric, taskId, &in, &err) || !chooseDevice("gpu", &device, &err) ||
      !(replay = PtxReplay::open(&err))) {
    std::cerr << "clgrade hwcount: " << err << "\n";
    return 3;
  }
  Runtime runtime(device);
  auto observer = std::make_shared<ReplayObserver>(std::move(replay));
  runtime.observer = observer;
  runAnalysisCase(runtime, rubric, in, reportDir + "/evidence/" + taskId + "/hardware");
  return observer->failures ? 4 : 0;
}

void judgeWithHardware(const Runtime& rt, const Task& task, const TaskRubric& taskRubric, const Rubric& rubric,
                       const AnalysisFolders& folders, std::map<std::string, CheckResult>* checks,
                       std::vector<CounterRow>* counters) {
  if (!taskRubric.analysis.present) return;
  const HardwareRun run = runHardwareCounters(folders.tools, rt.device.info, folders.kernels, rubric, taskRubric,
                                              folders.report);
  if (run.outcome == HardwareRun::Outcome::Unavailable && rt.device.info.type != "gpu") return;  // nothing to say
  const std::vector<CounterRow> rows = hardwareRows(run, rt.device.info.name);
  counters->insert(counters->end(), rows.begin(), rows.end());
  for (const CheckInfo& ci : task.info().checks) {
    if (!ci.simulated) continue;
    for (CaseOutcome& o : (*checks)[ci.id].cases) {
      if (run.outcome != HardwareRun::Outcome::Ran) {
        o.details.push_back("hardware counters: " + run.message);
        continue;
      }
      if (!run.logPath.empty()) o.evidence.push_back({"hardware counters (ncu CSV)", run.logPath});
      for (const HardwareCounts& c : run.counts) {
        char line[256];
        std::snprintf(line, sizeof line,
                      "hardware (ncu, %s): %s: %.0f shared store conflicts in %.0f store instructions, %.0f load "
                      "conflicts in %.0f load instructions",
                      rt.device.info.name.c_str(), c.kernel.c_str(), c.sharedStoreConflicts, c.sharedStoreInstructions,
                      c.sharedLoadConflicts, c.sharedLoadInstructions);
        o.details.push_back(line);
      }
      // No simulator here: shared-memory loads on the GPU show that the discontinuity kernels use
      // local memory.
      if (ci.id == "discontinuity_local_memory" && o.status == Status::NotMeasured) {
        std::string without;
        int seen = 0;
        for (const HardwareCounts& c : run.counts) {
          if (c.kernel != "DiscontinuityHorizontal" && c.kernel != "DiscontinuityVertical") continue;
          ++seen;
          if (c.sharedLoadInstructions == 0) without += (without.empty() ? "" : ", ") + c.kernel;
        }
        if (seen == 2) {
          o.status = without.empty() ? Status::Passed : Status::Failed;
          o.message = without.empty() ? "both discontinuity kernels load from shared (local) memory on the GPU"
                                      : without + " load nothing from shared (local) memory on the GPU";
        }
      }
      // No simulator here: the hardware decides the tile-load check, with a tolerance for its noise.
      if (ci.id == "bank_conflicts" && o.status == Status::NotMeasured) {
        for (const HardwareCounts& c : run.counts) {
          if (c.kernel != "Convolution") continue;
          const double perStore = c.sharedStoreInstructions > 0 ? c.sharedStoreConflicts / c.sharedStoreInstructions : 0;
          char message[200];
          if (c.sharedStoreInstructions == 0) {
            o.status = Status::Failed;
            o.message = "Convolution stores nothing into shared (local) memory on the GPU";
          } else {
            std::snprintf(message, sizeof message, "%.3f bank conflicts per shared store instruction on the GPU (tolerance %.3f)",
                          perStore, rubric.settings.hardwareConflictTolerance);
            o.status = perStore <= rubric.settings.hardwareConflictTolerance ? Status::Passed : Status::Failed;
            o.message = message;
          }
        }
      }
    }
  }
}

std::vector<CounterRow> hardwareRows(const HardwareRun& run, const std::string& deviceName) {
  std::vector<CounterRow> rows;
  for (const HardwareCounts& c : run.counts) {
    rows.push_back({c.kernel,
                    "hardware (ncu, " + deviceName + ")",
                    {{"launches", double(c.launches)},
                     {"shared_store_conflicts", c.sharedStoreConflicts},
                     {"shared_store_instructions", c.sharedStoreInstructions},
                     {"shared_load_conflicts", c.sharedLoadConflicts},
                     {"shared_load_instructions", c.sharedLoadInstructions}}});
  }
  return rows;
}

}  // namespace clgrade
