// Building a program from source and keeping what the compiler said.
#pragma once

#include <array>
#include <functional>
#include <string>

#include "cl/runtime.h"

namespace clgrade {

/// A build attempt: the program when it compiled, and the log either way.
struct BuildResult {
  bool ok = false;
  std::string options;
  std::string log;    ///< the device's build log (may be long; warnings included)
  std::string error;  ///< one line: why the build failed, empty when ok
  cl::Program program;
};

/// Compiles `source` for the runtime's device with exactly `options`: a device step (replayed, the
/// result holds the recorded outcome and log, and no program). `compiled`, when given, does the
/// compilation instead (a build started ahead: it waits for it) and must give what compileProgram would.
BuildResult buildProgram(const Runtime& rt, const std::string& source, const std::string& options,
                         const std::function<BuildResult()>& compiled = {});
/// The compilation itself, on the device; the progress file names it while it runs (a compiler
/// that never ends is named by its options).
BuildResult compileProgram(const Runtime& rt, const std::string& source, const std::string& options);
/// The same without a progress note, for a build started ahead on another thread: the progress file
/// says what the runner's own thread does, and a build the runner waits for is named then.
/// Builds take turns (the driver's stderr is captured by swapping file descriptor 2).
BuildResult compileAhead(const Runtime& rt, const std::string& source, const std::string& options);

/// A kernel looked up by name; false with a message naming the kernels that do exist (a device step).
bool findKernel(const Runtime& rt, const BuildResult& build, const std::string& name, cl::Kernel* out,
                std::string* err);
/// The lookup itself, on the device.
bool lookUpKernel(const BuildResult& build, const std::string& name, cl::Kernel* out, std::string* err);
/// CL_KERNEL_NUM_ARGS (a device step).
cl_uint kernelArgumentCount(const Runtime& rt, const cl::Kernel& kernel);

/// CL_KERNEL_COMPILE_WORK_GROUP_SIZE: the kernel's reqd_work_group_size, {0,0,0} when undeclared
/// (a device step).
std::array<size_t, 3> declaredGroupSize(const Runtime& rt, const cl::Kernel& kernel);

/// The kernel names a program holds, space-separated (CL_PROGRAM_KERNEL_NAMES).
std::string kernelNames(const cl::Program& program);

/// kernelNames as a message says them (space-separated): the first 8, each cut at 64 characters, and how many more;
/// "no kernels" for none.
std::string definedKernelsText(const std::string& names);

}  // namespace clgrade
