// The PTX counters on an NVIDIA GPU (skipped elsewhere): kernels with known access patterns,
// launched in OpenCL and replayed through CUDA with a counted copy, counted as the simulator's bank
// model and the profiler's sector metric say. What the hardware runs is what this checks: that the
// warp-wide instructions see the lanes as the model does (a divergent branch included).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "cl/device.h"
#include "cl/kernel_args.h"
#include "cl/launch.h"
#include "cl/program.h"
#include "counters/nvidia/ncu_csv.h"
#include "counters/nvidia/replay.h"

namespace clgrade {
namespace {

// Two work-groups of 64 (four warps). Each kernel stores into a tile, reads it back and writes out.
const char* const kSource = R"(
__kernel void stride1(__global float* out, __global const float* in) {
  __local float tile[2048];
  const int l = get_local_id(0), g = get_global_id(0);
  tile[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tile[63 - l];
}
__kernel void stride2(__global float* out, __global const float* in) {
  __local float tile[2048];
  const int l = get_local_id(0), g = get_global_id(0);
  tile[2 * l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tile[2 * l];
}
__kernel void stride32(__global float* out, __global const float* in) {
  __local float tile[2048];
  const int l = get_local_id(0), g = get_global_id(0);
  tile[32 * (l % 32) + l / 32] = in[8 * g];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tile[0];
}
__kernel void float4s(__global float* out, __global const float4* in) {
  __local float4 tile[64];
  const int l = get_local_id(0), g = get_global_id(0);
  tile[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  const float4 v = tile[l ^ 1];
  out[g] = v.x + v.y + v.z + v.w;
}
__kernel void vload4s(__global float* out, __global const float* in) {
  const int g = get_global_id(0);
  const float4 v = vload4(g, in);
  out[g] = v.x + v.y + v.z + v.w;
}
__kernel void vload4s_unaligned(__global float* out, __global const float* in) {
  const int g = get_global_id(0);
  const float4 v = vload4(0, in + 4 * g + 1);
  out[g] = v.x + v.y + v.z + v.w;
}
__kernel void divergent(__global float* out, __global const float* in) {
  __local float tile[2048];
  const int l = get_local_id(0), g = get_global_id(0);
  if (l % 32 < 8) tile[32 * (l % 32)] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = l % 32 < 8 ? tile[32 * (l % 32)] : 0.0f;
}
)";

struct Expected {
  double storeInstructions, storeConflicts, loadInstructions, loadConflicts, requests, sectors;
};

/// An NVIDIA GPU's OpenCL device and the CUDA driver's replay; the test is skipped without them.
class PtxAccessesOnTheGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    if (!chooseDevice("gpu", &device, &err) || device.info.platform.find("NVIDIA") == std::string::npos)
      GTEST_SKIP() << "no NVIDIA GPU here";
    replay = PtxReplay::open(&err);
    if (!replay) GTEST_SKIP() << "no CUDA driver here: " << err;
  }
  DeviceEntry device;
  std::unique_ptr<PtxReplay> replay;
};

TEST_F(PtxAccessesOnTheGpu, KnownPatternsAreCountedAsTheModelSays) {
  std::string err;
  const Runtime rt(device);
  const BuildResult build = buildProgram(rt, kSource, "");
  ASSERT_TRUE(build.ok) << build.error << build.log;
  std::vector<float> host(4 * 128 * 8, 1.0f);
  cl::Buffer in(rt.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * 4, host.data());
  std::vector<float> unset(128, -1.0f);
  cl::Buffer out(rt.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, unset.size() * 4, unset.data());
  for (const bool copiesOnly : {false, true}) {
    SCOPED_TRACE(copiesOnly ? "the counted copies only" : "with the launches replayed");
    replay->setReplayLaunches(!copiesOnly);
    replay->countAccessesOf([](const std::string&) { return true; });
    // Per kernel, for its 4 warps: each runs each of its counted instructions once.
    const std::map<std::string, Expected> expected{
        {"stride1", {4, 0, 4, 0, 4, 16}},           // 32 consecutive floats: 4 sectors a request
        {"stride2", {4, 4, 4, 4, 4, 16}},           // two words in each bank: 2 wavefronts, 1 conflict
        {"stride32", {4, 4 * 31, 4, 0, 4, 128}},    // one bank for all 32 lanes; a broadcast; 32 sectors
        {"float4s", {4, 0, 4, 0, 4, 64}},           // 128 words in 4 wavefronts: none beyond
        {"divergent", {4, 4 * 7, 4, 4 * 7, 4, 4}},  // 8 lanes in one bank; their global reads: 1 sector
        // 16 aligned bytes a lane: one request of 16 sectors, however the compiler wrote the load.
        {"vload4s", {0, 0, 0, 0, 4, 64}},
        // 16 bytes 4 past alignment: where split, four requests, the last over 17 sectors.
        {"vload4s_unaligned", {0, 0, 0, 0, 16, 4 * 65}},
    };
    for (const auto& [name, want] : expected) {
      cl::Kernel kernel;
      ASSERT_TRUE(findKernel(rt, build, name, &kernel, &err)) << err;
      const std::vector<RecordedArg> args{RecordedArg::ofBuffer(out), RecordedArg::ofBuffer(in)};
      Geometry geometry;
      geometry.global = {128, 1};
      geometry.local = {64, 1};
      ASSERT_TRUE(replay->replay(rt, kernel, args, geometry, &err)) << name << ": " << err;
    }
    ASSERT_EQ(replay->accessError(), "");
    const std::vector<std::string> metrics = hardwareCounterMetrics();
    auto value = [&](const CountedLaunch& l, const std::string& metric) {
      return l.values[std::find(metrics.begin(), metrics.end(), metric) - metrics.begin()];
    };
    ASSERT_EQ(replay->accessLaunches().size(), expected.size()) << replay->accessSitesText();
    for (const CountedLaunch& l : replay->accessLaunches()) {
      const Expected& want = expected.at(l.kernel);
      SCOPED_TRACE(l.kernel + "\n" + replay->accessSitesText());
      EXPECT_EQ(value(l, "smsp__sass_inst_executed_op_shared_st.sum"), want.storeInstructions);
      EXPECT_EQ(value(l, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), want.storeConflicts);
      EXPECT_EQ(value(l, "smsp__sass_inst_executed_op_shared_ld.sum"), want.loadInstructions);
      EXPECT_EQ(value(l, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), want.loadConflicts);
      EXPECT_EQ(value(l, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), want.requests);
      EXPECT_EQ(value(l, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), want.sectors);
      EXPECT_EQ(l.grid[0], 2u);
      EXPECT_EQ(l.block[0], 64u);
    }
    // Nothing ran in OpenCL here: the output (vload4s_unaligned's, the last: four ones, a 4) is the
    // replay's, written back, and with the counted copies only, the counted copy's.
    std::vector<float> written(128);
    rt.queue.enqueueReadBuffer(out, CL_TRUE, 0, written.size() * 4, written.data());
    EXPECT_EQ(std::count(written.begin(), written.end(), 4.0f), 128);
    rt.queue.enqueueWriteBuffer(out, CL_TRUE, 0, unset.size() * 4, unset.data());
  }
}

// A kernel that calls printf: NVIDIA's OpenCL PTX names vprintf as a bare prototype, on which the CUDA
// driver crashed until patchPtx declared it `.extern`. Replayed and counted like any other.
TEST_F(PtxAccessesOnTheGpu, AKernelThatPrintsIsReplayedAndCounted) {
  std::string err;
  const Runtime rt(device);
  const BuildResult build = buildProgram(rt, R"(
__kernel void prints(__global float* out, __global const float* in) {
  __local float tile[64];
  const int l = get_local_id(0), g = get_global_id(0);
  tile[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (g == 0) printf("clgrade's replay test: %f\n", tile[0]);
  out[g] = tile[63 - l];
})",
                                         "");
  ASSERT_TRUE(build.ok) << build.error << build.log;
  std::vector<float> host(128);
  for (size_t i = 0; i < host.size(); ++i) host[i] = float(i);
  cl::Buffer in(rt.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * 4, host.data());
  std::vector<float> unset(128, -1.0f);
  cl::Buffer out(rt.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, unset.size() * 4, unset.data());
  replay->setReplayLaunches(true);
  replay->countAccessesOf([](const std::string&) { return true; });
  cl::Kernel kernel;
  ASSERT_TRUE(findKernel(rt, build, "prints", &kernel, &err)) << err;
  Geometry geometry;
  geometry.global = {128, 1};
  geometry.local = {64, 1};
  ASSERT_TRUE(replay->replay(rt, kernel, {RecordedArg::ofBuffer(out), RecordedArg::ofBuffer(in)}, geometry, &err))
      << err;
  ASSERT_EQ(replay->accessError(), "");
  ASSERT_EQ(replay->accessLaunches().size(), 1u) << replay->accessSitesText();
  const std::vector<std::string> metrics = hardwareCounterMetrics();
  const CountedLaunch& l = replay->accessLaunches()[0];
  auto value = [&](const std::string& metric) {
    return l.values[std::find(metrics.begin(), metrics.end(), metric) - metrics.begin()];
  };
  EXPECT_EQ(value("smsp__sass_inst_executed_op_shared_st.sum"), 4);
  EXPECT_EQ(value("smsp__sass_inst_executed_op_shared_ld.sum"), 4 + 1) << "the tiles' and the printed word's";
  EXPECT_EQ(value("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 4);
  // The replay's output, written back: each group's tile reversed.
  std::vector<float> written(128);
  rt.queue.enqueueReadBuffer(out, CL_TRUE, 0, written.size() * 4, written.data());
  for (size_t i = 0; i < written.size(); ++i) EXPECT_EQ(written[i], float(i / 64 * 64 + 63 - i % 64)) << i;
}

// Counted copies are JIT-compiled quickly; a launch of larger blocks than such a copy has registers
// for is counted by the same PTX at the default level (PtxReplay::fitFor). Blocks of 64 and of 1024
// threads, the most a block may have, of one program are counted as the model says either way.
TEST_F(PtxAccessesOnTheGpu, BlocksOfEverySizeAreCounted) {
  std::string err;
  const Runtime rt(device);
  const BuildResult build = buildProgram(rt, kSource, "");
  ASSERT_TRUE(build.ok) << build.error << build.log;
  std::vector<float> host(2048, 1.0f);
  cl::Buffer in(rt.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * 4, host.data());
  std::vector<float> unset(2048, -1.0f);
  cl::Buffer out(rt.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, unset.size() * 4, unset.data());
  replay->setReplayLaunches(false);
  replay->countAccessesOf([](const std::string&) { return true; });
  cl::Kernel kernel;
  ASSERT_TRUE(findKernel(rt, build, "stride2", &kernel, &err)) << err;
  for (const size_t local : {size_t(64), size_t(1024)}) {
    Geometry geometry;
    geometry.global = {2 * local, 1};
    geometry.local = {local, 1};
    ASSERT_TRUE(replay->replay(rt, kernel, {RecordedArg::ofBuffer(out), RecordedArg::ofBuffer(in)}, geometry, &err))
        << local << ": " << err;
  }
  ASSERT_EQ(replay->accessError(), "");
  ASSERT_EQ(replay->accessLaunches().size(), 2u) << replay->accessSitesText();
  const std::vector<std::string> metrics = hardwareCounterMetrics();
  for (const CountedLaunch& l : replay->accessLaunches()) {
    const double warps = 2.0 * l.block[0] / 32;  // two groups; each warp one store, one load, one request
    SCOPED_TRACE("blocks of " + std::to_string(l.block[0]));
    auto value = [&](const std::string& metric) {
      return l.values[std::find(metrics.begin(), metrics.end(), metric) - metrics.begin()];
    };
    EXPECT_EQ(value("smsp__sass_inst_executed_op_shared_st.sum"), warps);
    EXPECT_EQ(value("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), warps);  // two words a bank
    EXPECT_EQ(value("smsp__sass_inst_executed_op_shared_ld.sum"), warps);
    EXPECT_EQ(value("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), warps);
    EXPECT_EQ(value("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), warps);
    EXPECT_EQ(value("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 4 * warps);
    EXPECT_EQ(l.grid[0], 2u);
  }
  EXPECT_EQ(replay->accessLaunches()[1].block[0], 1024u);
}

}  // namespace
}  // namespace clgrade
