// OpenCL plumbing on the CPU device (PoCL): device choice, builds and their logs, kernel lookup,
// reqd_work_group_size, the guard bands that catch out-of-bounds writes, and what a launch observer
// records (the arguments the NVIDIA counters replay, launches that repeat one another).
#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#include "../../test_env.h"
#include "cl/guarded_buffer.h"
#include "cl/host_staging.h"
#include "cl/kernel_args.h"
#include "cl/launch.h"
#include "cl/launch_signature.h"
#include "cl/program.h"
#include "tasks/device_plane.h"

namespace clgrade {
namespace {

class OpenCL : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    DeviceEntry entry;
    ASSERT_TRUE(chooseDevice(test::deviceSpec(), &entry, &err)) << err;
    rt_ = std::make_unique<Runtime>(entry);
  }
  /// Kernel `name` of `source`, built with no options (the test fails where it does not build).
  void kernelOf(const std::string& source, const std::string& name, cl::Kernel* kernel) {
    const BuildResult r = buildProgram(*rt_, source, "");
    ASSERT_TRUE(r.ok) << r.log;
    ASSERT_TRUE(findKernel(*rt_, r, name, kernel, nullptr));
  }
  std::unique_ptr<Runtime> rt_;
};

TEST_F(OpenCL, DeviceChoiceByTypeAndPlatformName) {
  std::string err;
  DeviceEntry entry;
  EXPECT_TRUE(chooseDevice("auto", &entry, &err)) << err;
  EXPECT_TRUE(chooseDevice(rt_->device.info.platform.substr(0, 4) + ":0", &entry, &err)) << err;
  EXPECT_FALSE(chooseDevice("no-such-platform", &entry, &err));
  EXPECT_NE(err.find("available:"), std::string::npos) << err;
  EXPECT_FALSE(chooseDevice("portable:x", &entry, &err));
  EXPECT_NE(err.find("device index"), std::string::npos) << err;
}

TEST_F(OpenCL, FailedBuildKeepsTheLog) {
  const BuildResult r = buildProgram(*rt_, "__kernel void k(__global float* a) { a[0] = undeclared; }", "");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("does not compile"), std::string::npos) << r.error;
  EXPECT_NE(r.log.find("undeclared"), std::string::npos) << r.log;
}

// PoCL names the file it compiled by its path in the grader's compiler cache (under the home folder
// or /var/cache/clgrade), and the log reaches students: only the file name may remain.
TEST_F(OpenCL, TheBuildLogNamesNoGraderFolder) {
  const BuildResult r = buildProgram(*rt_, "__kernel void k(__global float* a) { a[0] = undeclared; }", "");
  EXPECT_NE(r.log.find("undeclared"), std::string::npos) << r.log;
  EXPECT_FALSE(std::regex_search(r.log, std::regex("(^|[\\s'\"(])/[^\\s:'\"]+/"))) << r.log;
}

TEST_F(OpenCL, OptionsReachTheCompiler) {
  const BuildResult r =
      buildProgram(*rt_, "#ifndef KERNEL_RADIUS\n#error no radius\n#endif\n__kernel void k() {}", "-D KERNEL_RADIUS=4");
  EXPECT_TRUE(r.ok) << r.log;
}

TEST_F(OpenCL, MissingKernelNamesTheOnesThatExist) {
  const BuildResult r = buildProgram(*rt_, "__kernel void Conv(__global float* a) { a[0] = 1; }", "");
  ASSERT_TRUE(r.ok) << r.log;
  cl::Kernel k;
  std::string err;
  EXPECT_FALSE(findKernel(*rt_, r, "Convolution", &k, &err));
  EXPECT_NE(err.find("'Convolution' not found"), std::string::npos) << err;
  EXPECT_NE(err.find("Conv"), std::string::npos) << err;
}

TEST_F(OpenCL, ReadsBackReqdWorkGroupSize) {
  const BuildResult r =
      buildProgram(*rt_,
                   "__kernel __attribute__((reqd_work_group_size(16, 8, 1))) void a(__global int* x) {}\n"
                   "__kernel void b(__global int* x) {}",
                   "");
  ASSERT_TRUE(r.ok) << r.log;
  cl::Kernel a, b;
  ASSERT_TRUE(findKernel(*rt_, r, "a", &a, nullptr));
  ASSERT_TRUE(findKernel(*rt_, r, "b", &b, nullptr));
  EXPECT_EQ(declaredGroupSize(*rt_, a), (std::array<size_t, 3>{16, 8, 1}));
  EXPECT_EQ(declaredGroupSize(*rt_, b)[0], 0u);
}

// A kernel that writes out of bounds on purpose: the audit must see each kind of stray write
// (the spec asks to verify detection on every platform).
TEST_F(OpenCL, GuardBandsCatchOutOfBoundsWrites) {
  cl::Kernel k;
  ASSERT_NO_FATAL_FAILURE(
      kernelOf("__kernel void stray(__global float* d, int pitch, int height, int mode) {\n"
               "  if (get_global_id(0) != 0) return;\n"
               "  d[0] = 1.0f;\n"
               "  if (mode == 1) d[-1] = 2.0f;\n"
               "  if (mode == 2) d[pitch * (height + 1)] = 2.0f;\n"
               "  if (mode == 3) d[pitch * height] = 2.0f;\n"
               "  if (mode == 4) d[pitch - 1] = 2.0f;\n"
               "}",
               "stray", &k));
  const int width = 20, height = 5, pitch = 32, rows = 6;
  for (int mode = 0; mode <= 4; ++mode) {
    DevicePlane<float> plane(*rt_, width, height, pitch, rows);
    plane.fill(*rt_, -7.0f);
    k.setArg(0, plane.buffer());
    k.setArg(1, pitch);
    k.setArg(2, height);
    k.setArg(3, mode);
    launch1d(*rt_, k, 1, 1);
    WriteAudit audit;
    const std::vector<float> image = plane.download(*rt_, -7.0f, &audit);
    EXPECT_EQ(image[0], 1.0f);
    EXPECT_EQ(audit.guardBefore, mode == 1 ? 1 : 0) << "mode " << mode;
    EXPECT_EQ(audit.guardAfter, mode == 2 ? 1 : 0) << "mode " << mode;
    EXPECT_EQ(audit.belowImage, mode == 3 ? 1 : 0) << "mode " << mode;
    EXPECT_EQ(audit.padding, mode == 4 ? 1 : 0) << "mode " << mode;
    EXPECT_EQ(audit.imageValues, width * height);
    EXPECT_EQ(audit.untouched, width * height - 1);  // only d[0] was written inside the image
    if (mode == 3) {
      EXPECT_EQ(audit.firstRowBelow, height);
    }
  }
}

// A plane of hundreds of record blocks (protocol/block_delta.h): the audit and the image come from
// the blocks the read-back says changed, the input writes from blocks compared with the upload's
// layout made block by block. Both must count what a look at every value of the buffer counts.
TEST_F(OpenCL, AuditsOfLargePlanesCountWhatEveryValueShows) {
  cl::Kernel k;
  ASSERT_NO_FATAL_FAILURE(
      kernelOf("__kernel void scatter(__global float* d, __global const int* at, int n) {\n"
               "  int i = get_global_id(0); if (i < n) d[at[i]] = 100.0f + i; }",
               "scatter", &k));
  const int width = 700, height = 300, pitch = 704, rows = 310;
  std::vector<int> at;
  for (int y = 0; y < 10; ++y)  // rows 0..9 whole, padding left out
    for (int x = 0; x < width; ++x) at.push_back(y * pitch + x);
  for (int y = 10; y < height; y += 7) at.push_back(y * pitch + y % width);  // one pixel of some rows
  for (int x = width; x < pitch; ++x) at.push_back(5 * pitch + x);           // padding of row 5
  at.push_back(305 * pitch + 3);                                             // below the image, rows 305 and 302
  at.push_back(302 * pitch + 700);
  at.push_back(-1);  // the front guard, near and far
  at.push_back(-5000);
  at.push_back(pitch * rows + 3);  // the back guard
  const int n = int(at.size());
  cl::Buffer indices(rt_->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(int) * at.size(), at.data());

  DevicePlane<float> dst(*rt_, width, height, pitch, rows);
  dst.fill(*rt_, -7.0f);
  k.setArg(0, dst.buffer());
  k.setArg(1, indices);
  k.setArg(2, n);
  launch1d(*rt_, k, n, 1);
  WriteAudit audit;
  const std::vector<float> image = dst.download(*rt_, -7.0f, &audit);
  EXPECT_EQ(audit.guardBefore, 2);
  EXPECT_EQ(audit.guardAfter, 1);
  EXPECT_EQ(audit.padding, pitch - width);
  EXPECT_EQ(audit.belowImage, 2);
  EXPECT_EQ(audit.firstRowBelow, 302);
  const long inImage = width * 10 + (height - 10 + 6) / 7;
  EXPECT_EQ(audit.imageValues, long(width) * height);
  EXPECT_EQ(audit.untouched, long(width) * height - inImage);
  std::vector<float> expected(size_t(width) * height, -7.0f);
  for (int i = 0; i < n; ++i)
    if (at[i] >= 0 && at[i] < pitch * height && at[i] % pitch < width)
      expected[size_t(at[i] / pitch) * width + at[i] % pitch] = 100.0f + i;
  EXPECT_EQ(image, expected);

  // The same writes into an input: every one differs from the upload, nothing else changed.
  std::vector<float> data(size_t(width) * height);
  for (size_t i = 0; i < data.size(); ++i) data[i] = float(i % 977) * 0.5f;
  DevicePlane<float> src(*rt_, width, height, pitch, rows);
  src.upload(*rt_, data.data(), 0.0f, NAN, NAN);
  EXPECT_EQ(src.writesSinceUpload(*rt_), 0);
  k.setArg(0, src.buffer());
  launch1d(*rt_, k, n, 1);
  EXPECT_EQ(src.writesSinceUpload(*rt_), n);
}

// The pinned staging of a GPU's transfers (cl/host_staging.h), exercised on the CPU device: PoCL
// maps an ALLOC_HOST_PTR buffer as a GPU's driver does, so the pool's bookkeeping is the same.
TEST_F(OpenCL, PinnedStagingLeasesAreReusedAndBounded) {
  DeviceInfo gpu, cpu, oclgrind;
  gpu.type = oclgrind.type = "gpu";
  cpu.type = "cpu";
  gpu.platform = "NVIDIA CUDA";
  cpu.platform = "Portable Computing Language";
  oclgrind.platform = "Oclgrind";
  EXPECT_TRUE(isHardwareGpu(gpu));
  EXPECT_FALSE(isHardwareGpu(cpu));
  EXPECT_FALSE(isHardwareGpu(oclgrind));
  HostStaging pool(rt_->context, rt_->queue, size_t(3) << 20);
  char* first = nullptr;
  {
    const HostStaging::Lease a = pool.lease(1000);
    ASSERT_NE(a.data(), nullptr);
    first = a.data();
    a.data()[999] = 7;                                               // the whole area is the caller's
    const HostStaging::Lease b = pool.lease((size_t(1) << 20) + 1);  // two MiB: in whole MiB
    ASSERT_NE(b.data(), nullptr);
    EXPECT_NE(b.data(), a.data());
    EXPECT_EQ(pool.pinnedBytes(), size_t(3) << 20);
    EXPECT_EQ(pool.lease(10).data(), nullptr) << "over the bound: the caller's own memory serves";
  }
  {
    const HostStaging::Lease again = pool.lease(500);
    EXPECT_EQ(again.data(), first) << "the smallest free area that holds it, not a new one";
    const HostStaging::Lease bigger = pool.lease(size_t(2) << 20);
    EXPECT_NE(bigger.data(), nullptr);
  }
  EXPECT_EQ(pool.pinnedBytes(), size_t(3) << 20);
}

TEST_F(OpenCL, UploadsAndReadBacksThroughPinnedStagingKeepEveryByte) {
  Runtime pinned = *rt_;
  pinned.staging = std::make_shared<HostStaging>(pinned.context, pinned.queue, size_t(64) << 20);
  GuardedBuffer buffer(pinned, 100000 * sizeof(float), 4096);
  const size_t n = buffer.totalBytes() / sizeof(float);
  std::vector<float> laid(n);
  for (size_t i = 0; i < n; ++i) laid[i] = float(i % 9973) * 0.5f;
  buffer.writeAll<float>(pinned, [&](float* whole) { std::copy(laid.begin(), laid.end(), whole); });
  EXPECT_GT(pinned.staging->pinnedBytes(), 0u);
  EXPECT_EQ(buffer.readAll<float>(pinned, std::vector<float>(n, -1.0f)), laid);
  buffer.fillAll(pinned, 3.0f);
  EXPECT_EQ(buffer.readAll<float>(pinned, laid), std::vector<float>(n, 3.0f));
  EXPECT_EQ(pinned.staging->pinnedBytes(), size_t(1) << 20) << "one area served the upload and both reads";
}

TEST_F(OpenCL, InputPlanesHoldPaddingZeroAndNanBelowTheImage) {
  cl::Kernel k;
  ASSERT_NO_FATAL_FAILURE(
      kernelOf("__kernel void copy(__global float* d, __global const float* s, int n) {\n"
               "  int i = get_global_id(0); if (i < n) d[i] = s[i]; }",
               "copy", &k));
  const int width = 3, height = 2, pitch = 4, rows = 3;
  const float data[6] = {1, 2, 3, 4, 5, 6};
  DevicePlane<float> src(*rt_, width, height, pitch, rows), dst(*rt_, pitch * rows, 1, pitch * rows, 1);
  src.upload(*rt_, data, 0.0f, NAN, NAN);
  dst.fill(*rt_, -1.0f);
  k.setArg(0, dst.buffer());
  k.setArg(1, src.buffer());
  k.setArg(2, pitch * rows);
  launch1d(*rt_, k, pitch * rows, 1);
  const std::vector<float> raw = dst.download(*rt_, -1.0f, nullptr);
  EXPECT_EQ(raw[0], 1.0f);
  EXPECT_EQ(raw[3], 0.0f);          // padding column
  EXPECT_EQ(raw[4], 4.0f);          // row 1 starts at the pitch
  EXPECT_TRUE(std::isnan(raw[8]));  // below the image
}

class Recording : public LaunchObserver {
 public:
  void launched(const Runtime&, const cl::Kernel& kernel, const std::vector<KernelArg>& args,
                const Geometry& geometry) override {
    argCounts.push_back(args.size());
    signatures.push_back(launchSignature(kernel, args, geometry));
  }
  std::vector<size_t> argCounts;
  std::vector<std::string> signatures;
};

// The launches an observer sees (the NVIDIA counters replay them through CUDA): the arguments of each
// kernel as set, and which launches are the same launch but for their buffers' contents.
class LaunchObserverTest : public OpenCL {
 protected:
  void SetUp() override {
    OpenCL::SetUp();
    seen_ = std::make_shared<Recording>();
    rt_->observer = seen_;
    program_ = buildProgram(*rt_,
                            "__kernel void fill(__global float* a, int n, float v) {\n"
                            "  int i = get_global_id(0); if (i < n) a[i] = v; }\n",
                            "");
    ASSERT_TRUE(program_.ok) << program_.log;
    std::string err;
    ASSERT_TRUE(findKernel(*rt_, program_, "fill", &fill_, &err)) << err;
  }
  cl::Buffer buffer(size_t floats) const { return cl::Buffer(rt_->context, CL_MEM_READ_WRITE, floats * sizeof(float)); }
  void run(const cl::Buffer& b, int n, float v, size_t global) {
    setArg(*rt_, fill_, 0, b);
    setArg(*rt_, fill_, 1, n);
    setArg(*rt_, fill_, 2, v);
    launch1d(*rt_, fill_, global, 32);
  }
  std::shared_ptr<Recording> seen_;
  BuildResult program_;
  cl::Kernel fill_;
};

// The driver hands out a released kernel's handle again: its longer argument list must not stay with
// the new kernel (its replay failed on the count, and its launch went uncounted).
TEST_F(LaunchObserverTest, AReleasedKernelsArgumentsDoNotStayWithItsHandle) {
  seen_->args[fill_()] = std::vector<KernelArg>(7, KernelArg::of(1));
  run(buffer(64), 64, 1.0f, 64);
  ASSERT_EQ(seen_->argCounts.size(), 1u);
  EXPECT_EQ(seen_->argCounts[0], 3u);
  EXPECT_EQ(seen_->args[fill_()].size(), 3u);
}

TEST_F(LaunchObserverTest, LaunchesThatDifferOnlyInTheirBuffersContentsAreOneLaunch) {
  const cl::Buffer red = buffer(64), green = buffer(64), larger = buffer(128);
  run(red, 64, 1.0f, 64);
  run(green, 64, 1.0f, 64);   // the next channel: same kernel, geometry and scalars
  run(red, 64, 2.0f, 64);     // another scalar
  run(larger, 64, 1.0f, 64);  // another buffer size
  run(red, 64, 1.0f, 96);     // another geometry
  ASSERT_EQ(seen_->signatures.size(), 5u);
  EXPECT_EQ(seen_->signatures[0], seen_->signatures[1]);
  for (size_t i = 2; i < 5; ++i)
    for (size_t j = 0; j < i; ++j) EXPECT_NE(seen_->signatures[i], seen_->signatures[j]) << i << " " << j;
  EXPECT_EQ(seen_->signatures[0].rfind("fill|", 0), 0u) << seen_->signatures[0];
  // The same kernel from another build of the program is another kernel.
  const BuildResult again = buildProgram(*rt_, "__kernel void fill(__global float* a, int n, float v) { }", "");
  ASSERT_TRUE(again.ok) << again.log;
  ASSERT_TRUE(findKernel(*rt_, again, "fill", &fill_, nullptr));
  run(red, 64, 1.0f, 64);
  EXPECT_NE(seen_->signatures.back(), seen_->signatures[0]);
}

}  // namespace
}  // namespace clgrade
