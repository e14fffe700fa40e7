// The launches an observer sees (the NVIDIA counters replay them through CUDA): the arguments of each
// kernel as set, and which launches are the same launch but for their buffers' contents.
#include <gtest/gtest.h>

#include "cl/kernel_args.h"
#include "cl/launch.h"
#include "cl/launch_signature.h"
#include "cl/program.h"
#include "../test_env.h"

namespace clgrade {
namespace {

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

class LaunchObserverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    DeviceEntry entry;
    ASSERT_TRUE(chooseDevice(test::deviceSpec(), &entry, &err)) << err;
    rt_ = std::make_unique<Runtime>(entry);
    seen_ = std::make_shared<Recording>();
    rt_->observer = seen_;
    program_ = buildProgram(*rt_,
                            "__kernel void fill(__global float* a, int n, float v) {\n"
                            "  int i = get_global_id(0); if (i < n) a[i] = v; }\n",
                            "");
    ASSERT_TRUE(program_.ok) << program_.log;
    ASSERT_TRUE(findKernel(*rt_, program_, "fill", &fill_, &err)) << err;
  }
  cl::Buffer buffer(size_t floats) const { return cl::Buffer(rt_->context, CL_MEM_READ_WRITE, floats * sizeof(float)); }
  void run(const cl::Buffer& b, int n, float v, size_t global) {
    setArg(*rt_, fill_, 0, b);
    setArg(*rt_, fill_, 1, n);
    setArg(*rt_, fill_, 2, v);
    launch1d(*rt_, fill_, global, 32);
  }
  std::unique_ptr<Runtime> rt_;
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
