// `clgrade hwcount`: a task's analysis case on the NVIDIA GPU with each distinct launch replayed
// through CUDA, where it is counted: in this process by its PTX counters (--count-accesses, no
// profiler) or through CUPTI (--counters-csv), or from outside under ncu. Runs in a sandbox (the
// keeper's profiler session).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "cl/kernel_args.h"
#include "cl/launch_signature.h"
#include "counters/nvidia/ncu_csv.h"
#include "counters/nvidia/replay.h"
#include "grading/analysis.h"
#include "grading/hardware.h"
#include "protocol/atomics_record.h"
#include "protocol/profiler_files.h"
#include "runner/runner.h"
#include "util/files.h"
#include "util/trace.h"

namespace clgrade {

namespace {

/// Replays launches through CUDA, where ncu counts them; remembers what could not be replayed. A
/// launch that repeats one already replayed for the task but for its buffers' contents (the same
/// pass on the next colour channel) is not replayed again: ncu's profiled launches are most of a
/// session's time (about 0.14 s each on an H100), and the rules read ratios (per instruction, per
/// work-group), which the repeats do not change. Every launch still runs in OpenCL.
class ReplayObserver : public LaunchObserver {
 public:
  explicit ReplayObserver(PtxReplay* replay) : replay_(replay) {}
  void launched(const Runtime& rt, const cl::Kernel& kernel, const std::vector<KernelArg>& args,
                const Geometry& geometry) override {
    const std::string signature = launchSignature(kernel, args, geometry);
    if (replayed_.count(signature)) return;
    std::string err;
    const auto began = std::chrono::steady_clock::now();
    const bool ok = replay_->replay(rt, kernel, args, geometry, &err);
    replaySeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    ++replays;
    if (!ok) {
      ++failures;
      std::cerr << "clgrade: replay of " << kernel.getInfo<CL_KERNEL_FUNCTION_NAME>() << " failed: " << err << "\n";
      return;
    }
    replayed_.insert(signature);
  }
  /// The next task's launches are its own (two tasks may have kernels of one name).
  void nextTask() { replayed_.clear(); }
  int failures = 0;
  int replays = 0;
  /// In the replays: under ncu, its profiling of each launch too.
  double replaySeconds = 0;

 private:
  PtxReplay* replay_;
  std::set<std::string> replayed_;
};


/// The records of the kernels counted since countAtomicsOf: atomicsRecordPath(reportDir, task, kernel
/// + suffix); a kernel whose launch never came has a record saying so.
void writeAtomicsRecords(const PtxReplay& replay, const std::set<std::string>& kernels, const std::string& reportDir,
                         const std::string& taskId, const std::string& suffix) {
  for (const std::string& kernel : kernels) {
    AtomicsRecord record;
    record.kernel = kernel;
    record.error = "no launch of " + kernel + " was replayed (did it build and run?)";
    for (const AtomicTally& t : replay.atomicTallies()) {
      if (t.kernel != kernel) continue;
      record.workGroups = t.workGroups;
      record.error = t.error.empty() && t.counts.empty() ? "its counted launch failed" : t.error;
      for (const PtxAtomicSite& site : t.sites) {
        if (t.counts.empty() || site.slot + (site.space == PtxAtomicSpace::Generic ? 1 : 0) >= int(t.counts.size()))
          continue;
        AtomicsRecordSite s;
        s.line = site.line;
        s.instruction = site.text;
        s.space = site.space == PtxAtomicSpace::Shared ? "shared" : site.space == PtxAtomicSpace::Global ? "global" : "generic";
        if (site.space == PtxAtomicSpace::Generic) {
          s.shared = t.counts[site.slot];
          s.global = t.counts[site.slot + 1];
        } else {
          (site.space == PtxAtomicSpace::Shared ? s.shared : s.global) = t.counts[site.slot];
        }
        // What its local executions added: an add's values summed on the GPU, an inc one each.
        if (site.addedSlot >= 0 && site.addedSlot < int(t.counts.size())) {
          s.added = static_cast<int64_t>(std::min<uint64_t>(t.counts[site.addedSlot], INT64_MAX));
          s.addedKnown = true;
        } else if (site.addedSlot < 0 && site.addedKnown) {
          // An inc counts one an execution; a dec, an exchange or a min counts nothing.
          s.added = site.text.find(".inc.") != std::string::npos ? static_cast<int64_t>(s.shared) : 0;
          s.addedKnown = true;
        }
        // Only the counted kernel's own instructions (its module may hold other kernels).
        if (site.entry == kernel) record.sites.push_back(s);
      }
    }
    writeFileAtomically(atomicsRecordPath(reportDir, taskId, kernel + suffix), atomicsRecordText(record), nullptr);
  }
}

/// Counted launches as the rows of ncu's CSV.
std::vector<CountedLaunchRow> rowsOf(const std::vector<CountedLaunch>& launches) {
  std::vector<CountedLaunchRow> rows;
  for (const CountedLaunch& l : launches) {
    CountedLaunchRow row;
    row.kernel = l.kernel;
    for (int d = 0; d < 3; ++d) {
      row.groups[d] = l.grid[d];
      row.groupSize[d] = l.block[d];
    }
    row.values = l.values;
    rows.push_back(row);
  }
  return rows;
}

/// The launches CUPTI counted, in the CSV that ncu would have written (counterRowsCsv); false with
/// the reason, written to the CSV's file too, when the count could not be read back.
bool writeCountedLaunches(PtxReplay* replay, const std::string& csvPath) {
  std::vector<CountedLaunch> launches;
  std::string err;
  std::string csv;
  const bool counted = replay->countedLaunches(&launches, &err);
  if (counted) {
    csv = counterRowsCsv(rowsOf(launches), "clgrade hwcount: counted by CUPTI's range profiler in this process, " +
                                   std::to_string(replay->hardwarePasses()) + " pass(es) per launch");
  } else {
    csv = "==PROF== clgrade hwcount: CUPTI's counts could not be read: " + err + "\n";
    std::cerr << "clgrade hwcount: CUPTI's counts could not be read: " << err << "\n";
  }
  std::string ignored;
  return writeFileAtomically(csvPath, csv, &ignored) && counted;
}

/// Whether a replayed kernel (`<task>__<kernel>`, `drawn_<task>__<kernel>`, or its own name where
/// hwcount ran one task unprefixed) is among `profile` ("task" or "task:kernel"; empty: all).
bool profiledKernel(const std::vector<std::string>& profile, std::string name) {
  if (profile.empty()) return true;
  if (name.rfind("drawn_", 0) == 0) name = name.substr(6);
  const size_t sep = name.find("__");
  const std::string task = sep == std::string::npos ? "" : name.substr(0, sep);
  const std::string kernel = sep == std::string::npos ? name : name.substr(sep + 2);
  for (const std::string& p : profile) {
    const size_t colon = p.find(':');
    const std::string pt = p.substr(0, colon);
    if (!task.empty() && pt != task) continue;
    if (colon == std::string::npos || p.substr(colon + 1) == kernel) return true;
  }
  return false;
}

/// The launches the PTX counters counted, in ncu's CSV (counterRowsCsv); where a kernel asked for
/// could not be counted so, a CSV that says why (no rows) and false.
bool writeAccessCounts(const PtxReplay& replay, const std::string& csvPath) {
  std::string csv;
  if (!replay.accessError().empty()) {
    csv = "==PROF== clgrade hwcount: the PTX counters could not count " + replay.accessError() + "\n";
  } else {
    csv = counterRowsCsv(rowsOf(replay.accessLaunches()), std::string("clgrade hwcount: ") + kPtxCountersNote);
  }
  std::string ignored;
  return writeFileAtomically(csvPath, csv, &ignored) && replay.accessError().empty();
}

}  // namespace

int hwcountInChild(const std::string& kernelsDir, const Rubric& rubric, const std::vector<std::string>& taskIds,
                   const std::string& reportDir, bool prefixed, const std::optional<HiddenSeeds>& seeds,
                   const std::vector<std::string>& atomics, const HwcountCounting& counting, const Runtime* shared) {
  const std::string countersCsv = counting.how == HwcountCounting::How::Cupti ? counting.csv : std::string();
  const auto began = std::chrono::steady_clock::now();
  DeviceEntry device;
  std::string err;
  std::unique_ptr<PtxReplay> replay;
  {
    const trace::Span opening("open the device", "start");  // what comes before is the sandbox's and the loader's
    if (shared) device = shared->device;
    if ((!shared && !chooseDevice("gpu", &device, &err)) || !(replay = PtxReplay::open(&err))) {
      std::cerr << "clgrade hwcount: " << err << "\n";
      return 3;
    }
  }
  PtxReplay* named = replay.get();
  named->setReplayLaunches(!counting.copiesOnly);
  // NVIDIA's OpenCL and CUDA list the same GPUs in the same order.
  const auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count(); };
  if (!countersCsv.empty()) {
    if (!named->countHardware(device.deviceIndex, hardwareCounterMetrics(), &err)) {
      std::cerr << "clgrade hwcount: CUPTI cannot count here: " << err << "\n";
      return kHwcountNoCupti;
    }
    std::cerr << "clgrade hwcount: CUPTI counts " << named->hardwarePasses() << " pass(es) per launch (ready in "
              << seconds() << " s: " << named->hardwareStartTimes() << ")\n";
  }
  if (counting.how == HwcountCounting::How::Ptx) {
    const std::vector<std::string> profile = counting.profile;
    named->countAccessesOf([profile](const std::string& kernel) { return profiledKernel(profile, kernel); });
    // Said once the device and CUDA are ready: the keeper tells a machine that could not count
    // from a run that did (as ncu's own "==PROF==" lines do).
    std::cerr << "==PROF== clgrade hwcount: " << kPtxCountersNote << "\n";
  }
  std::cerr << "clgrade hwcount: device ready at " << seconds() << " s\n";
  // In the submission's one process, the context and queue its tasks' parts used: no second context.
  Runtime runtime = shared ? *shared : [&] {
    const trace::Span making("context and queue", "start");
    return Runtime(device);
  }();
  runtime.tape = nullptr;
  runtime.timingLock.clear();  // the counters time nothing
  auto observer = std::make_shared<ReplayObserver>(named);
  runtime.observer = observer;
  // Task -> the kernels whose atomics are counted (from "task:kernel").
  std::map<std::string, std::set<std::string>> counted;
  for (const std::string& pair : atomics)
    if (const size_t colon = pair.find(':'); colon != std::string::npos)
      counted[pair.substr(0, colon)].insert(pair.substr(colon + 1));
  int exit = 0;
  for (const std::string& taskId : taskIds) {
    AnalysisInput in;
    // A task that cannot run (no file, no analysis case) has no rows; the others still do.
    if (!analysisInput(kernelsDir, rubric, taskId, &in, &err)) {
      std::cerr << "clgrade hwcount: " << taskId << ": " << err << "\n";
      exit = 4;
      continue;
    }
    if (prefixed || taskIds.size() > 1) named->setEntryPrefix(taskId + "__");
    observer->nextTask();
    named->countAtomicsOf(counted[taskId]);
    runAnalysisCase(runtime, rubric, in, reportDir + "/evidence/" + taskId + "/hardware");
    writeAtomicsRecords(*named, counted[taskId], reportDir, taskId, "");
    // Spec 5c: a grade's drawn analysis case too, on the grade's hidden inputs, its kernels named
    // drawn_<task>__<kernel> (hardwareDrawnPrefix).
    AnalysisInput drawn;
    std::string none;
    if (seeds && analysisCase(rubric, taskId, &drawn, &none, true)) {
      drawn.source = in.source;
      named->setEntryPrefix(hardwareDrawnPrefix(taskId));
      observer->nextTask();
      named->countAtomicsOf(counted[taskId]);
      runAnalysisCase(runtime, rubric, drawn, reportDir + "/evidence/" + taskId + "/hardware_drawn", &*seeds);
      writeAtomicsRecords(*named, counted[taskId], reportDir, taskId, ".drawn");
    }
    std::cerr << "clgrade hwcount: " << taskId << " done at " << seconds() << " s\n";
  }
  // Where a session's time goes (its log is the task's evidence/<task>/hardware.log).
  std::cerr << "clgrade hwcount: " << observer->replays << " launches replayed in " << observer->replaySeconds
            << " s of the " << seconds() << " s\n";
  if (!countersCsv.empty()) {
    const double replayed = seconds();
    if (!writeCountedLaunches(named, countersCsv)) return 4;
    std::cerr << "clgrade hwcount: " << named->hardwareLaunches() << " launches replayed and counted by " << replayed
              << " s, counts read by " << seconds() << " s\n";
  }
  if (counting.how == HwcountCounting::How::Ptx) {
    std::cerr << named->accessSitesText();
    if (!writeAccessCounts(*named, counting.csv)) {
      std::cerr << "clgrade hwcount: the PTX counters could not count " << named->accessError() << "\n";
      // Where every launch replayed well, ncu can count what the PTX counters could not.
      if (!observer->failures) return kHwcountNotCounted;
    }
  }
  return observer->failures ? 4 : exit;
}

}  // namespace clgrade
