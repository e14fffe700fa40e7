// replay_probe: launches one kernel of the assignment on the NVIDIA OpenCL device, then replays the
// same launch through the CUDA driver (PtxReplay), and compares what both wrote. Run it under
// `ncu --csv --metrics <kNcuSharedMetrics>`: ncu sees only the replay.
//
//   replay_probe CASE FILE [BUILD OPTIONS]   CASE: conv3x3, sep_h, sep_v, hist_local, local_args
//   replay_probe --parse-ncu CSV_FILE        prints what parseNcuCsv reads from a saved ncu output
//
// Image 780 x 575, Pitch 800 (the course's size). Exit 0 when both outputs match exactly.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cl/device.h"
#include "cl/launch.h"
#include "cl/program.h"
#include "counters/nvidia/ncu_csv.h"
#include "counters/nvidia/replay.h"
#include "util/files.h"

using namespace clgrade;

namespace {

constexpr int kWidth = 780, kHeight = 575, kPitch = 800, kRows = 640;

/// What one case launches: the kernel, its geometry, its arguments and the buffer it writes.
struct Case {
  std::string kernel;
  Geometry geometry;
  std::vector<RecordedArg> args;
  cl::Buffer output;
  size_t outputBytes = 0;
  std::vector<unsigned char> initial;  ///< the output's contents before each launch
};

cl::Buffer upload(const Runtime& rt, const void* data, size_t bytes) {
  return cl::Buffer(rt.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, const_cast<void*>(data));
}

/// A photo-like image: smooth gradients plus a hashed texture, padding columns 0.
std::vector<float> sourceImage() {
  std::vector<float> img(static_cast<size_t>(kPitch) * kRows, 0.0f);
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const unsigned h = (x * 73856093u) ^ (y * 19349663u);
      img[y * kPitch + x] = 0.5f * x / kWidth + 0.3f * y / kHeight + 0.2f * static_cast<float>(h % 1000) / 1000.0f;
    }
  return img;
}

template <typename T>
void setOutput(Case* c, const Runtime& rt, const std::vector<T>& initial) {
  c->outputBytes = initial.size() * sizeof(T);
  c->initial.assign(reinterpret_cast<const unsigned char*>(initial.data()),
                    reinterpret_cast<const unsigned char*>(initial.data()) + c->outputBytes);
  c->output = upload(rt, initial.data(), c->outputBytes);
}

bool makeCase(const std::string& name, const Runtime& rt, Case* c) {
  static const std::vector<float> src = sourceImage();
  const std::vector<float> sentinel(src.size(), -7.0f);
  const cl::Buffer srcBuf = upload(rt, src.data(), src.size() * sizeof(float));
  const int iw = kWidth, ih = kHeight, ip = kPitch;
  if (name == "conv3x3") {
    const std::vector<float> k = {1, 2, 1, 2, 4, 2, 1, 2, 1, 1.0f / 16, 0};
    const cl::Buffer kBuf = upload(rt, k.data(), k.size() * sizeof(float));
    c->kernel = "Convolution";
    c->geometry.global = {800, 576};
    c->geometry.local = {32, 16};
    setOutput(c, rt, sentinel);
    const unsigned w = kWidth, h = kHeight, p = kPitch;
    c->args = {RecordedArg::ofBuffer(c->output),
               RecordedArg::ofBuffer(srcBuf),
               RecordedArg::ofBuffer(kBuf),
               RecordedArg::of(w),
               RecordedArg::of(h),
               RecordedArg::of(p)};
    return true;
  }
  if (name == "sep_h" || name == "sep_v") {
    const std::vector<float> k(9, 1.0f / 9);
    const cl::Buffer kBuf = upload(rt, k.data(), k.size() * sizeof(float));
    const bool h = name == "sep_h";
    c->kernel = h ? "ConvHorizontal" : "ConvVertical";
    // Spec: horizontal {roundup(ceil(W/4), 32), roundup(H, 16)}, vertical {roundup(W, 32), roundup(ceil(H/4), 16)}.
    c->geometry.global = h ? std::array<size_t, 2>{224, 576} : std::array<size_t, 2>{800, 144};
    c->geometry.local = {32, 16};
    setOutput(c, rt, sentinel);
    c->args = {RecordedArg::ofBuffer(c->output), RecordedArg::ofBuffer(srcBuf), RecordedArg::ofBuffer(kBuf),
               RecordedArg::of(h ? iw : ih), RecordedArg::of(ip)};
    return true;
  }
  if (name == "hist_local") {
    const int bins = 64;
    c->kernel = "compute_histogram_local_memory";
    c->geometry.global = {784, 576};
    c->geometry.local = {16, 16};
    setOutput(c, rt, std::vector<int>(bins, 0));
    c->args = {RecordedArg::ofBuffer(c->output),
               RecordedArg::ofBuffer(srcBuf),
               RecordedArg::of(iw),
               RecordedArg::of(ih),
               RecordedArg::of(ip),
               RecordedArg::of(bins),
               RecordedArg::ofLocal(bins * sizeof(int))};
    return true;
  }
  if (name == "staticAndDyn" || name == "onlyDyn") {  // tests/nvidia/data/local_args.cl
    const int n = 3;
    c->kernel = name;
    c->geometry.global = {1024, 1};
    c->geometry.local = {128, 1};
    setOutput(c, rt, std::vector<int>(1024, -1));
    const std::vector<int> k = {5};
    const cl::Buffer kBuf = upload(rt, k.data(), sizeof(int));
    if (name == "onlyDyn")
      c->args = {RecordedArg::ofBuffer(c->output), RecordedArg::ofLocal(128 * 4), RecordedArg::ofLocal(128 * 4),
                 RecordedArg::ofBuffer(kBuf), RecordedArg::of(n)};
    else
      c->args = {RecordedArg::ofBuffer(c->output), RecordedArg::ofLocal(128 * 4), RecordedArg::of(n)};
    return true;
  }
  return false;
}

void setArgs(cl::Kernel& kernel, const std::vector<RecordedArg>& args) {
  for (cl_uint i = 0; i < args.size(); ++i) {
    const RecordedArg& a = args[i];
    if (a.kind == RecordedArg::Kind::Buffer)
      kernel.setArg(i, a.buffer);
    else if (a.kind == RecordedArg::Kind::Local)
      kernel.setArg(i, cl::Local(a.localBytes));
    else
      kernel.setArg(i, a.bytes.size(), a.bytes.data());
  }
}

int parseNcu(const std::string& path) {
  std::string text, err;
  if (!readFile(path, &text, &err)) {
    std::cerr << err << "\n";
    return 2;
  }
  std::vector<HardwareCounts> counts;
  if (!parseNcuCsv(text, &counts, &err)) {
    std::cout << "parseNcuCsv: " << err << "\n";
    return 1;
  }
  for (const HardwareCounts& c : counts)
    std::printf("%-32s launches %ld  ld conflicts %.0f  st conflicts %.0f  ld inst %.0f  st inst %.0f\n",
                c.kernel.c_str(), c.launches, c.sharedLoadConflicts, c.sharedStoreConflicts, c.sharedLoadInstructions,
                c.sharedStoreInstructions);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--parse-ncu") return parseNcu(argv[2]);
  if (argc < 3) {
    std::cerr << "usage: replay_probe CASE FILE [BUILD OPTIONS] | --parse-ncu CSV_FILE\n";
    return 2;
  }
  const std::string caseName = argv[1];
  std::string options;
  for (int i = 3; i < argc; ++i) options += (options.empty() ? "" : " ") + std::string(argv[i]);
  try {
    DeviceEntry device;
    std::string err, source;
    if (!chooseDevice("gpu", &device, &err) || !readFile(argv[2], &source, &err)) {
      std::cerr << err << "\n";
      return 2;
    }
    const Runtime rt(device);
    const BuildResult build = buildProgram(rt, source, options);
    Case c;
    if (!build.ok || !makeCase(caseName, rt, &c)) {
      std::cerr << (build.ok ? "unknown case " + caseName : build.error + "\n" + build.log) << "\n";
      return 2;
    }
    cl::Kernel kernel;
    if (!findKernel(rt, build, c.kernel, &kernel, &err)) {
      std::cerr << err << "\n";
      return 2;
    }
    setArgs(kernel, c.args);
    const double ms = launch2d(rt, kernel, c.geometry);
    std::vector<unsigned char> viaOpenCl(c.outputBytes), viaCuda(c.outputBytes);
    rt.queue.enqueueReadBuffer(c.output, CL_TRUE, 0, c.outputBytes, viaOpenCl.data());

    rt.queue.enqueueWriteBuffer(c.output, CL_TRUE, 0, c.outputBytes, c.initial.data());
    std::unique_ptr<PtxReplay> replay = PtxReplay::open(&err);
    if (!replay || !replay->replay(rt, kernel, c.args, c.geometry, &err)) {
      std::cerr << "replay failed: " << err << "\n";
      return 1;
    }
    rt.queue.enqueueReadBuffer(c.output, CL_TRUE, 0, c.outputBytes, viaCuda.data());

    size_t differing = 0, changed = 0;
    for (size_t i = 0; i + 4 <= c.outputBytes; i += 4) {
      if (std::memcmp(&viaOpenCl[i], &viaCuda[i], 4) != 0) ++differing;
      if (std::memcmp(&viaOpenCl[i], &c.initial[i], 4) != 0) ++changed;
    }
    std::printf("%s %s (%s): OpenCL %.3f ms, %zu words written by OpenCL, %zu of %zu words differ after replay\n",
                caseName.c_str(), c.kernel.c_str(), c.geometry.str().c_str(), ms, changed, differing,
                c.outputBytes / 4);
    return differing == 0 && changed > 0 ? 0 : 1;
  } catch (const cl::Error& e) {
    std::cerr << describe(e) << "\n";
    return 1;
  }
}
