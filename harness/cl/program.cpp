#include "cl/program.h"

#include <unistd.h>

#include <cstdio>
#include <mutex>

#include "cl/device_step.h"
#include "protocol/progress.h"
#include "util/redact.h"
#include "util/work_time.h"

namespace clgrade {
namespace {

/// Some drivers (PoCL) print compiler diagnostics to the process's stderr besides the build log.
/// While alive, this sends stderr to a temporary file, so a batch's terminal stays readable and
/// the text can still go into the report. One at a time (it swaps file descriptor 2): while a build
/// started ahead runs, what another thread prints goes into that build's log.
class StderrCapture {
 public:
  StderrCapture() {
    std::fflush(stderr);
    file_ = std::tmpfile();
    saved_ = dup(2);
    if (file_ && saved_ >= 0) dup2(fileno(file_), 2);
  }
  /// Restores stderr and returns what was written meanwhile.
  std::string finish() {
    std::string text;
    if (!file_ || saved_ < 0) return text;
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    saved_ = -1;
    std::rewind(file_);
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, file_)) > 0 && text.size() < (1u << 20)) text.append(buffer, n);
    std::fclose(file_);
    file_ = nullptr;
    return text;
  }
  ~StderrCapture() { finish(); }

 private:
  std::FILE* file_ = nullptr;
  int saved_ = -1;
};

}  // namespace

BuildResult buildProgram(const Runtime& rt, const std::string& source, const std::string& options,
                         const std::function<BuildResult()>& compiled) {
  BuildResult result;
  const std::string recorded = deviceStep(rt, "build", [&] {
    if (compiled) {
      const progress::Scope building(progress::Step::Build, options);  // waiting for it is building
      result = compiled();
    } else {
      result = compileProgram(rt, source, options);
    }
    return tape::u64(result.ok) + tape::str(result.log) + tape::str(result.error);
  });
  if (rt.replaying()) {
    size_t at = 0;
    result.options = options;
    result.ok = tape::readU64(recorded, &at) != 0;
    result.log = tape::readStr(recorded, &at);
    result.error = tape::readStr(recorded, &at);
  }
  // The log reaches students (report.json, Gradescope): the compiler's paths are the grader's (its
  // PoCL cache under /root/.cache or /var/cache/clgrade, its scratch folder), never theirs.
  result.log = redactPaths(result.log);
  result.error = redactPaths(result.error);
  return result;
}

BuildResult compileProgram(const Runtime& rt, const std::string& source, const std::string& options) {
  // A compiler that hangs or crashes is named by its options (the line before comes back afterwards).
  const progress::Scope building(progress::Step::Build, options);
  return compileAhead(rt, source, options);
}

BuildResult compileAhead(const Runtime& rt, const std::string& source, const std::string& options) {
  static std::mutex oneAtATime;  // StderrCapture swaps the process's stderr
  const std::lock_guard<std::mutex> turn(oneAtATime);
  const work_time::Scope timer("builds");
  BuildResult result;
  result.options = options;
  try {
    result.program = cl::Program(rt.context, source);
  } catch (const cl::Error& e) {
    result.error = "cannot create the program: " + describe(e);
    return result;
  }
  StderrCapture capture;
  try {
    result.program.build(std::vector<cl::Device>{rt.device.device}, options.c_str());
    result.ok = true;
  } catch (const cl::BuildError& e) {
    result.error = "the program does not compile: " + clErrorName(e.err());
  } catch (const cl::Error& e) {
    result.error = "the program does not compile: " + describe(e);
  }
  const std::string printed = capture.finish();
  try {
    result.log = result.program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(rt.device.device);
    while (!result.log.empty() && (result.log.back() == '\0' || result.log.back() == '\n')) result.log.pop_back();
  } catch (const cl::Error&) {
    // No log is not worth failing over; the error line says what happened.
  }
  if (!printed.empty() && result.log.find(printed.substr(0, printed.find('\n'))) == std::string::npos)
    result.log += (result.log.empty() ? "" : "\n") + std::string("[printed by the driver]\n") + printed;
  return result;
}

std::string kernelNames(const cl::Program& program) {
  try {
    std::string names = program.getInfo<CL_PROGRAM_KERNEL_NAMES>();
    while (!names.empty() && names.back() == '\0') names.pop_back();
    for (char& c : names)
      if (c == ';') c = ' ';
    return names;
  } catch (const cl::Error&) {
    return "";
  }
}

bool findKernel(const Runtime& rt, const BuildResult& build, const std::string& name, cl::Kernel* out,
                std::string* err) {
  std::string message;
  const std::string recorded = deviceStep(rt, "kernel", [&] {
    const bool found = lookUpKernel(build, name, out, &message);
    return tape::u64(found) + tape::str(message);
  });
  size_t at = 0;
  const bool found = tape::readU64(recorded, &at) != 0;
  if (!found && err) *err = tape::readStr(recorded, &at);
  return found;
}

cl_uint kernelArgumentCount(const Runtime& rt, const cl::Kernel& kernel) {
  const std::string recorded =
      deviceStep(rt, "kernel-args", [&] { return tape::u64(kernel.getInfo<CL_KERNEL_NUM_ARGS>()); });
  size_t at = 0;
  return static_cast<cl_uint>(tape::readU64(recorded, &at));
}

std::string definedKernelsText(const std::string& names) {
  if (names.empty()) return "no kernels";
  // The names are the student's: a file of thousands of long ones made each case's message a
  // megabyte, repeated in every report and platform file (387 MB for one submission). A few say it.
  constexpr size_t kShown = 8, kLongest = 64;
  std::string text;
  size_t count = 0, from = 0;
  while (from <= names.size()) {
    const size_t to = std::min(names.find(' ', from), names.size());
    std::string one = names.substr(from, to - from);
    if (!one.empty() && ++count <= kShown) {
      if (one.size() > kLongest) one = one.substr(0, kLongest) + "...";
      text += (text.empty() ? "" : " ") + one;
    }
    from = to + 1;
  }
  if (count > kShown) text += " and " + std::to_string(count - kShown) + " more";
  return text;
}

bool lookUpKernel(const BuildResult& build, const std::string& name, cl::Kernel* out, std::string* err) {
  try {
    *out = cl::Kernel(build.program, name.c_str());
    return true;
  } catch (const cl::Error& e) {
    if (err) {
      *err = "kernel '" + name + "' not found (" + clErrorName(e.err()) +
             "); the program defines: " + definedKernelsText(kernelNames(build.program));
    }
    return false;
  }
}

std::array<size_t, 3> declaredGroupSize(const Runtime& rt, const cl::Kernel& kernel) {
  const std::string recorded = deviceStep(rt, "group-size", [&] {
    std::array<size_t, 3> size{0, 0, 0};
    try {
      cl::detail::size_t_array raw = kernel.getWorkGroupInfo<CL_KERNEL_COMPILE_WORK_GROUP_SIZE>(rt.device.device);
      for (int i = 0; i < 3; ++i) size[i] = raw[i];
    } catch (const cl::Error&) {
    }
    return tape::u64(size[0]) + tape::u64(size[1]) + tape::u64(size[2]);
  });
  std::array<size_t, 3> size{0, 0, 0};
  size_t at = 0;
  for (size_t& s : size) s = static_cast<size_t>(tape::readU64(recorded, &at));
  return size;
}

}  // namespace clgrade
