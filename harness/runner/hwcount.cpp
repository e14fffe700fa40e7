// `clgrade hwcount`: a task's analysis case on the NVIDIA GPU with each distinct launch replayed
// through CUDA, where ncu counts it. Runs under ncu, in a sandbox (the keeper's profiler session).
#include <iostream>
#include <memory>
#include <set>

#include "cl/kernel_args.h"
#include "cl/launch_signature.h"
#include "counters/nvidia/replay.h"
#include "grading/analysis.h"
#include "grading/hardware.h"
#include "runner/runner.h"

namespace clgrade {

namespace {

/// Replays launches through CUDA, where ncu counts them; remembers what could not be replayed. A
/// launch that repeats one already replayed for the task but for its buffers' contents (the same
/// pass on the next colour channel) is not replayed again: ncu's profiled launches are most of a
/// session's time (about 0.14 s each on an H100), and the rules read ratios (per instruction, per
/// work-group), which the repeats do not change. Every launch still runs in OpenCL.
class ReplayObserver : public LaunchObserver {
 public:
  explicit ReplayObserver(std::unique_ptr<PtxReplay> replay) : replay_(std::move(replay)) {}
  void launched(const Runtime& rt, const cl::Kernel& kernel, const std::vector<KernelArg>& args,
                const Geometry& geometry) override {
    const std::string signature = launchSignature(kernel, args, geometry);
    if (replayed_.count(signature)) return;
    std::string err;
    if (!replay_->replay(rt, kernel, args, geometry, &err)) {
      ++failures;
      std::cerr << "clgrade: replay of " << kernel.getInfo<CL_KERNEL_FUNCTION_NAME>() << " failed: " << err << "\n";
      return;
    }
    replayed_.insert(signature);
  }
  /// The next task's launches are its own (two tasks may have kernels of one name).
  void nextTask() { replayed_.clear(); }
  int failures = 0;

 private:
  std::unique_ptr<PtxReplay> replay_;
  std::set<std::string> replayed_;
};

}  // namespace

int hwcountInChild(const std::string& kernelsDir, const Rubric& rubric, const std::string& taskId,
                   const std::string& reportDir, const std::optional<HiddenSeeds>& drawn) {
  AnalysisInput in;
  DeviceEntry device;
  std::string err;
  std::unique_ptr<PtxReplay> replay;
  if (!analysisInput(kernelsDir, rubric, taskId, &in, &err) ||
      (drawn && !analysisCase(rubric, taskId, &in, &err, true)) || !chooseDevice("gpu", &device, &err) ||
      !(replay = PtxReplay::open(&err))) {
    std::cerr << "clgrade hwcount: " << err << "\n";
    return 3;
  }
  Runtime runtime(device);
  auto observer = std::make_shared<ReplayObserver>(std::move(replay));
  runtime.observer = observer;
  runAnalysisCase(runtime, rubric, in, reportDir + "/evidence/" + taskId + (drawn ? "/hardware_drawn" : "/hardware"),
                  drawn ? &*drawn : nullptr);
  return observer->failures ? 4 : 0;
}

int hwcountInChild(const std::string& kernelsDir, const Rubric& rubric, const std::vector<std::string>& taskIds,
                   const std::string& reportDir, bool prefixed, const std::optional<HiddenSeeds>& seeds) {
  if (taskIds.size() == 1 && !prefixed && !seeds) return hwcountInChild(kernelsDir, rubric, taskIds.front(), reportDir);
  DeviceEntry device;
  std::string err;
  std::unique_ptr<PtxReplay> replay;
  if (!chooseDevice("gpu", &device, &err) || !(replay = PtxReplay::open(&err))) {
    std::cerr << "clgrade hwcount: " << err << "\n";
    return 3;
  }
  PtxReplay* named = replay.get();
  Runtime runtime(device);
  auto observer = std::make_shared<ReplayObserver>(std::move(replay));
  runtime.observer = observer;
  int exit = 0;
  for (const std::string& taskId : taskIds) {
    AnalysisInput in;
    // A task that cannot run (no file, no analysis case) has no rows; the others still do.
    if (!analysisInput(kernelsDir, rubric, taskId, &in, &err)) {
      std::cerr << "clgrade hwcount: " << taskId << ": " << err << "\n";
      exit = 4;
      continue;
    }
    named->setEntryPrefix(taskId + "__");
    observer->nextTask();
    runAnalysisCase(runtime, rubric, in, reportDir + "/evidence/" + taskId + "/hardware");
    // Spec 5c: a grade's drawn analysis case too, on the grade's hidden inputs, its kernels named
    // drawn_<task>__<kernel> (hardwareDrawnPrefix).
    AnalysisInput drawn;
    std::string none;
    if (seeds && analysisCase(rubric, taskId, &drawn, &none, true)) {
      drawn.source = in.source;
      named->setEntryPrefix(hardwareDrawnPrefix(taskId));
      observer->nextTask();
      runAnalysisCase(runtime, rubric, drawn, reportDir + "/evidence/" + taskId + "/hardware_drawn", &*seeds);
    }
  }
  return observer->failures ? 4 : exit;
}

}  // namespace clgrade
