// Technique criteria from simulated counters: the rules, on hand-made counts.
#include <gtest/gtest.h>

#include "tasks/technique.h"

namespace clgrade {
namespace {

CounterReport withKernel(const KernelCounters& k) {
  CounterReport r;
  r.kernels = {k};
  return r;
}

TEST(Technique, TileLoadPassesWithoutConflicts) {
  KernelCounters k;
  k.name = "Convolution";
  k.local.stores = 612;
  k.loadPhase.store = {32, 32, 0};
  CaseOutcome o;
  judgeTileLoad(withKernel(k), "Convolution", &o);
  EXPECT_EQ(o.status, Status::Passed) << o.message;
}

TEST(Technique, TileLoadFailsWithConflictsAndNamesTheLine) {
  KernelCounters k;
  k.name = "Convolution";
  k.local.stores = 612;
  k.loadPhase.store = {48, 64, 16};
  k.lines = {{31, "store", "load", 16, 32, 16}};
  CaseOutcome o;
  judgeTileLoad(withKernel(k), "Convolution", &o);
  EXPECT_EQ(o.status, Status::Failed);
  EXPECT_NE(o.message.find("16 bank conflicts"), std::string::npos) << o.message;
  EXPECT_NE(o.message.find("line 31"), std::string::npos) << o.message;
}

// Issue 11: each work-item stores only its own pixel into local memory and reads 8 of its 9 taps
// from global memory; it stores a "tile" without conflicts and took the 3 tile_load points.
TEST(Technique, TileLoadNeedsTheTapsReadFromTheTile) {
  KernelCounters k;
  k.name = "Convolution";
  k.groupSize[0] = 32;
  k.groupSize[1] = 16;
  k.groupSize[2] = 1;
  k.workGroups = 12;
  k.local.stores = 12 * 512;
  k.loadPhase.store = {12 * 16, 12 * 16, 0};
  k.constant.loads = 12 * 512 * 10;  // the weights: never counted as image reads
  k.global.loads = 12 * 512 * 8;     // 8 taps of 9 from global memory
  CaseOutcome gamed;
  judgeTileLoad(withKernel(k), "Convolution", &gamed);
  EXPECT_EQ(gamed.status, Status::Failed);
  EXPECT_NE(gamed.message.find("global loads, more than twice the tile and halo"), std::string::npos) << gamed.message;

  k.global.loads = 12 * 34 * 18;  // the tile and its halo, once
  k.local.stores = 12 * 34 * 18;
  CaseOutcome tiled;
  judgeTileLoad(withKernel(k), "Convolution", &tiled);
  EXPECT_EQ(tiled.status, Status::Passed) << tiled.message;
}

// Issue 11: "worst at line 108" named a compute-phase load (the store was line 53), and stores
// without debug information were "line 0".
TEST(Technique, TileLoadNamesTheWorstStoreAndHintsATransposedTile) {
  KernelCounters k;
  k.name = "Convolution";
  k.local.stores = 612;
  k.loadPhase.store = {20, 20 * 32, 20 * 31};  // every lane of a warp in one bank
  k.lines = {{108, "load", "compute", 300, 400, 100}, {53, "store", "load", 20, 640, 620}};
  CaseOutcome o;
  judgeTileLoad(withKernel(k), "Convolution", &o);
  EXPECT_NE(o.message.find("worst at line 53"), std::string::npos) << o.message;
  ASSERT_FALSE(o.details.empty());
  EXPECT_EQ(o.details.front().rfind("hint: each warp's stores land in one bank", 0), 0u) << o.details.front();
  k.lines = {{0, "store", "load", 20, 640, 620}};
  CaseOutcome noLine;
  judgeTileLoad(withKernel(k), "Convolution", &noLine);
  EXPECT_EQ(noLine.message.find("line 0"), std::string::npos) << noLine.message;
  EXPECT_NE(noLine.message.find("has no source line"), std::string::npos) << noLine.message;
}

TEST(Technique, TileLoadNeedsLocalMemoryAndARun) {
  KernelCounters k;
  k.name = "Convolution";
  k.global.loads = 900;
  CaseOutcome o;
  judgeTileLoad(withKernel(k), "Convolution", &o);
  EXPECT_EQ(o.status, Status::Failed);
  EXPECT_NE(o.message.find("stores nothing into local memory"), std::string::npos);
  CaseOutcome never;
  judgeTileLoad(CounterReport{}, "Convolution", &never);
  EXPECT_EQ(never.status, Status::Failed);
  EXPECT_NE(never.message.find("never ran"), std::string::npos);
}

TEST(Technique, DiscontinuityNeedsLocalReadsInBothKernels) {
  CounterReport r;
  KernelCounters h, v;
  h.name = "DiscontinuityHorizontal";
  h.local.loads = 100;
  v.name = "DiscontinuityVertical";
  for (KernelCounters* k : {&h, &v}) {
    k->workGroups = 10;
    k->groupSize[0] = 16, k->groupSize[1] = 4, k->groupSize[2] = 1;
    k->global.loadBytes = 0;
  }
  r.kernels = {h, v};
  const std::vector<NeighbourKernel> kernels{{"DiscontinuityHorizontal", true, 2, 64, 20},
                                             {"DiscontinuityVertical", false, 2, 64, 20}};
  CaseOutcome o;
  judgeNeighboursFromLocal(r, kernels, &o);
  EXPECT_EQ(o.status, Status::Failed);
  EXPECT_EQ(o.message.rfind("DiscontinuityVertical read no local memory", 0), 0u) << o.message;
  r.kernels[1].local.loads = 5;
  CaseOutcome ok;
  judgeNeighboursFromLocal(r, kernels, &ok);
  EXPECT_EQ(ok.status, Status::Passed) << ok.message;
}

// Spec 5c: a local load beside neighbours read from global memory is not the technique. Groups of
// 16 x 4 with 2 steps at 100 x 37: tiles of 32 x 4 pixels of 16 bytes, 4 x 10 groups a launch, whose
// tiles cover 128 x 40 pixels: counted as launched, three reads per image pixel would pass.
TEST(Technique, DiscontinuityNeighboursReadFromGlobalMemoryFailWhateverTheLocalLoads) {
  KernelCounters h;
  h.name = "DiscontinuityHorizontal";
  h.local.loads = 128;  // one dummy local load per work-item... or many
  h.workGroups = 40;
  h.groupSize[0] = 16, h.groupSize[1] = 4, h.groupSize[2] = 1;
  const long pixels = 100 * 37;
  const std::vector<NeighbourKernel> kernel{{"DiscontinuityHorizontal", true, 2, 100, 37}};
  h.global.loadBytes = pixels * 3 * 16;  // each pixel and its two neighbours from global memory
  CaseOutcome global;
  judgeNeighboursFromLocal(withKernel(h), kernel, &global);
  EXPECT_EQ(global.status, Status::Failed);
  EXPECT_NE(global.message.find("neighbours' normals and depths from the local tile"), std::string::npos)
      << global.message;
  h.global.loadBytes = 40 * 34 * 4 * 16;  // every launched tile and its halo, once (clamped reads)
  CaseOutcome tiled;
  judgeNeighboursFromLocal(withKernel(h), kernel, &tiled);
  EXPECT_EQ(tiled.status, Status::Passed) << tiled.message;
  h.global.loadBytes = -1;  // not counted (hardware without the sector metric): never a silent pass
  CaseOutcome uncounted;
  judgeNeighboursFromLocal(withKernel(h), kernel, &uncounted);
  EXPECT_EQ(uncounted.status, Status::NotMeasured) << uncounted.message;
}

TEST(Technique, LocalHistogramMergesOncePerBinAndGroup) {
  KernelCounters k;
  k.name = "compute_histogram_local_memory";
  k.workGroups = 12;
  k.local.atomics = 3072;
  k.global.atomics = 12 * 64;
  const HistogramShape shape{64, 64 * 48, 12};  // the 64 x 48 analysis case
  CaseOutcome o;
  judgeLocalHistogram(withKernel(k), k.name, shape, &o);
  EXPECT_EQ(o.status, Status::Passed) << o.message;
  k.global.atomics = 3072;  // one global atomic per pixel: no merge
  CaseOutcome perPixel;
  judgeLocalHistogram(withKernel(k), k.name, shape, &perPixel);
  EXPECT_EQ(perPixel.status, Status::Failed);
  k.local.atomics = 0;
  CaseOutcome noLocal;
  judgeLocalHistogram(withKernel(k), k.name, shape, &noLocal);
  EXPECT_EQ(noLocal.status, Status::Failed);
  EXPECT_NE(noLocal.message.find("no local atomics"), std::string::npos);
}

// Issue 11: reqd_work_group_size(8,8,1), one dummy local atomic per group and one global atomic
// per pixel held "at most one global atomic per bin and group" exactly (48 groups x 64 bins).
TEST(Technique, LocalHistogramCountsPerPixelAndAtTheAssignmentsGroupSize) {
  const HistogramShape shape{64, 64 * 48, 12};
  KernelCounters dummy;
  dummy.name = "compute_histogram_local_memory";
  dummy.workGroups = 48;
  dummy.local.atomics = 48;
  dummy.global.atomics = 3072;
  CaseOutcome o;
  judgeLocalHistogram(withKernel(dummy), dummy.name, shape, &o);
  EXPECT_EQ(o.status, Status::Failed);
  EXPECT_NE(o.message.find("48 local atomics for 3072 pixels"), std::string::npos) << o.message;

  KernelCounters small = dummy;  // every pixel through a local atomic, but groups of 8 x 8 and no merge
  small.local.atomics = 3072;
  CaseOutcome smallGroups;
  judgeLocalHistogram(withKernel(small), small.name, shape, &smallGroups);
  EXPECT_EQ(smallGroups.status, Status::Failed);
  EXPECT_NE(smallGroups.message.find("768 for 12 groups"), std::string::npos) << smallGroups.message;

  KernelCounters honest = small;  // 16 x 16 groups, merged once per bin
  honest.workGroups = 12;
  honest.global.atomics = 12 * 64;
  CaseOutcome ok;
  judgeLocalHistogram(withKernel(honest), honest.name, shape, &ok);
  EXPECT_EQ(ok.status, Status::Passed) << ok.message;
}

}  // namespace
}  // namespace clgrade
