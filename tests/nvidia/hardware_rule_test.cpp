// The histogram's local_atomics check judged from hardware atomics: the counts the profiler session's
// counted replay gives (read from its record) go through the task's own simulated rule, not a second
// copy of it.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>

#include <gtest/gtest.h>

#include "cl/device.h"
#include "grading/drawn_analysis.h"
#include "grading/hardware.h"
#include "protocol/tape.h"
#include "rubric/rubric.h"
#include "tasks/task.h"
#include "tasks/technique.h"
#include "util/files.h"

namespace clgrade {
namespace {

const char* const kDevice = "NVIDIA H100 80GB HBM3";
const char* const kKernel = "compute_histogram_local_memory";

CaseSpec analysisCase(const std::string& bins = "64", const std::string& width = "64", const std::string& height = "48") {
  CaseSpec spec;
  spec.id = "analysis";
  spec.params = {{"input", "photo"}, {"width", width}, {"height", height}, {"bins", bins}};
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
  run.recordPath = "evidence/histogram/atomics.txt";
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

// What the local atomics added, where the GPU summed it: a work-item's private bins added at once
// (fewer atomics than pixels) count every pixel; atomic_add(p, 0) a pixel counts none (found by an
// honest and a gaming corpus: the first failed on the GPU, the second passed).
TEST(HardwareRule, WhatTheLocalAtomicsAddedIsWhatTheyCounted) {
  const long pixels = 100 * 37;
  AtomicsRun grouped = ran(2498, 131, 21);
  grouped.counts.sharedAdded = pixels;
  EXPECT_EQ(judge(grouped).status, Status::Passed) << judge(grouped).message;
  AtomicsRun zero = ran(5376, 131, 21);
  zero.counts.sharedAdded = 0;
  const CaseOutcome o = judge(zero);
  EXPECT_EQ(o.status, Status::Failed) << o.message;
  EXPECT_NE(o.message.find("local atomics that add up to 0"), std::string::npos) << o.message;
}

// The record the reference's check left on an H200 (the analysis case, 100 x 37, 64 bins): one local
// atomic per pixel in four unrolled instructions, one global atomic per used bin and work-group.
TEST(HardwareRule, TheReferencesCountedRecordPasses) {
  std::string text, err;
  ASSERT_TRUE(readFile(std::string(NVIDIA_TEST_DATA) + "/atomics_histogram_reference_h200.txt", &text, &err)) << err;
  const std::string dir = ::testing::TempDir() + "clgrade-atomics-record-" + std::to_string(getpid());
  const AtomicsRun run = readAtomicsRun(text, dir, "histogram", kKernel);
  ASSERT_EQ(run.outcome, HardwareRun::Outcome::Ran) << run.message;
  EXPECT_EQ(run.workGroups, 21);
  EXPECT_EQ(run.counts.sharedInstructions, 4);
  EXPECT_EQ(run.counts.globalInstructions, 1);
  const CaseOutcome o = judge(run, analysisCase("64", "100", "37"));
  EXPECT_EQ(o.status, Status::Passed) << o.message;
  EXPECT_NE(o.message.find("3700 local atomics, 131 global atomics for 21 work-groups"), std::string::npos)
      << o.message;
  EXPECT_NE(o.message.find(std::string("counted per work-item on ") + kDevice), std::string::npos) << o.message;
  EXPECT_TRUE(hasDetail(o, "compute_histogram_local_memory: 3700 local atomics and 131 global atomics by work-items, "
                           "21 work-groups"));
  EXPECT_FALSE(hasDetail(o, "simulated in Oclgrind"));
  EXPECT_TRUE(hasDetail(o, "Oclgrind"));  // why it was not simulated
  ASSERT_GE(o.evidence.size(), 1u);
  EXPECT_EQ(o.evidence[0].path, "evidence/histogram/atomics.txt");
  std::string kept;
  EXPECT_TRUE(readFile(dir + "/evidence/histogram/atomics.txt", &kept, &err)) << err;
  EXPECT_EQ(kept, text);
  std::filesystem::remove_all(dir);
}

// The record comes from the sandbox: one that does not read, names another kernel or says it could
// not count is a failed run with the reason, never counts.
TEST(HardwareRule, ARecordThatDoesNotReadCountsNothing) {
  const std::string dir = ::testing::TempDir() + "clgrade-atomics-bad-" + std::to_string(getpid());
  const std::string head = "clgrade atomics record 1\nkernel compute_histogram_local_memory\nwork_groups 12\n";
  for (const auto& [text, says] : std::vector<std::pair<std::string, std::string>>{
           {"", "not an atomics record"},
           {head + "site 10 shared 5 7 atom.shared.add.u32 %r1, [%rd1], 1;\n", "does not read"},
           {head + "site x shared 5 0 atom\n", "does not read"},
           {head + "sites 1\n", "does not read"},
           {"clgrade atomics record 1\nkernel other\nwork_groups 12\n", "not of compute_histogram_local_memory"},
           {head + "error the PTX with the atomics' counters does not load\n", "could not be counted"}}) {
    const AtomicsRun run = readAtomicsRun(text, dir, "histogram", kKernel);
    EXPECT_EQ(run.outcome, HardwareRun::Outcome::Failed) << text;
    EXPECT_NE(run.message.find(says), std::string::npos) << run.message;
    EXPECT_EQ(judge(run).status, Status::NotMeasured);
  }
  std::filesystem::remove_all(dir);
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
  const CaseOutcome o = judge(run);
  EXPECT_EQ(o.status, Status::NotMeasured);
  EXPECT_TRUE(hasDetail(o, "ERR_NVGPUCTRPERM"));
  run.outcome = HardwareRun::Outcome::Failed;
  run.message = "no launch of compute_histogram_local_memory was replayed";
  const CaseOutcome failed = judge(run);
  EXPECT_EQ(failed.status, Status::NotMeasured);
  EXPECT_TRUE(hasDetail(failed, "no launch of compute_histogram_local_memory"));
}

TEST(HardwareRule, ReportRowOnlyForARun) {
  EXPECT_TRUE(hardwareAtomicsRows(AtomicsRun{}, kDevice).empty());
  const std::vector<CounterRow> rows = hardwareAtomicsRows(ran(3072, 104, 12), kDevice);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].kernel, kKernel);
  EXPECT_NE(rows[0].provider.find(kDevice), std::string::npos);
}

// The discontinuity technique: the hardware's shared load counts and global sectors through bilateral's
// own rule (spec 5c: the neighbours from the tile), at the course configuration (1280 x 720, groups of
// 32 x 4, 4 steps: 10 x 180 horizontal and 40 x 45 vertical groups).
TEST(HardwareRule, SharedLoadsDecideTheDiscontinuityRuleOfTheTask) {
  const Task* task = findTask("bilateral");
  ASSERT_NE(task, nullptr);
  HardwareRun run;
  run.outcome = HardwareRun::Outcome::Ran;
  // Three shared loads an output (centre, left, right), a warp instruction serving 32 of them.
  run.counts = {{"DiscontinuityHorizontal", 1, 0, 0, 86400, 28800}, {"DiscontinuityVertical", 1, 0, 0, 0, 0}};
  const long pixelSectors = 1280L * 720 * 16 / 32;  // each pixel's normal and depth, once
  run.counts[0].globalLoadSectors = pixelSectors, run.counts[0].workGroups = 10 * 180;
  run.counts[1].globalLoadSectors = pixelSectors + 1280L * 720 * 4 / 32, run.counts[1].workGroups = 40 * 45;
  for (HardwareCounts& c : run.counts) c.groupSize[0] = 32, c.groupSize[1] = 4;
  CaseOutcome o = notSimulated();
  task->judgeSimulation("discontinuity_local_memory", hardwareAccessReport(run, kDevice), CaseSpec{}, &o);
  EXPECT_EQ(o.status, Status::Failed);
  EXPECT_NE(o.message.find("DiscontinuityVertical read no local memory"), std::string::npos) << o.message;
  EXPECT_TRUE(hasDetail(o,
                        "hardware (ncu, NVIDIA H100 80GB HBM3): DiscontinuityHorizontal: 86400 shared load and 28800 "
                        "shared store warp instructions"));
  // One dummy shared load a work-item of 4 outputs: a warp instruction for 128 outputs (spec 5c).
  run.counts[1].sharedLoadInstructions = 921600 / 128;
  o = notSimulated();
  task->judgeSimulation("discontinuity_local_memory", hardwareAccessReport(run, kDevice), CaseSpec{}, &o);
  EXPECT_EQ(o.status, Status::Failed) << o.message;
  EXPECT_NE(o.message.find("DiscontinuityVertical makes 7200 shared load warp instructions for 921600 outputs"),
            std::string::npos)
      << o.message;
  run.counts[1].sharedLoadInstructions = 86400;
  o = notSimulated();
  task->judgeSimulation("discontinuity_local_memory", hardwareAccessReport(run, kDevice), CaseSpec{}, &o);
  EXPECT_EQ(o.status, Status::Passed) << o.message;
  // Each pixel and both neighbours from global memory, shared loads beside: not the technique.
  run.counts[0].globalLoadSectors = 3 * pixelSectors;
  o = notSimulated();
  task->judgeSimulation("discontinuity_local_memory", hardwareAccessReport(run, kDevice), CaseSpec{}, &o);
  EXPECT_EQ(o.status, Status::Failed) << o.message;
  EXPECT_NE(o.message.find("DiscontinuityHorizontal reads"), std::string::npos) << o.message;
  // Sectors not counted (an older ncu): not measured, never a pass.
  run.counts[0].globalLoadSectors = -1;
  o = notSimulated();
  task->judgeSimulation("discontinuity_local_memory", hardwareAccessReport(run, kDevice), CaseSpec{}, &o);
  EXPECT_EQ(o.status, Status::NotMeasured) << o.message;
}

// The 3x3 tile on hardware: the taps from the tile (global sectors beyond the first of each request
// bounded by the groups' tiles and halos), then the stores' conflicts. Counts measured with ncu on an
// H100 at 100 x 37 (the analysis case); each warp's 11 reads of the weights count as one sector and
// one request each.
HardwareRule conv3x3Rule() {
  const Task* task = findTask("conv3x3");
  EXPECT_NE(task, nullptr);
  for (const CheckInfo& ci : task->info().checks)
    if (ci.id == "bank_conflicts") return ci.hardware;
  ADD_FAILURE() << "conv3x3 has no bank_conflicts check";
  return {};
}

HardwareCounts convolution(double sectors, double requests, long groups, long gx, long gy, double storeConflicts = 0) {
  HardwareCounts c;
  c.kernel = "Convolution";
  c.launches = 1;
  c.sharedStoreInstructions = 40.0 * groups;
  c.sharedStoreConflicts = storeConflicts;
  c.sharedLoadInstructions = 72.0 * groups;
  c.globalLoadSectors = sectors;
  c.globalLoadRequests = requests;
  c.workGroups = groups;
  c.groupSize[0] = gx;
  c.groupSize[1] = gy;
  return c;
}

TEST(HardwareRule, TileLoadBoundsGlobalReadsByTheTile) {
  const HardwareRule rule = conv3x3Rule();
  ASSERT_EQ(rule.kind, HardwareRule::Kind::StoreConflicts);
  ASSERT_EQ(rule.tileHalo, 1);
  // The reference: groups of 128 x 2, 19 of them (at most 144 sectors a group).
  CaseOutcome o = notSimulated();
  judgeStoreConflictsFromHardware(rule, {convolution(1376, 836, 19, 128, 2)}, 0.05, &o);
  EXPECT_EQ(o.status, Status::Passed) << o.message;
  EXPECT_TRUE(hasDetail(o,
                        "Convolution read 1376 sectors of 32 bytes from global memory in 836 warp requests, 540 "
                        "beyond the first of each request, in 19 work-groups of 128 x 2"));
  // A 32 x 16 tile loaded linearly (halo_not_zeroed): 1107 sectors of the image in 184 requests and
  // 1628 reads of the weights. Counting every sector (2735 > 2592) failed it on the H100.
  o = notSimulated();
  judgeStoreConflictsFromHardware(rule, {convolution(2735, 1812, 12, 32, 16)}, 0.05, &o);
  EXPECT_EQ(o.status, Status::Passed) << o.message;
  // Each work-item stores only its own pixel and reads 8 of its 9 taps from global memory.
  o = notSimulated();
  judgeStoreConflictsFromHardware(rule, {convolution(6533, 2936, 12, 32, 16)}, 0.05, &o);
  EXPECT_EQ(o.status, Status::Failed);
  EXPECT_NE(o.message.find("each output must read its taps from the local tile"), std::string::npos) << o.message;
  EXPECT_NE(o.message.find("reads 3597 sectors"), std::string::npos) << o.message;
  EXPECT_NE(o.message.find("12 work-groups of 32 x 16 (2592)"), std::string::npos) << o.message;
}

// Measured on the H100: tile_own_pixel_only with its 8 global taps read one lane at a time (a probe
// kernel): 30891 sectors in 30558 requests, 333 beyond the first; it passed before requests were bounded.
TEST(HardwareRule, TapsReadOneLaneAtATimeFail) {
  CaseOutcome o = notSimulated();
  judgeStoreConflictsFromHardware(conv3x3Rule(), {convolution(30891, 30558, 12, 32, 16)}, 0.05, &o);
  EXPECT_EQ(o.status, Status::Failed);
  EXPECT_NE(o.message.find("made 30558 global load requests, more than 2 per work-item launched (12288)"),
            std::string::npos)
      << o.message;
}

TEST(HardwareRule, UniformReadsDoNotCountAgainstTheTile) {
  // Reads that a whole warp makes at one address (the weights, read again for each of several
  // outputs): one sector and one request each, nothing beyond the first.
  CaseOutcome o = notSimulated();
  judgeStoreConflictsFromHardware(conv3x3Rule(), {convolution(1107 + 10000, 184 + 10000, 12, 32, 16)}, 0.05, &o);
  EXPECT_EQ(o.status, Status::Passed) << o.message;
}

TEST(HardwareRule, TileReadsBeforeConflictsAndNotMeasuredWithoutCounts) {
  const HardwareRule rule = conv3x3Rule();
  // Conflicting stores with the taps from the tile: the conflicts decide.
  CaseOutcome o = notSimulated();
  judgeStoreConflictsFromHardware(rule, {convolution(1376, 836, 19, 128, 2, 19 * 40.0)}, 0.05, &o);
  EXPECT_EQ(o.status, Status::Failed);
  EXPECT_NE(o.message.find("bank conflicts per shared store instruction"), std::string::npos) << o.message;
  // Both: the taps are named, the first fault of the technique.
  o = notSimulated();
  judgeStoreConflictsFromHardware(rule, {convolution(6533, 2936, 12, 32, 16, 12 * 40.0)}, 0.05, &o);
  EXPECT_EQ(o.status, Status::Failed);
  EXPECT_NE(o.message.find("taps"), std::string::npos) << o.message;
  // An ncu that did not count the sectors or the requests: not measured, never a pass.
  HardwareCounts noGroups = convolution(1376, 836, 19, 128, 2);
  noGroups.workGroups = 0;
  for (const HardwareCounts& c : {convolution(-1, 836, 19, 128, 2), convolution(1376, -1, 19, 128, 2), noGroups,
                                  convolution(1376, 836, 19, 0, 2)}) {
    o = notSimulated();
    judgeStoreConflictsFromHardware(rule, {c}, 0.05, &o);
    EXPECT_EQ(o.status, Status::NotMeasured);
    EXPECT_NE(o.message.find("not measured"), std::string::npos) << o.message;
  }
  // No shared stores at all.
  HardwareCounts none = convolution(1376, 836, 19, 128, 2);
  none.sharedStoreInstructions = 0;
  o = notSimulated();
  judgeStoreConflictsFromHardware(rule, {none}, 0.05, &o);
  EXPECT_EQ(o.status, Status::Failed);
  EXPECT_NE(o.message.find("stores nothing"), std::string::npos) << o.message;
}

TEST(HardwareRule, TileSectorLimitCountsRowsAndMisalignment) {
  // 32 x 16 with a halo of 1: 18 rows of 34 floats (136 bytes: 5 sectors, 6 when misaligned), twice.
  EXPECT_EQ(tileSectorLimit(32, 16, 1, 4, 1), 2 * 18 * 6);
  EXPECT_EQ(tileSectorLimit(128, 2, 1, 4, 19), 2 * 4 * 18 * 19);
}

// Spec 5c on a GPU without the simulator: the drawn case is judged from its own counts (the
// session's drawn_<task>__ rows and atomics run at the drawn case), beside the analysis case's.
TEST(HardwareRule, TheDrawnCaseIsJudgedFromItsOwnCounts) {
  Rubric shipped;
  std::vector<std::string> problems;
  ASSERT_TRUE(loadRubric(std::string(CLGRADE_SOURCE_DIR) + "/rubrics/four_tasks.xml", &shipped, &problems));
  const Rubric rubric = withDrawnAnalysis(shipped, hiddenSeedsOf(7));
  const TaskRubric* histogram = nullptr;
  for (const TaskRubric& t : rubric.tasks)
    if (t.id == "histogram") histogram = &t;
  ASSERT_NE(histogram, nullptr);
  const Task* task = findTask("histogram");
  std::string err;
  // A replaying runtime launches nothing; it only asks a device for its alignment (any will do).
  const std::vector<DeviceEntry> devices = listDevices(&err);
  if (devices.empty()) GTEST_SKIP() << "no OpenCL device: " << err;
  DeviceEntry device = devices.front();
  device.info.name = kDevice;
  device.info.type = "gpu";
  const std::string tapePath = ::testing::TempDir() + "/empty-" + std::to_string(::getpid()) + ".tape";
  const std::shared_ptr<Tape> recorded = Tape::recorder(tapePath, &err);
  ASSERT_TRUE(recorded) << err;
  recorded->close();
  const std::shared_ptr<Tape> tape = Tape::player(tapePath, &err);
  ASSERT_TRUE(tape) << err;
  const Runtime replaying(device, tape);
  auto judged = [&](const AtomicsRun& drawnAtomics) {
    std::map<std::string, CheckResult> checks;
    checks["local_atomics"].cases = {notSimulated()};
    HardwareRun run;
    run.outcome = HardwareRun::Outcome::Ran;
    run.drawnAsked = true;
    run.drawnAtomics = {drawnAtomics};
    std::vector<CounterRow> rows;
    judgeWithHardware(replaying, *task, *histogram, rubric, AnalysisFolders{}, &checks, &rows, &run);
    for (const CaseOutcome& o : checks["local_atomics"].cases)
      if (o.caseId.rfind("analysis (analysis_drawn at ", 0) == 0) return o;
    ADD_FAILURE() << "no drawn outcome";
    return CaseOutcome{};
  };
  // Spec 5: the rubric's analysis case is a hidden one (an odd size, other groups); values wrong only
  // there cost the correctness criteria, not the technique. The drawn case, the course
  // configuration at another size, is the one whose values the technique needs (spec 5c).
  auto atAnalysis = [&](Status local) {
    std::map<std::string, CheckResult> checks;
    checks["local_atomics"].cases = {notSimulated()};
    CaseOutcome value;
    value.caseId = histogram->analysis.caseId;
    value.status = local;
    value.message = "35 of 64 bins wrong";
    checks["local"].cases = {value};
    HardwareRun run;
    run.outcome = HardwareRun::Outcome::Ran;
    run.atomics = {ran(3700, 131, 21)};
    std::vector<CounterRow> rows;
    judgeWithHardware(replaying, *task, *histogram, rubric, AnalysisFolders{}, &checks, &rows, &run);
    return checks["local_atomics"].cases.front();
  };
  EXPECT_EQ(atAnalysis(Status::Passed).status, Status::Passed) << atAnalysis(Status::Passed).message;
  EXPECT_EQ(atAnalysis(Status::Failed).status, Status::Passed) << atAnalysis(Status::Failed).message;
  const AtomicsRun globalOnly = ran(0, 3000, 12);  // global atomics only at the drawn case
  CaseOutcome o = judged(globalOnly);
  EXPECT_EQ(o.status, Status::Failed) << o.message;
  EXPECT_NE(o.message.find("uses no local atomics"), std::string::npos) << o.message;
  EXPECT_FALSE(o.visible);
  AtomicsRun failed = globalOnly;
  failed.outcome = HardwareRun::Outcome::Failed;
  failed.message = "ncu profiled no launch";
  o = judged(failed);
  EXPECT_EQ(o.status, Status::Error) << o.message;
  std::remove(tapePath.c_str());
}

// Which kernels' counters the shipped tasks' rules read (what a profiler session profiles, issue 29):
// conv3x3's store-conflict rule its Convolution, bilateral's access-count rule its two discontinuity
// kernels; the separable task has no hardware rule and the histogram's is on atomics, counted apart.
TEST(CountersReadBy, TheShippedTasks) {
  Rubric rubric;
  std::vector<std::string> problems;
  ASSERT_TRUE(loadRubric(std::string(CLGRADE_SOURCE_DIR) + "/rubrics/four_tasks.xml", &rubric, &problems));
  std::map<std::string, std::pair<bool, std::vector<std::string>>> read;
  for (const TaskRubric& tr : rubric.tasks) {
    std::vector<std::string> kernels{"left over"};
    const bool any = countersReadBy(*findTask(tr.id), tr, &kernels);
    read[tr.id] = {any, kernels};
  }
  EXPECT_EQ(read.at("conv3x3"), std::make_pair(true, std::vector<std::string>{"Convolution"}));
  EXPECT_EQ(read.at("bilateral"),
            std::make_pair(true, std::vector<std::string>{"DiscontinuityHorizontal", "DiscontinuityVertical"}));
  EXPECT_EQ(read.at("separable"), std::make_pair(false, std::vector<std::string>{}));
  EXPECT_EQ(read.at("histogram"), std::make_pair(false, std::vector<std::string>{}));
}

}  // namespace
}  // namespace clgrade
