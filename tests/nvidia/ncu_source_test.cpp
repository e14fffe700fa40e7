// Reading ncu's source page (atomics per SASS instruction, counted per work-item) and raw page
// (launch__grid_size): samples captured with ncu 2025.3.1 on an H100, trimmed to whole rows, and
// hand-written rows in ncu's layout for what the samples lack.
#include <gtest/gtest.h>

#include "counters/nvidia/ncu_source.h"
#include "util/files.h"

namespace clgrade {
namespace {

std::string sample(const std::string& name) {
  std::string text, err;
  EXPECT_TRUE(readFile(std::string(NVIDIA_TEST_DATA) + "/" + name, &text, &err)) << err;
  return text;
}

const AtomicCounts* find(const std::vector<AtomicCounts>& counts, const std::string& kernel) {
  for (const AtomicCounts& c : counts)
    if (c.kernel == kernel) return &c;
  return nullptr;
}

// A block of the source page with the columns the parser reads, in ncu's quoting.
const char* const kBlockHeader =
    "\"Address\",\"Source\",\"Instructions Executed\",\"Thread Instructions Executed\","
    "\"Predicated-On Thread Instructions Executed\",\"Address Space\",\"Access Operation\"\n";

std::string instruction(const std::string& address, const std::string& source, const std::string& threads,
                        const std::string& space) {
  return "\"" + address + "\",\"" + source + "\",\"8\",\"256\",\"" + threads + "\",\"" + space + "\",\"-\"\n";
}

std::string block(const std::string& kernel, const std::string& rows) {
  return "\"Kernel Name\",\"" + kernel + "\",\n" + kBlockHeader + rows;
}

TEST(NcuSource, CapturedBothHistogramKernelsOnH100) {
  // Page source of a run without -k: each kernel's block printed twice, with its own columns.
  std::vector<AtomicCounts> counts;
  std::string err;
  ASSERT_TRUE(parseNcuSourceAtomics(sample("ncu_histogram_source_h100.csv"), &counts, &err)) << err;
  ASSERT_EQ(counts.size(), 2u);
  const AtomicCounts* global = find(counts, "compute_histogram");
  const AtomicCounts* local = find(counts, "compute_histogram_local_memory");
  ASSERT_TRUE(global && local);
  EXPECT_EQ(global->blocks, 1);  // the repeat counts once
  EXPECT_DOUBLE_EQ(global->sharedAtomics, 0);
  EXPECT_DOUBLE_EQ(global->globalAtomics, 3072);  // one REDG per work-item
  EXPECT_EQ(global->globalInstructions, 1);
  EXPECT_EQ(local->blocks, 1);
  EXPECT_DOUBLE_EQ(local->sharedAtomics, 3072);  // 4 ATOMS x 768 work-items
  EXPECT_EQ(local->sharedInstructions, 4);
  EXPECT_DOUBLE_EQ(local->globalAtomics, 104);  // one REDG, by the 104 work-items with a non-empty bin
  EXPECT_EQ(local->globalInstructions, 1);
}

TEST(NcuSource, CapturedLocalKernelOnly) {
  // What clgrade's run gives: -k on the local kernel, -c 1.
  std::vector<AtomicCounts> counts;
  std::string err;
  ASSERT_TRUE(parseNcuSourceAtomics(sample("ncu_histogram_local_source_h100.csv"), &counts, &err)) << err;
  ASSERT_EQ(counts.size(), 1u);
  EXPECT_EQ(counts[0].kernel, "compute_histogram_local_memory");
  EXPECT_EQ(counts[0].blocks, 1);
  EXPECT_DOUBLE_EQ(counts[0].sharedAtomics, 3072);
  EXPECT_DOUBLE_EQ(counts[0].globalAtomics, 104);
}

TEST(NcuSource, CapturedLaunchPage) {
  std::vector<NcuLaunch> launches;
  std::string err;
  ASSERT_TRUE(parseNcuLaunches(sample("ncu_histogram_launch_h100.csv"), &launches, &err)) << err;
  ASSERT_EQ(launches.size(), 2u);  // the units row is no launch
  EXPECT_EQ(launches[0].kernel, "compute_histogram");
  EXPECT_EQ(launches[0].id, "0");
  EXPECT_EQ(launches[0].gridSize, 12);
  EXPECT_EQ(launches[1].kernel, "compute_histogram_local_memory");
  EXPECT_EQ(launches[1].gridSize, 12);  // (4, 3, 1) work-groups
}

TEST(NcuSource, RepeatedBlockCountsOnceDistinctBlocksAdd) {
  const std::string first =
      block("k", instruction("0x10", "      ATOMS.ADD RZ, [R2], R3", "1,024", "Shared") +
                     instruction("0x20", "      REDG.E.ADD.STRONG.GPU desc[UR4][R4.64], R9", "64", "Global"));
  const std::string second = block("k", instruction("0x10", "      ATOMS.ADD RZ, [R2], R3", "512", "Shared"));
  std::vector<AtomicCounts> counts;
  std::string err;
  ASSERT_TRUE(parseNcuSourceAtomics("==PROF== noise\n" + first + first + second + second + first, &counts, &err))
      << err;
  ASSERT_EQ(counts.size(), 1u);
  EXPECT_EQ(counts[0].blocks, 2);
  EXPECT_DOUBLE_EQ(counts[0].sharedAtomics, 1536);  // "1,024": ncu groups digits
  EXPECT_DOUBLE_EQ(counts[0].globalAtomics, 64);
  EXPECT_EQ(counts[0].sharedInstructions, 2);
}

TEST(NcuSource, PredicatedAndGenericAtomics) {
  EXPECT_EQ(classifyAtomic("@P0   ATOMS.POPC.INC.32 RZ, [R9+URZ]", "Shared"), AtomicSpace::Shared);
  EXPECT_EQ(classifyAtomic("@!P1  REDG.E.ADD.STRONG.GPU desc[UR4][R6.64], R9", "Global"), AtomicSpace::Global);
  EXPECT_EQ(classifyAtomic("      ATOMG.E.ADD.STRONG.GPU PT, R2, desc[UR4][R2.64], R5", "Global"), AtomicSpace::Global);
  EXPECT_EQ(classifyAtomic("      ATOM.E.ADD.STRONG.GPU PT, R2, [R2.64], R5", "Global"), AtomicSpace::Global);
  EXPECT_EQ(classifyAtomic("      ATOM.E.ADD.STRONG.GPU PT, R2, [R2.64], R5", "Shared"), AtomicSpace::Shared);
  EXPECT_EQ(classifyAtomic("@P2   RED.E.ADD.STRONG.GPU [R2.64], R5", "Global"), AtomicSpace::Global);
  EXPECT_EQ(classifyAtomic("      REDUX.SUM UR4, R2", "-"), AtomicSpace::None);  // a warp reduction
  EXPECT_EQ(classifyAtomic("      LDS R9, [R4]", "Shared"), AtomicSpace::None);
  EXPECT_EQ(classifyAtomic("@P0   EXIT", "-"), AtomicSpace::None);
  EXPECT_EQ(classifyAtomic("@P0", "-"), AtomicSpace::None);
  EXPECT_EQ(classifyAtomic("", "-"), AtomicSpace::None);

  const std::string csv =
      block("k", instruction("0x10", "@P0   ATOMS.ADD RZ, [R2], R3", "200", "Shared") +
                     instruction("0x20", "@!P1  REDG.E.ADD.STRONG.GPU desc[UR4][R4.64], R9", "30", "Global") +
                     instruction("0x30", "@P1   BRA 0x40", "256", "-"));
  std::vector<AtomicCounts> counts;
  std::string err;
  ASSERT_TRUE(parseNcuSourceAtomics(csv, &counts, &err)) << err;
  ASSERT_EQ(counts.size(), 1u);
  EXPECT_DOUBLE_EQ(counts[0].sharedAtomics, 200);
  EXPECT_DOUBLE_EQ(counts[0].globalAtomics, 30);
}

TEST(NcuSource, PermissionErrorNoKernelsAndEmptyOutput) {
  const std::string denied =
      "==PROF== Connected to process 77 (clgrade)\n"
      "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on "
      "the target device 0. For instructions on enabling permissions and to get more information see "
      "https://developer.nvidia.com/ERR_NVGPUCTRPERM\n";
  std::vector<AtomicCounts> counts;
  std::vector<NcuLaunch> launches;
  std::string err;
  EXPECT_FALSE(parseNcuSourceAtomics(denied, &counts, &err));
  EXPECT_NE(err.find("ERR_NVGPUCTRPERM"), std::string::npos) << err;
  EXPECT_NE(err.find("permission"), std::string::npos) << err;
  EXPECT_FALSE(parseNcuLaunches(denied, &launches, &err));
  EXPECT_NE(err.find("ERR_NVGPUCTRPERM"), std::string::npos) << err;

  const std::string none = "==WARNING== No kernels were profiled.\n";
  EXPECT_FALSE(parseNcuSourceAtomics(none, &counts, &err));
  EXPECT_NE(err.find("no kernels"), std::string::npos) << err;
  EXPECT_FALSE(parseNcuLaunches(none, &launches, &err));
  EXPECT_NE(err.find("no kernels"), std::string::npos) << err;

  EXPECT_FALSE(parseNcuSourceAtomics("", &counts, &err));
  EXPECT_NE(err.find("no ncu source page"), std::string::npos) << err;
  EXPECT_FALSE(parseNcuLaunches("", &launches, &err));
  EXPECT_NE(err.find("launch__grid_size"), std::string::npos) << err;
}

TEST(NcuSource, MalformedPages) {
  std::vector<AtomicCounts> counts;
  std::string err;
  // A block without the SourceCounters columns (profiled without the section).
  EXPECT_FALSE(
      parseNcuSourceAtomics("\"Kernel Name\",\"k\",\n\"Address\",\"Source\"\n\"0x10\",\"EXIT\"\n", &counts, &err));
  EXPECT_NE(err.find("Predicated-On Thread Instructions Executed"), std::string::npos) << err;
  EXPECT_FALSE(parseNcuSourceAtomics("\"Kernel Name\",\"k\",\n", &counts, &err));
  // An empty kernel body (the template's): ncu prints no "Address Space" column; no atomics, one block.
  counts.clear();
  ASSERT_TRUE(
      parseNcuSourceAtomics("\"Kernel Name\",\"compute_histogram_local_memory\",\n"
                            "\"Address\",\"Source\",\"Instructions Executed\",\"Thread Instructions Executed\","
                            "\"Predicated-On Thread Instructions Executed\",\"L1 Conflicts Shared N-Way\"\n"
                            "\"0x7fc6377ad700\",\"      LDC R1, c[0x0][0x28]\",\"96\",\"3072\",\"3072\",\"0\"\n"
                            "\"0x7fc6377ad710\",\"      EXIT\",\"96\",\"3072\",\"3072\",\"0\"\n",
                            &counts, &err))
      << err;
  ASSERT_EQ(counts.size(), 1u);
  EXPECT_EQ(counts[0].blocks, 1);
  EXPECT_DOUBLE_EQ(counts[0].sharedAtomics, 0);
  EXPECT_DOUBLE_EQ(counts[0].globalAtomics, 0);
  EXPECT_NE(err.find("no instruction header"), std::string::npos) << err;
  // The raw page's header and units row but no launch.
  std::vector<NcuLaunch> launches;
  const std::string raw = sample("ncu_histogram_launch_h100.csv");
  EXPECT_FALSE(parseNcuLaunches(raw.substr(0, raw.find("\"0\",")), &launches, &err));
  EXPECT_NE(err.find("no launches"), std::string::npos) << err;
}

}  // namespace
}  // namespace clgrade
