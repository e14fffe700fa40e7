// The few CUDA driver API calls a replay needs, loaded with dlopen("libcuda.so.1") at run time so
// clgrade builds and runs on machines without CUDA. The types are declared here (no cuda.h).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace clgrade {

/// The driver's opaque handles and scalar types, as cuda.h defines them.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUstream = CUstream_st*;

/// A dlopen'd libcuda with its functions resolved. Every wrapper returns true, or false with
/// "cuXxx: CUDA_ERROR_NAME: description" in *err.
class CudaDriver {
 public:
  /// Loads libcuda.so.1 and calls cuInit; nullptr with a message when either fails.
  static std::unique_ptr<CudaDriver> load(std::string* err);
  ~CudaDriver();
  CudaDriver(const CudaDriver&) = delete;
  CudaDriver& operator=(const CudaDriver&) = delete;

  /// Makes device `ordinal`'s primary context current (retained until destruction).
  bool useDevice(int ordinal, std::string* err);
  /// The context useDevice made current (nullptr before).
  CUcontext context() const { return context_; }
  /// How hard the JIT optimises a module.
  enum class Jit {
    Optimised,  ///< the driver's default (level 4), as NVIDIA's OpenCL compiles the kernel itself
    /// Level 0, for the counted copies (PtxReplay::fitFor: a launch of larger blocks than such a copy
    /// has registers for is counted at the default level): their counters are read, never timed. The atomics'
    /// counters add once per executed PTX instruction at any level. The access counters read which
    /// lanes run an instruction together (activemask), which is the JIT's choice and could differ
    /// between levels: on an H200 every count of the 30 programs of .gpu's class (each twice) and of
    /// the GPU tests' known patterns, a divergent branch among them, was the same at both levels,
    /// and a submission's counted copies compiled in about half the time (docs/performance.md).
    Quick,
  };
  /// Loads a NUL-free PTX text; the JIT's error log is part of the message on failure.
  bool loadModule(const std::string& ptx, CUmodule* module, std::string* err, Jit jit = Jit::Optimised);
  bool unloadModule(CUmodule module, std::string* err);
  bool function(CUmodule module, const std::string& name, CUfunction* out, std::string* err);
  /// Address and size of a module-scope variable.
  bool global(CUmodule module, const std::string& name, CUdeviceptr* ptr, size_t* bytes, std::string* err);
  /// Allows more than 48 KiB of dynamic shared memory for a function.
  /// The most threads a block of `function` may have, as the JIT compiled it (its registers).
  bool maxThreadsPerBlock(CUfunction function, int* threads, std::string* err);
  bool setMaxDynamicShared(CUfunction function, int bytes, std::string* err);
  bool alloc(size_t bytes, CUdeviceptr* ptr, std::string* err);
  bool free(CUdeviceptr ptr, std::string* err);
  bool copyToDevice(CUdeviceptr dst, const void* src, size_t bytes, std::string* err);
  bool copyToHost(void* dst, CUdeviceptr src, size_t bytes, std::string* err);
  /// cuLaunchKernel on the default stream, then cuCtxSynchronize.
  bool launch(CUfunction function, const unsigned grid[3], const unsigned block[3], unsigned sharedBytes, void** params,
              std::string* err);

 private:
  struct Api;
  CudaDriver() = default;
  bool check(CUresult result, const char* call, std::string* err) const;

  void* library_ = nullptr;
  std::unique_ptr<Api> api_;
  CUdevice device_ = -1;
  bool contextRetained_ = false;
  CUcontext context_ = nullptr;
};

}  // namespace clgrade
