// The histogram's local_atomics check judged from hardware atomics: the counts ncu gives (parsed
// from the captured H100 pages) go through the task's own simulated rule, not a second copy of it.
#include <gtest/gtest.h>

#include "grading/hardware.h"
#include "tasks/task.h"
#include "tasks/technique.h"
#include "util/files.h"

namespace clgrade {
namespace {

const char* const kDevice = "NVIDIA H100 80GB HBM3";
const char* const kKernel = "compute_histogram_local_memory";

CaseSpec analysisCase(const std::string& bins = "64") {
  CaseSpec spec;
  spec.id = "analysis";
  spec.params = {{"input", "photo"}, {"width", "64"}, {"height", "48"}, {"bins", bins}};
  return spec;
}

/// An outcome as the simulator leaves it without Oclgrind.
CaseOutcome notSimulated() {
  CaseOutcome o;
  o.caseId = "analysis (analysis at 64x48)";
  o.status = Status::NotMeasured;
  o.message = "the simulated counters need Oclgrind and clgrade's plugin";
  return o;
}

AtomicsRun ran(double local, double global, long groups) {
  AtomicsRun run;
  run.outcome = HardwareRun::Outcome::Ran;
  run.kernel = kKernel;
  run.counts.kernel = kKernel;
  run.counts.blocks = 1;
  run.counts.sharedAtomics = local;
  run.counts.globalAtomics = global;
  run.workGroups = groups;
  run.sourcePath = "evidence/histogram/atomics_source.csv";
  run.launchPath = "evidence/histogram/atomics_launch.csv";
  return run;
}

CaseOutcome judge(const AtomicsRun& run, const CaseSpec& spec = analysisCase()) {
  const Task* task = findTask("histogram");
  EXPECT_NE(task, nullptr);
  CaseOutcome o = notSimulated();
  judgeAtomicsFromHardware(*task, "local_atomics", spec, run, kDevice, &o);
  return o;
}

bool hasDetail(const CaseOutcome& o, const std::string& text) {
  for (const std::string& d : o.details)
    if (d.find(text) != std::string::npos) return true;
  return false;
}

TEST(HardwareRule, CapturedReferenceCountsPass) {
  std::string source, raw, err;
  ASSERT_TRUE(readFile(std::string(NVIDIA_TEST_DATA) + "/ncu_histogram_local_source_h100.csv", &source, &err)) << err;
  ASSERT_TRUE(readFile(std::string(NVIDIA_TEST_DATA) + "/ncu_histogram_launch_h100.csv", &raw, &err)) << err;
  std::vector<AtomicCounts> counts;
  std::vector<NcuLaunch> launches;
  ASSERT_TRUE(parseNcuSourceAtomics(source, &counts, &err)) << err;
  ASSERT_TRUE(parseNcuLaunches(raw, &launches, &err)) << err;
  AtomicsRun run = ran(0, 0, 0);
  run.counts = counts.at(0);
  run.workGroups = launches.at(1).gridSize;
  ASSERT_EQ(launches.at(1).kernel, kKernel);

  const CaseOutcome o = judge(run);
  EXPECT_EQ(o.status, Status::Passed) << o.message;
  EXPECT_NE(o.message.find("3072 local atomics, 104 global atomics for 12 work-groups"), std::string::npos)
      << o.message;
  EXPECT_NE(o.message.find(std::string("ncu on ") + kDevice), std::string::npos) << o.message;
  EXPECT_TRUE(hasDetail(o, "hardware (ncu, NVIDIA H100 80GB HBM3): compute_histogram_local_memory: 3072 local atomics "
                           "and 104 global atomics by work-items, 12 work-groups"));
  EXPECT_FALSE(hasDetail(o, "simulated in Oclgrind"));
  EXPECT_TRUE(hasDetail(o, "Oclgrind"));  // why it was not simulated
  ASSERT_GE(o.evidence.size(), 2u);
  EXPECT_EQ(o.evidence[0].path, "evidence/histogram/atomics_source.csv");
  EXPECT_EQ(o.evidence[0].label, "hardware atomics per SASS instruction (ncu source page)");
}

TEST(HardwareRule, SameRuleAsTheSimulator) {
  // Each count judged from the hardware and, as simulated counts, by the simulated rule: the same verdict.
  struct Counts {
    double local, global;
    long groups;
    Status expected;
  };
  for (const Counts& c : {Counts{3072, 104, 12, Status::Passed}, Counts{3072, 12 * 64, 12, Status::Passed},
                          Counts{3072, 12 * 64 + 1, 12, Status::Failed}, Counts{3072, 3072, 12, Status::Failed},
                          Counts{0, 104, 12, Status::Failed}}) {
    const CaseOutcome hardware = judge(ran(c.local, c.global, c.groups));
    CounterReport simulated;
    KernelCounters k;
    k.name = kKernel;
    k.workGroups = c.groups;
    k.local.atomics = static_cast<long>(c.local);
    k.global.atomics = static_cast<long>(c.global);
    simulated.kernels = {k};
    CaseOutcome o;
    judgeLocalHistogram(simulated, kKernel, HistogramShape{64, 3072, 12}, &o);
    EXPECT_EQ(hardware.status, c.expected) << hardware.message;
    EXPECT_EQ(o.status, c.expected) << o.message;
    EXPECT_EQ(hardware.message.substr(0, o.message.size()), o.message);
  }
  EXPECT_NE(judge(ran(0, 104, 12)).message.find("no local atomics"), std::string::npos);
  EXPECT_NE(judge(ran(3072, 3072, 12)).message.find("more than one per bin"), std::string::npos);
}

TEST(HardwareRule, BinsComeFromTheAnalysisCase) {
  EXPECT_EQ(judge(ran(3072, 104, 12), analysisCase("16")).status, Status::Passed);  // 104 <= 12 x 16
  EXPECT_EQ(judge(ran(3072, 104, 12), analysisCase("8")).status, Status::Failed);   // 104 > 12 x 8
}

TEST(HardwareRule, NoRunStaysNotMeasured) {
  AtomicsRun run;
  run.outcome = HardwareRun::Outcome::Unavailable;
  run.message = "ncu has no permission to read the GPU's performance counters (ERR_NVGPUCTRPERM)";
  run.logPath = "evidence/histogram/atomics.log";
  const CaseOutcome o = judge(run);
  EXPECT_EQ(o.status, Status::NotMeasured);
  EXPECT_TRUE(hasDetail(o, "ERR_NVGPUCTRPERM"));
  run.outcome = HardwareRun::Outcome::Failed;
  run.message = "ncu profiled no launch of compute_histogram_local_memory";
  const CaseOutcome failed = judge(run);
  EXPECT_EQ(failed.status, Status::NotMeasured);
  EXPECT_TRUE(hasDetail(failed, "ncu profiled no launch"));
}

TEST(HardwareRule, ReportRowOnlyForARun) {
  EXPECT_TRUE(hardwareAtomicsRows(AtomicsRun{}, kDevice).empty());
  const std::vector<CounterRow> rows = hardwareAtomicsRows(ran(3072, 104, 12), kDevice);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].kernel, kKernel);
  EXPECT_NE(rows[0].provider.find(kDevice), std::string::npos);
}

// The discontinuity technique: the hardware's shared load counts through bilateral's own rule.
TEST(HardwareRule, SharedLoadsDecideTheDiscontinuityRuleOfTheTask) {
  const Task* task = findTask("bilateral");
  ASSERT_NE(task, nullptr);
  HardwareRun run;
  run.outcome = HardwareRun::Outcome::Ran;
  run.counts = {{"DiscontinuityHorizontal", 1, 0, 0, 40, 24}, {"DiscontinuityVertical", 1, 0, 0, 0, 0}};
  CaseOutcome o = notSimulated();
  task->judgeSimulation("discontinuity_local_memory", hardwareAccessReport(run, kDevice), CaseSpec{}, &o);
  EXPECT_EQ(o.status, Status::Failed);
  EXPECT_NE(o.message.find("DiscontinuityVertical read no local memory"), std::string::npos) << o.message;
  EXPECT_TRUE(hasDetail(o, "hardware (ncu, NVIDIA H100 80GB HBM3): DiscontinuityHorizontal: 40 shared load and 24 "
                           "shared store warp instructions"));
  run.counts[1].sharedLoadInstructions = 12;
  o = notSimulated();
  task->judgeSimulation("discontinuity_local_memory", hardwareAccessReport(run, kDevice), CaseSpec{}, &o);
  EXPECT_EQ(o.status, Status::Passed) << o.message;
}

}  // namespace
}  // namespace clgrade
