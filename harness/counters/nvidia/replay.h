// Replaying an OpenCL launch through the CUDA driver, from the program's own PTX, so that NVIDIA's
// profiler (ncu), which does not see OpenCL kernels, can count its shared-memory bank conflicts.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cl/kernel_args.h"
#include "cl/launch.h"
#include "cl/runtime.h"
#include "counters/nvidia/cuda_driver.h"
#include "counters/nvidia/cupti_profiler.h"
#include "counters/nvidia/ptx.h"
#include "counters/nvidia/ptx_accesses.h"
#include "counters/nvidia/ptx_atomics.h"

namespace clgrade {

/// The atomics of one kernel's first replayed launch, per work-item (counters/nvidia/ptx_atomics.h).
struct AtomicTally {
  std::string kernel;
  long workGroups = 0;                ///< of the counted launch
  std::vector<PtxAtomicSite> sites;   ///< the atomic instructions of its module (all its kernels')
  std::vector<uint64_t> counts;       ///< per slot (PtxAtomicSite::slot)
  std::string error;                  ///< why it could not be counted ("" when counted)
};

/// A launch replayed while the hardware was counted: the kernel's name in its module (with the entry
/// prefix), its groups, and the metrics' values (in the order countHardware was given them).
struct CountedLaunch {
  std::string kernel;
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  std::vector<double> values;
};

/// One kernel argument as the host set it (the record kept by the runtime's LaunchObserver).
using RecordedArg = KernelArg;

/// Replays an OpenCL launch through the CUDA driver from the program's PTX: buffers are copied
/// (contents read back from OpenCL), scalars passed as bytes, __local pointer arguments become
/// dynamic shared memory, __constant ones a constant array of the module (see
/// rebasePointerParams). Global buffers are written back to OpenCL afterwards (setWriteBack), so a
/// replay has the effects of the launch. Returns false with a message (e.g. "not an NVIDIA
/// program", "__local argument layout not understood").
class PtxReplay {
 public:
  /// Loads the CUDA driver; nullptr with a message where there is none.
  static std::unique_ptr<PtxReplay> open(std::string* err);
  ~PtxReplay();

  bool replay(const Runtime& rt, const cl::Kernel& kernel, const std::vector<RecordedArg>& args,
              const Geometry& geometry, std::string* err);

  /// The kernels (their names in the program) whose first replayed launch is preceded by a counted
  /// copy of it: the same launch from the PTX with a counter before each atomic, nothing written
  /// back. Clears the tallies.
  void countAtomicsOf(const std::set<std::string>& kernels) {
    countAtomics_ = kernels;
    tallies_.clear();
  }
  /// One per kernel of countAtomicsOf whose launch was replayed since.
  const std::vector<AtomicTally>& atomicTallies() const { return tallies_; }

  /// Counts `metrics` in the GPU's hardware for every launch replayed from now on, in this process
  /// (CUPTI's range profiler, counters/nvidia/cupti_profiler.h) on CUDA device `ordinal`. False with
  /// the reason, before anything ran, where CUPTI cannot count here.
  bool countHardware(int ordinal, const std::vector<std::string>& metrics, std::string* err);
  /// The launches counted since countHardware, in order; the atomics' counted copies are left out.
  bool countedLaunches(std::vector<CountedLaunch>* launches, std::string* err);
  /// How many times the hardware counting runs each launch.
  size_t hardwarePasses() const { return profiler_ ? profiler_->passes() : 0; }
  std::string hardwareStartTimes() const { return profiler_ ? profiler_->startTimes() : ""; }
  size_t hardwareLaunches() const { return launched_.size(); }

  /// Counts the shared-memory accesses and global loads of every replayed launch whose kernel
  /// `wanted` names (with the entry prefix, `conv3x3__Convolution`) in this process, from a counted
  /// copy of it that writes nothing back (counters/nvidia/ptx_accesses.h): no profiler.
  void countAccessesOf(std::function<bool(const std::string&)> wanted) {
    countAccesses_ = std::move(wanted);
    accessLaunches_.clear();
    accessError_.clear();
  }
  /// The launches counted so, in order, with hardwareCounterMetrics()' values.
  const std::vector<CountedLaunch>& accessLaunches() const { return accessLaunches_; }
  /// Why a wanted launch could not be counted so (its PTX not understood, a counted copy that
  /// failed); "" when every one was.
  const std::string& accessError() const { return accessError_; }
  /// Each counted instruction of the counted kernels, with what it added up to: the evidence.
  std::string accessSitesText() const;

  /// Copy __global buffers back into the OpenCL buffers after the launch (default on).
  void setWriteBack(bool on) { writeBack_ = on; }

  /// Off: only the counted copies run (atomics, accesses), never the launch itself through CUDA, so
  /// the program's own module is not even loaded. For when no profiler watches the replay: the
  /// OpenCL launch has had its effects already, and the counted copies see its buffers as they are.
  void setReplayLaunches(bool on) { replayLaunches_ = on; }

  /// Kernels of programs loaded from now on run under `prefix` + their name (`separable__ConvVertical`):
  /// in one profiler session of several tasks, ncu's rows then say which task launched a kernel
  /// (the separable and the bilateral task both have a ConvVertical).
  void setEntryPrefix(const std::string& prefix) { prefix_ = prefix; }

 private:
  /// A program's PTX, loaded once.
  struct Module {
    cl::Program program;
    CUmodule module = nullptr;
    std::vector<PtxEntry> entries;
    std::string prefix;  ///< of its entries' names in the loaded module
    /// A counted copy's: the PTX loaded, and whether it was JIT-compiled quickly (fitFor).
    std::string ptx;
    bool quick = false;
  };

  /// The counted copy of kernel `name` for a launch of `geometry`: `module`, compiled quickly
  /// (CudaDriver::Jit::Quick), where the JIT left its function registers for blocks that large;
  /// else the same PTX at the default level, as the kernel's own build has it (loaded once, kept in
  /// optimised_). Level 0 may take more registers: a copy whose launch failed for them would count
  /// with ncu instead, or leave atomics uncounted. Null with the reason when nothing loads.
  const Module* fitFor(const Module& module, const std::string& name, const Geometry& geometry, std::string* err);

  /// A program's PTX with the access counters, or why it has none. `source`: the PTX it was made
  /// from, its uncounted kernels taken out. Another program of the same PTX (a grade's drawn case
  /// builds the analysis case's source again) shares its module: `owner` is false on the copy.
  struct AccessModule {
    Module module;
    std::vector<PtxAccessSite> sites;
    int slots = 0;
    std::string error;
    std::string source;
    bool owner = true;
  };

  PtxReplay() = default;
  const Module* moduleFor(const Runtime& rt, const cl::Program& program, std::string* err);
  /// The program's patched PTX with only the kernels `counted` names (all of them where the text
  /// cannot be cut).
  static std::string countedSource(const cl::Program& program, const std::function<bool(const std::string&)>& counted);
  /// The program's module with the atomics' counters (ptx_atomics.h), loaded once.
  const Module* countingModuleFor(const Runtime& rt, const cl::Program& program, std::vector<PtxAtomicSite>* sites,
                                  int* slots, std::string* err);
  /// The program's module with the access counters (ptx_accesses.h), loaded once; nullptr with
  /// the reason.
  const AccessModule* accessModuleFor(const Runtime& rt, const cl::Program& program, std::string* err);
  void countAccesses(const Runtime& rt, const cl::Kernel& kernel, const std::vector<RecordedArg>& args,
                     const Geometry& geometry, const std::string& prefix, std::string* kernelFailed);
  AtomicTally countAtomics(const Runtime& rt, const cl::Kernel& kernel, const std::vector<RecordedArg>& args,
                           const Geometry& geometry);
  bool launch(const Runtime& rt, const Module& module, const std::string& name, const std::vector<RecordedArg>& args,
              const Geometry& geometry, std::string* err);

  std::unique_ptr<CudaDriver> driver_;
  std::vector<Module> modules_;
  struct CountingModule {  ///< as AccessModule, with the atomics' counters
    Module module;
    std::vector<PtxAtomicSite> sites;
    int slots = 0;
    std::string source;
    bool owner = true;
  };
  std::vector<CountingModule> counting_;
  std::vector<AccessModule> accessModules_;
  std::deque<Module> optimised_;  ///< fitFor's: counted copies at the default level, each loaded once
  std::function<bool(const std::string&)> countAccesses_;
  std::vector<CountedLaunch> accessLaunches_;
  std::string accessError_;
  /// Per counted kernel (with its prefix): its module's sites and what its launches added up to.
  struct AccessTotal {
    std::string kernel, entry;
    std::vector<PtxAccessSite> sites;
    std::vector<unsigned long long> counts;
  };
  std::vector<AccessTotal> accessTotals_;
  std::set<std::string> countAtomics_;
  std::vector<AtomicTally> tallies_;
  bool writeBack_ = true;
  bool replayLaunches_ = true;
  bool countingCopy_ = false;  ///< the launch under way is an atomics' counted copy
  std::unique_ptr<CuptiRangeProfiler> profiler_;
  /// Every launch since countHardware, in the order the profiler's ranges come (counted copies too).
  std::vector<std::pair<CountedLaunch, bool>> launched_;
  std::string prefix_;
  int deviceOrdinal_ = -1;
};

}  // namespace clgrade
