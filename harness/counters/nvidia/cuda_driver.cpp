#include "counters/nvidia/cuda_driver.h"

#include <dlfcn.h>

#include <vector>

namespace clgrade {

// Signatures as in cuda.h (the _v2 entry points are what the current headers map the names to).
struct CudaDriver::Api {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned, int*, void**);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuModuleGetGlobal)(CUdeviceptr*, size_t*, CUmodule, const char*);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuFuncGetAttribute)(int*, int, CUfunction);
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t);
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                             void**, void**);
  CUresult (*cuGetErrorName)(CUresult, const char**);
  CUresult (*cuGetErrorString)(CUresult, const char**);
};

namespace {

template <typename F>
bool resolveCuda(void* library, const char* symbol, F* out, std::string* err) {
  void* address = dlsym(library, symbol);
  if (!address) {
    *err = std::string("libcuda.so.1 has no ") + symbol;
    return false;
  }
  *out = reinterpret_cast<F>(address);
  return true;
}

// From cuda.h: CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_OPTIMIZATION_LEVEL,
// CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES.
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSize = 6;
constexpr int kJitOptimizationLevel = 7;
constexpr int kFuncMaxThreadsPerBlock = 0;
constexpr int kFuncMaxDynamicShared = 8;

}  // namespace

std::unique_ptr<CudaDriver> CudaDriver::load(std::string* err) {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    *err = std::string("cannot load libcuda.so.1 (no NVIDIA driver?): ") + (why ? why : "unknown");
    return nullptr;
  }
  std::unique_ptr<CudaDriver> driver(new CudaDriver);
  driver->library_ = library;
  driver->api_ = std::make_unique<Api>();
  Api& a = *driver->api_;
  const bool ok = resolveCuda(library, "cuInit", &a.cuInit, err) &&
                  resolveCuda(library, "cuDeviceGet", &a.cuDeviceGet, err) &&
                  resolveCuda(library, "cuDevicePrimaryCtxRetain", &a.cuDevicePrimaryCtxRetain, err) &&
                  resolveCuda(library, "cuDevicePrimaryCtxRelease_v2", &a.cuDevicePrimaryCtxRelease, err) &&
                  resolveCuda(library, "cuCtxSetCurrent", &a.cuCtxSetCurrent, err) &&
                  resolveCuda(library, "cuCtxSynchronize", &a.cuCtxSynchronize, err) &&
                  resolveCuda(library, "cuModuleLoadDataEx", &a.cuModuleLoadDataEx, err) &&
                  resolveCuda(library, "cuModuleUnload", &a.cuModuleUnload, err) &&
                  resolveCuda(library, "cuModuleGetFunction", &a.cuModuleGetFunction, err) &&
                  resolveCuda(library, "cuModuleGetGlobal_v2", &a.cuModuleGetGlobal, err) &&
                  resolveCuda(library, "cuFuncSetAttribute", &a.cuFuncSetAttribute, err) &&
                  resolveCuda(library, "cuFuncGetAttribute", &a.cuFuncGetAttribute, err) &&
                  resolveCuda(library, "cuMemAlloc_v2", &a.cuMemAlloc, err) &&
                  resolveCuda(library, "cuMemFree_v2", &a.cuMemFree, err) &&
                  resolveCuda(library, "cuMemcpyHtoD_v2", &a.cuMemcpyHtoD, err) &&
                  resolveCuda(library, "cuMemcpyDtoH_v2", &a.cuMemcpyDtoH, err) &&
                  resolveCuda(library, "cuLaunchKernel", &a.cuLaunchKernel, err) &&
                  resolveCuda(library, "cuGetErrorName", &a.cuGetErrorName, err) &&
                  resolveCuda(library, "cuGetErrorString", &a.cuGetErrorString, err);
  if (!ok || !driver->check(a.cuInit(0), "cuInit", err)) return nullptr;
  return driver;
}

CudaDriver::~CudaDriver() {
  if (api_ && contextRetained_) api_->cuDevicePrimaryCtxRelease(device_);
  // libcuda stays loaded: unloading a driver library mid-process is not something it expects.
}

bool CudaDriver::check(CUresult result, const char* call, std::string* err) const {
  if (result == 0) return true;
  const char* name = nullptr;
  const char* text = nullptr;
  api_->cuGetErrorName(result, &name);
  api_->cuGetErrorString(result, &text);
  *err = std::string(call) + ": " + (name ? name : "CUDA error " + std::to_string(result)) + ": " +
         (text ? text : "no description");
  return false;
}

bool CudaDriver::useDevice(int ordinal, std::string* err) {
  if (contextRetained_) return true;
  CUcontext context = nullptr;
  if (!check(api_->cuDeviceGet(&device_, ordinal), "cuDeviceGet", err) ||
      !check(api_->cuDevicePrimaryCtxRetain(&context, device_), "cuDevicePrimaryCtxRetain", err))
    return false;
  contextRetained_ = true;
  context_ = context;
  return check(api_->cuCtxSetCurrent(context), "cuCtxSetCurrent", err);
}

bool CudaDriver::loadModule(const std::string& ptx, CUmodule* module, std::string* err, Jit jit) {
  std::vector<char> log(16384, '\0');
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize, kJitOptimizationLevel};
  // An option that is a number is passed as the pointer's value (cuda.h).
  void* values[] = {log.data(), reinterpret_cast<void*>(static_cast<size_t>(log.size())), reinterpret_cast<void*>(0)};
  const unsigned count = jit == Jit::Quick ? 3 : 2;
  if (check(api_->cuModuleLoadDataEx(module, ptx.c_str(), count, options, values), "cuModuleLoadDataEx", err))
    return true;
  if (log[0]) *err += "\n" + std::string(log.data());
  return false;
}

bool CudaDriver::unloadModule(CUmodule module, std::string* err) {
  return check(api_->cuModuleUnload(module), "cuModuleUnload", err);
}

bool CudaDriver::function(CUmodule module, const std::string& name, CUfunction* out, std::string* err) {
  return check(api_->cuModuleGetFunction(out, module, name.c_str()), "cuModuleGetFunction", err);
}

bool CudaDriver::global(CUmodule module, const std::string& name, CUdeviceptr* ptr, size_t* bytes, std::string* err) {
  return check(api_->cuModuleGetGlobal(ptr, bytes, module, name.c_str()), "cuModuleGetGlobal", err);
}

bool CudaDriver::maxThreadsPerBlock(CUfunction function, int* threads, std::string* err) {
  return check(api_->cuFuncGetAttribute(threads, kFuncMaxThreadsPerBlock, function), "cuFuncGetAttribute", err);
}

bool CudaDriver::setMaxDynamicShared(CUfunction function, int bytes, std::string* err) {
  return check(api_->cuFuncSetAttribute(function, kFuncMaxDynamicShared, bytes), "cuFuncSetAttribute", err);
}

bool CudaDriver::alloc(size_t bytes, CUdeviceptr* ptr, std::string* err) {
  return check(api_->cuMemAlloc(ptr, bytes), "cuMemAlloc", err);
}

bool CudaDriver::free(CUdeviceptr ptr, std::string* err) { return check(api_->cuMemFree(ptr), "cuMemFree", err); }

bool CudaDriver::copyToDevice(CUdeviceptr dst, const void* src, size_t bytes, std::string* err) {
  return check(api_->cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD", err);
}

bool CudaDriver::copyToHost(void* dst, CUdeviceptr src, size_t bytes, std::string* err) {
  return check(api_->cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH", err);
}

bool CudaDriver::launch(CUfunction function, const unsigned grid[3], const unsigned block[3], unsigned sharedBytes,
                        void** params, std::string* err) {
  return check(api_->cuLaunchKernel(function, grid[0], grid[1], grid[2], block[0], block[1], block[2], sharedBytes,
                                    nullptr, params, nullptr),
               "cuLaunchKernel", err) &&
         check(api_->cuCtxSynchronize(), "cuCtxSynchronize", err);
}

}  // namespace clgrade
