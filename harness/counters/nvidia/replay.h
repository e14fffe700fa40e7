// Replaying an OpenCL launch through the CUDA driver, from the program's own PTX, so that NVIDIA's
// profiler (ncu), which does not see OpenCL kernels, can count its shared-memory bank conflicts.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cl/kernel_args.h"
#include "cl/launch.h"
#include "cl/runtime.h"
#include "counters/nvidia/cuda_driver.h"
#include "counters/nvidia/ptx.h"

namespace clgrade {

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

  /// Copy __global buffers back into the OpenCL buffers after the launch (default on).
  void setWriteBack(bool on) { writeBack_ = on; }

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
  };

  PtxReplay() = default;
  const Module* moduleFor(const Runtime& rt, const cl::Program& program, std::string* err);
  bool launch(const Runtime& rt, const Module& module, const std::string& name, const std::vector<RecordedArg>& args,
              const Geometry& geometry, std::string* err);

  std::unique_ptr<CudaDriver> driver_;
  std::vector<Module> modules_;
  bool writeBack_ = true;
  std::string prefix_;
  int deviceOrdinal_ = -1;
};

}  // namespace clgrade
