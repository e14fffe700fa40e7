// Parsing `ncu --csv` output: hand-written rows in ncu's layout, and the error texts it prints.
#include <gtest/gtest.h>

#include "counters/nvidia/ncu_csv.h"
#include "util/files.h"

namespace clgrade {
namespace {

const char* const kHeader =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";

std::string row(int id, const std::string& kernel, const std::string& metric, const std::string& value) {
  return "\"" + std::to_string(id) + "\",\"4242\",\"replay_probe\",\"127.0.0.1\",\"" + kernel +
         "\",\"1\",\"7\",\"(32, 16, 1)\",\"(25, 36, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"" + metric +
         "\",\"\",\"" + value + "\"\n";
}

std::string launch(int id, const std::string& kernel, const std::string& ldc, const std::string& stc,
                   const std::string& ldi, const std::string& sti) {
  return row(id, kernel, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", ldc) +
         row(id, kernel, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", stc) +
         row(id, kernel, "smsp__sass_inst_executed_op_shared_ld.sum", ldi) +
         row(id, kernel, "smsp__sass_inst_executed_op_shared_st.sum", sti);
}

TEST(NcuCsv, SumsMetricsPerKernelOverLaunches) {
  const std::string csv =
      "==PROF== Connected to process 4242 (replay_probe)\n"
      "==PROF== Profiling \"Convolution\" - 0: 0%....50%....100% - 1 pass\n"
      "conv3x3 Convolution: 0 of 460800 words differ after replay\n" +
      std::string(kHeader) + launch(0, "Convolution", "12", "0", "8,100", "1,800") +
      launch(1, "Convolution", "3", "1", "8100", "1800") + launch(2, "ConvHorizontal", "0", "16,384", "100.5", "n/a");
  std::vector<HardwareCounts> counts;
  std::string err;
  ASSERT_TRUE(parseNcuCsv(csv, &counts, &err)) << err;
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts[0].kernel, "Convolution");
  EXPECT_EQ(counts[0].launches, 2);
  EXPECT_DOUBLE_EQ(counts[0].sharedLoadConflicts, 15);
  EXPECT_DOUBLE_EQ(counts[0].sharedStoreConflicts, 1);
  EXPECT_DOUBLE_EQ(counts[0].sharedLoadInstructions, 16200);  // "8,100": ncu groups digits
  EXPECT_DOUBLE_EQ(counts[0].sharedStoreInstructions, 3600);
  EXPECT_EQ(counts[1].kernel, "ConvHorizontal");
  EXPECT_EQ(counts[1].launches, 1);
  EXPECT_DOUBLE_EQ(counts[1].sharedStoreConflicts, 16384);
  EXPECT_DOUBLE_EQ(counts[1].sharedLoadInstructions, 100.5);
  EXPECT_DOUBLE_EQ(counts[1].sharedStoreInstructions, 0);  // "n/a" is no number
}

TEST(NcuCsv, GlobalSectorsAndGroups) {
  const std::string csv =
      std::string(kHeader) + launch(0, "Convolution", "0", "0", "10", "4") +
      row(0, "Convolution", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "1,376") +
      row(0, "Convolution", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "836") +
      row(0, "Convolution", "launch__grid_size", "19") + row(0, "Convolution", "launch__block_dim_x", "128") +
      row(0, "Convolution", "launch__block_dim_y", "2") + launch(1, "Convolution", "0", "0", "10", "4") +
      row(1, "Convolution", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "24") +
      row(1, "Convolution", "launch__grid_size", "1") + launch(2, "Other", "0", "0", "1", "1") +
      row(2, "Other", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "n/a");
  std::vector<HardwareCounts> counts;
  std::string err;
  ASSERT_TRUE(parseNcuCsv(csv, &counts, &err)) << err;
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_DOUBLE_EQ(counts[0].globalLoadSectors, 1400);
  EXPECT_DOUBLE_EQ(counts[0].globalLoadRequests, 836);
  EXPECT_EQ(counts[0].workGroups, 20);
  EXPECT_EQ(counts[0].groupSize[0], 128);
  EXPECT_EQ(counts[0].groupSize[1], 2);
  EXPECT_LT(counts[1].globalLoadSectors, 0);  // "n/a": not counted, not zero
  EXPECT_LT(counts[1].globalLoadRequests, 0);
  EXPECT_EQ(counts[1].workGroups, 0);
  EXPECT_NE(std::string(kNcuSharedMetrics).find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), std::string::npos);
}

TEST(NcuCsv, CapturedOnH200) {
  // ncu 2025.3.1 on an H200: the replay of submissions/halo_bank_conflicts' Convolution, 780 x 575.
  std::string csv, err;
  ASSERT_TRUE(readFile(std::string(NVIDIA_TEST_DATA) + "/ncu_halo_bank_conflicts_h200.csv", &csv, &err)) << err;
  std::vector<HardwareCounts> counts;
  ASSERT_TRUE(parseNcuCsv(csv, &counts, &err)) << err;
  ASSERT_EQ(counts.size(), 1u);
  EXPECT_EQ(counts[0].kernel, "Convolution");
  EXPECT_EQ(counts[0].launches, 1);
  EXPECT_DOUBLE_EQ(counts[0].sharedLoadConflicts, 1467);
  EXPECT_DOUBLE_EQ(counts[0].sharedStoreConflicts, 1800);  // 900 groups x 2 halo-column stores, 2-way
  EXPECT_DOUBLE_EQ(counts[0].sharedLoadInstructions, 129375);
  EXPECT_DOUBLE_EQ(counts[0].sharedStoreInstructions, 18000);
}

TEST(NcuCsv, QuotedCommasInKernelNames) {
  const std::string csv = std::string(kHeader) + launch(0, "k(float*, int)", "1", "2", "3", "4");
  std::vector<HardwareCounts> counts;
  std::string err;
  ASSERT_TRUE(parseNcuCsv(csv, &counts, &err)) << err;
  ASSERT_EQ(counts.size(), 1u);
  EXPECT_EQ(counts[0].kernel, "k(float*, int)");
  EXPECT_DOUBLE_EQ(counts[0].sharedStoreInstructions, 4);
}

TEST(NcuCsv, PermissionErrorIsNamed) {
  const std::string out =
      "==PROF== Connected to process 77 (replay_probe)\n"
      "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on "
      "the target device 0. For instructions on enabling permissions and to get more information see "
      "https://developer.nvidia.com/ERR_NVGPUCTRPERM\n";
  std::vector<HardwareCounts> counts;
  std::string err;
  EXPECT_FALSE(parseNcuCsv(out, &counts, &err));
  EXPECT_NE(err.find("ERR_NVGPUCTRPERM"), std::string::npos) << err;
  EXPECT_NE(err.find("permission"), std::string::npos) << err;
}

TEST(NcuCsv, NoKernelsProfiled) {
  // What ncu printed on the GPU machine for a process that launched only OpenCL kernels.
  std::vector<HardwareCounts> counts;
  std::string err;
  EXPECT_FALSE(parseNcuCsv("build .nv/localarg.cl: 0\n==WARNING== No kernels were profiled.\n", &counts, &err));
  EXPECT_NE(err.find("no kernels"), std::string::npos) << err;
}

TEST(NcuCsv, GarbageHasNoHeader) {
  std::vector<HardwareCounts> counts;
  std::string err;
  EXPECT_FALSE(parseNcuCsv("hello\n\"a\",\"b\"\n", &counts, &err));
  EXPECT_NE(err.find("header"), std::string::npos) << err;
  EXPECT_FALSE(parseNcuCsv(kHeader, &counts, &err));
  EXPECT_NE(err.find("no metric rows"), std::string::npos) << err;
}

// CUPTI's counts (hwcount --counters-csv) are written in ncu's CSV and read by the same parser: what
// is written is what is read, per kernel over its launches, with a quote in a name kept.
TEST(CounterRowsCsv, WhatIsWrittenIsWhatIsRead) {
  const std::vector<std::string> metrics = hardwareCounterMetrics();
  ASSERT_EQ(metrics.size(), 6u);
  EXPECT_EQ(metrics[0], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
  CountedLaunchRow a;
  a.kernel = "conv3x3__Convolution";
  a.groups[0] = 25;
  a.groups[1] = 36;
  a.groupSize[0] = 32;
  a.groupSize[1] = 16;
  a.values = {3, 0, 1200, 400, 98765.5, 4321};
  CountedLaunchRow b = a;
  b.values = {1, 2, 10, 20, 5, 7};
  CountedLaunchRow c;
  c.kernel = "drawn_\"odd\"__K";
  c.values = {0, 0, 0, 0, 0, 0};
  const std::string csv = counterRowsCsv({a, b, c}, "counted by a test");
  EXPECT_EQ(csv.rfind("==PROF== counted by a test\n", 0), 0u) << csv;
  std::vector<HardwareCounts> counts;
  std::string err;
  ASSERT_TRUE(parseNcuCsv(csv, &counts, &err)) << err << "\n" << csv;
  ASSERT_EQ(counts.size(), 2u);
  const HardwareCounts& k = counts[0];
  EXPECT_EQ(k.kernel, "conv3x3__Convolution");
  EXPECT_EQ(k.launches, 2);
  EXPECT_DOUBLE_EQ(k.sharedLoadConflicts, 4);
  EXPECT_DOUBLE_EQ(k.sharedStoreConflicts, 2);
  EXPECT_DOUBLE_EQ(k.sharedLoadInstructions, 1210);
  EXPECT_DOUBLE_EQ(k.sharedStoreInstructions, 420);
  EXPECT_DOUBLE_EQ(k.globalLoadSectors, 98770.5);
  EXPECT_DOUBLE_EQ(k.globalLoadRequests, 4328);
  EXPECT_EQ(k.workGroups, 2 * 25 * 36);
  EXPECT_EQ(k.groupSize[0], 32);
  EXPECT_EQ(k.groupSize[1], 16);
  EXPECT_EQ(counts[1].kernel, "drawn_\"odd\"__K");
  EXPECT_EQ(counts[1].workGroups, 1);
}

}  // namespace
}  // namespace clgrade
