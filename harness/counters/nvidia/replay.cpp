#include "counters/nvidia/replay.h"

#include "util/files.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace clgrade {
namespace {

constexpr size_t kArgAlign = 16;  // covers every OpenCL C type up to float4/long2
constexpr size_t kDefaultDynamicShared = 48 * 1024;

size_t alignUp(size_t n, size_t a) { return (n + a - 1) / a * a; }

/// Device copies of the buffers of one launch, freed on every way out.
struct DeviceBuffers {
  CudaDriver* driver = nullptr;
  struct Entry {
    cl_mem handle;
    cl::Buffer buffer;
    CUdeviceptr ptr;
    size_t bytes;
  };
  std::vector<Entry> entries;
  ~DeviceBuffers() {
    std::string ignored;
    for (const Entry& e : entries) driver->free(e.ptr, &ignored);
  }
};

std::vector<unsigned char> readBuffer(const Runtime& rt, const cl::Buffer& buffer) {
  std::vector<unsigned char> bytes(buffer.getInfo<CL_MEM_SIZE>());
  if (!bytes.empty()) rt.queue.enqueueReadBuffer(buffer, CL_TRUE, 0, bytes.size(), bytes.data());
  return bytes;
}

/// The program's binary for the device: NVIDIA's PTX text.
std::string programBinary(const cl::Program& program) {
  std::string binary;
  for (const std::vector<unsigned char>& b : program.getInfo<CL_PROGRAM_BINARIES>())
    if (!b.empty()) binary.assign(b.begin(), b.end());
  return binary;
}

/// The counted module of `modules` made from `source`, taken for `program` as well: a copy that does
/// not own the loaded module, added last. Null when none was made from it.
template <typename CountedModule>
CountedModule* sharedModule(std::vector<CountedModule>& modules, const std::string& source,
                            const cl::Program& program) {
  for (const CountedModule& same : modules)
    if (same.owner && same.source == source) {
      CountedModule copy = same;
      copy.module.program = program;
      copy.owner = false;
      modules.push_back(copy);
      return &modules.back();
    }
  return nullptr;
}

/// Little-endian bytes of an offset or address, as wide as the parameter.
std::vector<unsigned char> paramValue(unsigned long long value, size_t bytes) {
  std::vector<unsigned char> out(bytes);
  for (size_t i = 0; i < bytes; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
  return out;
}

}  // namespace

std::unique_ptr<PtxReplay> PtxReplay::open(std::string* err) {
  std::unique_ptr<CudaDriver> driver = CudaDriver::load(err);
  if (!driver) return nullptr;
  std::unique_ptr<PtxReplay> replay(new PtxReplay);
  replay->driver_ = std::move(driver);
  return replay;
}

PtxReplay::~PtxReplay() {
  std::string ignored;
  for (const Module& m : modules_)
    if (m.module) driver_->unloadModule(m.module, &ignored);
  for (const CountingModule& m : counting_)
    if (m.owner) driver_->unloadModule(m.module.module, &ignored);
  for (const AccessModule& m : accessModules_)
    if (m.owner && m.module.module) driver_->unloadModule(m.module.module, &ignored);
  for (const Module& m : optimised_) driver_->unloadModule(m.module, &ignored);
}

const PtxReplay::Module* PtxReplay::fitFor(const Module& module, const std::string& name, const Geometry& geometry,
                                           std::string* err) {
  if (!module.quick) return &module;
  const size_t threads = (geometry.local[0] ? geometry.local[0] : 1) * (geometry.local[1] ? geometry.local[1] : 1);
  CUfunction function = nullptr;
  int most = 0;
  std::string unasked;  // a kernel the module lacks is the launch's to report, as it does
  if (!driver_->function(module.module, module.prefix + name, &function, &unasked) ||
      !driver_->maxThreadsPerBlock(function, &most, &unasked) || threads <= size_t(std::max(most, 0)))
    return &module;
  for (const Module& m : optimised_)
    if (m.ptx == module.ptx && m.prefix == module.prefix) return &m;
  Module m = module;
  m.quick = false;
  m.module = nullptr;
  if (!driver_->loadModule(m.ptx, &m.module, err)) {
    *err = "the counted PTX does not load at the default level: " + *err;
    return nullptr;
  }
  optimised_.push_back(m);
  return &optimised_.back();
}

std::string PtxReplay::countedSource(const cl::Program& program,
                                     const std::function<bool(const std::string&)>& counted) {
  const std::string patched = patchPtx(programBinary(program));
  std::string kept;
  return keepPtxEntries(patched, counted, &kept) ? kept : patched;
}

const PtxReplay::AccessModule* PtxReplay::accessModuleFor(const Runtime& rt, const cl::Program& program,
                                                          std::string* err) {
  for (const AccessModule& m : accessModules_)
    if (m.module.program() == program()) {
      if (!m.error.empty()) *err = m.error;
      return m.error.empty() ? &m : nullptr;
    }
  const Module* own = moduleFor(rt, program, err);  // the device chosen, the program known to be PTX
  if (!own) return nullptr;
  const std::string prefix = own->prefix;
  const std::string patched = countedSource(
      program, [&](const std::string& kernel) { return countAccesses_ && countAccesses_(prefix + kernel); });
  if (const AccessModule* same = sharedModule(accessModules_, patched, program)) {
    if (!same->error.empty()) *err = same->error;
    return same->error.empty() ? same : nullptr;
  }
  std::string counted, ptx;
  AccessModule m;
  m.module.program = program;
  m.module.entries = ptxEntries(patched);
  m.source = patched;
  if (instrumentPtxAccesses(patched, &counted, &m.sites, &m.slots, &m.error) &&
      rebasePointerParams(counted, &ptx, &m.error)) {
    m.module.ptx = ptx;
    m.module.quick = true;
    if (!driver_->loadModule(ptx, &m.module.module, &m.error, CudaDriver::Jit::Quick))
      m.error = "the PTX with the access counters does not load: " + m.error;
  }
  accessModules_.push_back(m);  // a program that cannot be counted is not tried again
  if (!m.error.empty()) *err = m.error;
  return m.error.empty() ? &accessModules_.back() : nullptr;
}

void PtxReplay::countAccesses(const Runtime& rt, const cl::Kernel& kernel, const std::vector<RecordedArg>& args,
                              const Geometry& geometry, const std::string& prefix, std::string* kernelFailed) {
  const std::string name = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
  std::string err;
  const AccessModule* m = accessModuleFor(rt, kernel.getInfo<CL_KERNEL_PROGRAM>(), &err);
  // The counted copy for this launch's blocks (the module's own, or the same PTX optimised).
  const Module* copy = m ? fitFor(m->module, name, geometry, &err) : nullptr;
  if (!copy) m = nullptr;
  CUdeviceptr counters = 0;
  size_t bytes = 0;
  std::vector<unsigned long long> counts(std::max(1, m ? m->slots : 1), 0);
  const size_t countBytes = counts.size() * sizeof(unsigned long long);
  if (m && (!driver_->global(copy->module, kPtxAccessCounters, &counters, &bytes, &err) || bytes < countBytes ||
            !driver_->copyToDevice(counters, counts.data(), countBytes, &err)))
    m = nullptr, err = err.empty() ? "the access counters are not in the module" : err;
  if (m) {
    // Where the launch is replayed as it is, the counted copy writes nothing back: the replay that
    // follows has the effects. Where it is not, the counted copy is the replay: its outputs are
    // what the case's checks see (as the analysed run's output must be right, spec 5c).
    const bool writeBack = writeBack_;
    writeBack_ = writeBack_ && !replayLaunches_;
    countingCopy_ = true;
    const bool ran =
        launch(rt, *copy, name, args, geometry, &err) && driver_->copyToHost(counts.data(), counters, countBytes, &err);
    countingCopy_ = false;
    writeBack_ = writeBack;
    if (!ran) {
      // More registers than the kernel's own launch could have is the counters' doing: ncu counts
      // it then. Any other failure is the kernel's, as its own launch would have shown.
      if (err.find("cuLaunchKernel") == std::string::npos || err.find("OUT_OF_RESOURCES") == std::string::npos) {
        *kernelFailed = "its counted copy failed: " + err;
        return;
      }
      m = nullptr, err = "its counted copy does not launch: " + err;
    }
  }
  if (!m) {
    if (accessError_.empty()) accessError_ = prefix + name + ": " + err;
    return;
  }
  CountedLaunch counted;
  counted.kernel = prefix + name;
  for (int d = 0; d < 2; ++d) {
    const size_t local = geometry.local[d] ? geometry.local[d] : 1, global = geometry.global[d] ? geometry.global[d] : 1;
    counted.grid[d] = static_cast<unsigned>(global / local);
    counted.block[d] = static_cast<unsigned>(local);
  }
  counted.values = accessMetricValues(m->sites, counts);
  accessLaunches_.push_back(counted);
  auto total = std::find_if(accessTotals_.begin(), accessTotals_.end(),
                            [&](const AccessTotal& t) { return t.kernel == counted.kernel; });
  if (total == accessTotals_.end()) {
    accessTotals_.push_back({counted.kernel, name, m->sites, std::vector<unsigned long long>(counts.size(), 0)});
    total = accessTotals_.end() - 1;
  }
  for (size_t i = 0; i < counts.size() && i < total->counts.size(); ++i) total->counts[i] += counts[i];
}

std::string PtxReplay::accessSitesText() const {
  std::ostringstream text;
  for (const AccessTotal& t : accessTotals_) {
    text << t.kernel << ": its counted instructions, summed over its counted launches\n";
    auto at = [&](int slot) { return slot < int(t.counts.size()) ? t.counts[slot] : 0ull; };
    for (const PtxAccessSite& s : t.sites) {
      // The kernel's own instructions, and those of the helpers it ran.
      const int slots = s.kind == PtxAccessKind::GenericLoad ? 4 : 2;
      unsigned long long ran = 0;
      for (int i = 0; i < slots; ++i) ran += at(s.slot + i);
      if (s.entry != t.entry && ran == 0) continue;
      text << "  PTX line " << s.line << (s.entry == t.entry ? "" : " (in " + s.entry + ")") << ": " << s.text
           << "\n    ";
      switch (s.kind) {
        case PtxAccessKind::SharedLoad:
        case PtxAccessKind::SharedStore:
        case PtxAccessKind::GenericStore:
          text << at(s.slot) << " warp instructions on local memory, " << at(s.slot + 1) << " bank conflicts";
          break;
        case PtxAccessKind::GlobalLoad:
          text << at(s.slot) << " warp requests, " << at(s.slot + 1) << " sectors of 32 bytes";
          if (s.splitFrom > 0)
            text << " (part of a vector load split at PTX line " << s.splitFrom << ": counted with that line where "
                 << "every lane's " << s.splitSpan << " bytes are aligned, as one vector load)";
          break;
        case PtxAccessKind::GenericLoad:
          text << at(s.slot) << " warp instructions on local memory, " << at(s.slot + 1) << " bank conflicts; "
               << at(s.slot + 2) << " global requests, " << at(s.slot + 3) << " sectors";
          break;
      }
      text << "\n";
    }
  }
  return text.str();
}

const PtxReplay::Module* PtxReplay::countingModuleFor(const Runtime& rt, const cl::Program& program,
                                                      std::vector<PtxAtomicSite>* sites, int* slots, std::string* err) {
  for (const CountingModule& m : counting_)
    if (m.module.program() == program()) {
      *sites = m.sites;
      *slots = m.slots;
      return &m.module;
    }
  if (!moduleFor(rt, program, err)) return nullptr;  // the device chosen, the program known to be PTX
  const std::string patched =
      countedSource(program, [this](const std::string& kernel) { return countAtomics_.count(kernel) > 0; });
  if (const CountingModule* same = sharedModule(counting_, patched, program)) {
    *sites = same->sites;
    *slots = same->slots;
    return &same->module;
  }
  std::string counted, ptx;
  CountingModule m;
  if (!instrumentPtxAtomics(patched, &counted, &m.sites, &m.slots, err) || !rebasePointerParams(counted, &ptx, err))
    return nullptr;
  m.module.program = program;
  m.module.entries = ptxEntries(patched);
  m.source = patched;
  m.module.ptx = ptx;
  m.module.quick = true;
  if (!driver_->loadModule(ptx, &m.module.module, err, CudaDriver::Jit::Quick)) {
    *err = "the PTX with the atomics' counters does not load: " + *err;
    return nullptr;
  }
  counting_.push_back(m);
  *sites = m.sites;
  *slots = m.slots;
  return &counting_.back().module;
}

AtomicTally PtxReplay::countAtomics(const Runtime& rt, const cl::Kernel& kernel, const std::vector<RecordedArg>& args,
                                    const Geometry& geometry) {
  AtomicTally tally;
  tally.kernel = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
  for (int d = 0; d < 2; ++d) {
    const size_t local = geometry.local[d] ? geometry.local[d] : 1, global = geometry.global[d] ? geometry.global[d] : 1;
    tally.workGroups = (d == 0 ? 1 : tally.workGroups) * static_cast<long>(global / local);
  }
  int slots = 0;
  const Module* module = countingModuleFor(rt, kernel.getInfo<CL_KERNEL_PROGRAM>(), &tally.sites, &slots, &tally.error);
  if (module) module = fitFor(*module, tally.kernel, geometry, &tally.error);  // this launch's blocks
  if (!module) return tally;
  CUdeviceptr counters = 0;
  size_t bytes = 0;
  std::vector<uint64_t> zero(std::max(1, slots), 0);
  if (!driver_->global(module->module, kPtxAtomicCounters, &counters, &bytes, &tally.error) ||
      bytes < zero.size() * sizeof(uint64_t) ||
      !driver_->copyToDevice(counters, zero.data(), zero.size() * sizeof(uint64_t), &tally.error))
    return tally.error.empty() ? (tally.error = "the atomics' counters are not in the module", tally) : tally;
  // The counted copy writes nothing back: the launch that follows is the one with effects.
  const bool writeBack = writeBack_;
  writeBack_ = false;
  countingCopy_ = true;
  const bool ran = launch(rt, *module, tally.kernel, args, geometry, &tally.error);
  countingCopy_ = false;
  writeBack_ = writeBack;
  tally.counts = zero;
  if (ran && !driver_->copyToHost(tally.counts.data(), counters, zero.size() * sizeof(uint64_t), &tally.error))
    tally.counts.clear();
  if (!ran) tally.counts.clear();
  return tally;
}

const PtxReplay::Module* PtxReplay::moduleFor(const Runtime& rt, const cl::Program& program, std::string* err) {
  for (const Module& m : modules_)
    if (m.program() == program()) return &m;

  const std::string binary = programBinary(program);
  if (!isNvidiaPtx(binary)) {
    *err = "not an NVIDIA program (its binary is not PTX; platform " + rt.device.info.platform + ")";
    return nullptr;
  }
  const std::string patched = patchPtx(binary);
  std::string ptx;
  if (!rebasePointerParams(patched, &ptx, err)) return nullptr;
  // For looking at what the driver was given when it refuses a module.
  if (const char* dump = std::getenv("CLGRADE_REPLAY_PTX_DUMP")) {
    std::string ignored;
    writeFileAtomically(dump, ptx, &ignored);
  }

  if (deviceOrdinal_ < 0) {
    // NVIDIA's OpenCL and CUDA list the same GPUs in the same order.
    if (!driver_->useDevice(rt.device.deviceIndex, err)) return nullptr;
    deviceOrdinal_ = rt.device.deviceIndex;
  }
  Module m;
  m.program = program;
  m.entries = ptxEntries(patched);  // before the rebase, which hides which parameters were __local
  m.prefix = prefix_;
  if (!prefix_.empty()) ptx = prefixPtxEntries(ptx, prefix_);
  // Only a launch replayed as it is needs the program's own module (a JIT compile of its PTX).
  if (replayLaunches_ && !driver_->loadModule(ptx, &m.module, err)) return nullptr;
  modules_.push_back(m);
  return &modules_.back();
}

bool PtxReplay::replay(const Runtime& rt, const cl::Kernel& kernel, const std::vector<RecordedArg>& args,
                       const Geometry& geometry, std::string* err) {
  try {
    if (rt.device.info.platform.find("NVIDIA") == std::string::npos) {
      *err = "not an NVIDIA program (platform " + rt.device.info.platform + ")";
      return false;
    }
    const Module* module = moduleFor(rt, kernel.getInfo<CL_KERNEL_PROGRAM>(), err);
    if (!module) return false;
    const std::string name = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
    if (countAtomics_.count(name) &&
        std::none_of(tallies_.begin(), tallies_.end(), [&](const AtomicTally& t) { return t.kernel == name; }))
      tallies_.push_back(countAtomics(rt, kernel, args, geometry));
    // Named as ncu would see it: the prefix its module was loaded with.
    if (countAccesses_ && countAccesses_(module->prefix + name)) {
      err->clear();
      countAccesses(rt, kernel, args, geometry, module->prefix, err);
      if (!err->empty()) return false;
    }
    if (!replayLaunches_) return true;
    return launch(rt, *module, kernel.getInfo<CL_KERNEL_FUNCTION_NAME>(), args, geometry, err);
  } catch (const cl::Error& e) {
    *err = describe(e);
    return false;
  }
}

bool PtxReplay::launch(const Runtime& rt, const Module& module, const std::string& name,
                       const std::vector<RecordedArg>& args, const Geometry& geometry, std::string* err) {
  const auto entry =
      std::find_if(module.entries.begin(), module.entries.end(), [&](const PtxEntry& e) { return e.name == name; });
  if (entry == module.entries.end()) {
    *err = "kernel " + name + " is not in the program's PTX";
    return false;
  }
  if (entry->params.size() != args.size()) {
    *err = name + ": " + std::to_string(args.size()) + " arguments recorded, the PTX has " +
           std::to_string(entry->params.size());
    return false;
  }

  DeviceBuffers buffers;
  buffers.driver = driver_.get();
  std::vector<unsigned char> constants;
  size_t dynamicShared = 0;
  std::vector<std::vector<unsigned char>> values;
  for (size_t i = 0; i < args.size(); ++i) {
    const PtxParam& param = entry->params[i];
    const RecordedArg& arg = args[i];
    const std::string where = name + " argument " + std::to_string(i) + ": ";
    const bool wantsBuffer = param.space == PtxSpace::Global || param.space == PtxSpace::Constant;
    if (wantsBuffer != (arg.kind == RecordedArg::Kind::Buffer) ||
        (param.space == PtxSpace::Shared) != (arg.kind == RecordedArg::Kind::Local)) {
      *err = where + "recorded kind does not match the PTX parameter " + param.name;
      return false;
    }
    switch (param.space) {
      case PtxSpace::Global: {
        const cl_mem handle = arg.buffer();
        auto same = std::find_if(buffers.entries.begin(), buffers.entries.end(),
                                 [&](const DeviceBuffers::Entry& e) { return e.handle == handle; });
        if (same == buffers.entries.end()) {
          const std::vector<unsigned char> host = readBuffer(rt, arg.buffer);
          CUdeviceptr ptr = 0;
          if (!driver_->alloc(std::max<size_t>(host.size(), 1), &ptr, err)) return false;
          buffers.entries.push_back({handle, arg.buffer, ptr, host.size()});
          if (!driver_->copyToDevice(ptr, host.data(), host.size(), err)) return false;
          same = buffers.entries.end() - 1;
        }
        values.push_back(paramValue(same->ptr, param.bytes));
        break;
      }
      case PtxSpace::Constant: {
        const std::vector<unsigned char> host = readBuffer(rt, arg.buffer);
        const size_t offset = alignUp(constants.size(), kArgAlign);
        if (offset + host.size() > kConstantBytes) {
          *err = where + "__constant arguments exceed " + std::to_string(kConstantBytes) + " bytes";
          return false;
        }
        constants.resize(offset);
        constants.insert(constants.end(), host.begin(), host.end());
        values.push_back(paramValue(offset, param.bytes));
        break;
      }
      case PtxSpace::Shared: {
        const size_t offset = alignUp(dynamicShared, kArgAlign);
        dynamicShared = offset + arg.localBytes;
        values.push_back(paramValue(offset, param.bytes));
        break;
      }
      case PtxSpace::Value:
        if (arg.bytes.size() != param.bytes) {
          *err = where + std::to_string(arg.bytes.size()) + " bytes recorded, " + param.name + " has " +
                 std::to_string(param.bytes);
          return false;
        }
        values.push_back(arg.bytes);
        break;
    }
  }

  CUfunction function = nullptr;
  if (!driver_->function(module.module, module.prefix + name, &function, err)) return false;
  if (!constants.empty()) {
    CUdeviceptr ptr = 0;
    size_t bytes = 0;
    if (!driver_->global(module.module, kConstantSymbol, &ptr, &bytes, err) ||
        !driver_->copyToDevice(ptr, constants.data(), constants.size(), err))
      return false;
  }
  if (dynamicShared > kDefaultDynamicShared &&
      !driver_->setMaxDynamicShared(function, static_cast<int>(dynamicShared), err))
    return false;

  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  for (int d = 0; d < 2; ++d) {
    const size_t local = geometry.local[d] ? geometry.local[d] : 1;
    const size_t global = geometry.global[d] ? geometry.global[d] : 1;
    if (global % local != 0) {
      *err = "global size is not a multiple of the local size (" + geometry.str() + ")";
      return false;
    }
    grid[d] = static_cast<unsigned>(global / local);
    block[d] = static_cast<unsigned>(local);
  }
  std::vector<void*> params;
  for (std::vector<unsigned char>& v : values) params.push_back(v.data());
  if (!driver_->launch(function, grid, block, static_cast<unsigned>(dynamicShared), params.data(), err)) return false;
  if (profiler_) {
    CountedLaunch counted;
    counted.kernel = module.prefix + name;
    std::copy(grid, grid + 3, counted.grid);
    std::copy(block, block + 3, counted.block);
    launched_.push_back({counted, countingCopy_});
  }

  if (writeBack_) {
    for (const DeviceBuffers::Entry& e : buffers.entries) {
      if (e.bytes == 0) continue;
      std::vector<unsigned char> host(e.bytes);
      if (!driver_->copyToHost(host.data(), e.ptr, e.bytes, err)) return false;
      rt.queue.enqueueWriteBuffer(e.buffer, CL_TRUE, 0, e.bytes, host.data());
    }
  }
  return true;
}

bool PtxReplay::countHardware(int ordinal, const std::vector<std::string>& metrics, std::string* err) {
  if (deviceOrdinal_ >= 0 && deviceOrdinal_ != ordinal) {
    *err = "the replay already runs on CUDA device " + std::to_string(deviceOrdinal_);
    return false;
  }
  if (!driver_->useDevice(ordinal, err)) return false;
  deviceOrdinal_ = ordinal;
  // A task's analysis case replays a few dozen distinct launches; a submission's session of four
  // tasks, with a grade's drawn case, stays far below this.
  constexpr size_t kMaxLaunches = 2048;
  profiler_ = CuptiRangeProfiler::start(driver_->context(), ordinal, metrics, kMaxLaunches, err);
  launched_.clear();
  return profiler_ != nullptr;
}

bool PtxReplay::countedLaunches(std::vector<CountedLaunch>* launches, std::string* err) {
  launches->clear();
  if (!profiler_) {
    *err = "the hardware was not being counted";
    return false;
  }
  std::vector<CuptiRange> ranges;
  if (!profiler_->finish(&ranges, err)) return false;
  // One range per launch, in launch order (auto ranges are named by their index, "0", "1", ...):
  // anything else is not understood.
  if (ranges.size() != launched_.size()) {
    *err = "CUPTI counted " + std::to_string(ranges.size()) + " launches, " + std::to_string(launched_.size()) +
           " were replayed";
    return false;
  }
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (ranges[i].name != std::to_string(i) && ranges[i].name != launched_[i].first.kernel) {
      *err = "CUPTI's range " + std::to_string(i) + " is " + ranges[i].name + ", the launch was " +
             launched_[i].first.kernel;
      return false;
    }
    if (launched_[i].second) continue;  // an atomics' counted copy
    launches->push_back(launched_[i].first);
    launches->back().values = ranges[i].values;
  }
  return true;
}

}  // namespace clgrade
