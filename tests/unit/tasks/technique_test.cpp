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
  k.loadPhase.store = k.bank.store = {32, 32, 0};
  CaseOutcome o;
  judgeTileLoad(withKernel(k), "Convolution", 0, 0, &o);
  EXPECT_EQ(o.status, Status::Passed) << o.message;
}

TEST(Technique, TileLoadFailsWithConflictsAndNamesTheLine) {
  KernelCounters k;
  k.name = "Convolution";
  k.local.stores = 612;
  k.loadPhase.store = k.bank.store = {48, 64, 16};
  k.lines = {{31, "store", "load", 16, 32, 16}};
  CaseOutcome o;
  judgeTileLoad(withKernel(k), "Convolution", 0, 0, &o);
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
  k.loadPhase.store = k.bank.store = {12 * 16, 12 * 16, 0};
  k.constant.loads = 12 * 512 * 10;  // the weights: never counted as image reads
  k.global.loads = 12 * 512 * 8;     // 8 taps of 9 from global memory
  CaseOutcome gamed;
  judgeTileLoad(withKernel(k), "Convolution", 0, 0, &gamed);
  EXPECT_EQ(gamed.status, Status::Failed);
  EXPECT_NE(gamed.message.find("global loads, more than twice the tile and halo"), std::string::npos) << gamed.message;

  k.global.loads = 12 * 34 * 18;  // the tile and its halo, once
  k.local.stores = 12 * 34 * 18;
  CaseOutcome tiled;
  judgeTileLoad(withKernel(k), "Convolution", 0, 0, &tiled);
  EXPECT_EQ(tiled.status, Status::Passed) << tiled.message;
}

// Issue 11: "worst at line 108" named a compute-phase load (the store was line 53), and stores
// without debug information were "line 0".
TEST(Technique, TileLoadNamesTheWorstStoreAndHintsATransposedTile) {
  KernelCounters k;
  k.name = "Convolution";
  k.local.stores = 612;
  k.loadPhase.store = k.bank.store = {20, 20 * 32, 20 * 31};  // every lane of a warp in one bank
  k.lines = {{108, "load", "compute", 300, 400, 100}, {53, "store", "load", 20, 640, 620}};
  CaseOutcome o;
  judgeTileLoad(withKernel(k), "Convolution", 0, 0, &o);
  EXPECT_NE(o.message.find("worst at line 53"), std::string::npos) << o.message;
  ASSERT_FALSE(o.details.empty());
  EXPECT_EQ(o.details.front().rfind("hint: each warp's stores land in one bank", 0), 0u) << o.details.front();
  k.lines = {{0, "store", "load", 20, 640, 620}};
  CaseOutcome noLine;
  judgeTileLoad(withKernel(k), "Convolution", 0, 0, &noLine);
  EXPECT_EQ(noLine.message.find("line 0"), std::string::npos) << noLine.message;
  EXPECT_NE(noLine.message.find("has no source line"), std::string::npos) << noLine.message;
}

TEST(Technique, TileLoadNeedsLocalMemoryAndARun) {
  KernelCounters k;
  k.name = "Convolution";
  k.global.loads = 900;
  CaseOutcome o;
  judgeTileLoad(withKernel(k), "Convolution", 0, 0, &o);
  EXPECT_EQ(o.status, Status::Failed);
  EXPECT_NE(o.message.find("stores nothing into local memory"), std::string::npos);
  CaseOutcome never;
  judgeTileLoad(CounterReport{}, "Convolution", 0, 0, &never);
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

// Spec 5c, found by a gaming corpus: one barrier at the kernel's start put every tile store in the
// "compute" phase, and only stores before the first barrier were judged (0 conflicts: 3/3).
TEST(Technique, TileStoresAreJudgedWhereverTheBarriersAre) {
  KernelCounters k;
  k.name = "Convolution";
  k.local.stores = 612;
  k.loadPhase.store = {0, 0, 0};
  k.computePhase.store = k.bank.store = {48, 64, 16};
  k.lines = {{61, "store", "compute", 48, 64, 16}};
  CaseOutcome o;
  judgeTileLoad(withKernel(k), "Convolution", 0, 0, &o);
  EXPECT_EQ(o.status, Status::Failed) << o.message;
  EXPECT_NE(o.message.find("16 bank conflicts"), std::string::npos) << o.message;
  EXPECT_NE(o.message.find("line 61"), std::string::npos) << o.message;
}

/// The counts of a Convolution at 100 x 37 in groups of 32 x 16 (4 x 3 groups, one launch).
KernelCounters convolutionAt100x37() {
  KernelCounters k;
  k.name = "Convolution";
  k.groupSize[0] = 32, k.groupSize[1] = 16, k.groupSize[2] = 1;
  k.workGroups = 12;
  k.local.stores = 12 * 34 * 18;
  k.bank.store = k.loadPhase.store = {12 * 16, 12 * 16, 0};
  k.local.loads = 3700 * 9;
  k.local.sharedLoads = 3700 * 8;
  k.global.loads = (100 + 6) * (37 + 4);
  k.global.loadBytes = 4 * k.global.loads;  // the tiles and their halos inside the image, once
  return k;
}

// Spec 5c, found by a gaming corpus: three vload4 per pixel and one dummy local store made fewer
// global load instructions than the tile's budget (3/3). In bytes, 48 a pixel is far beyond it.
TEST(Technique, TileReadsAreCountedInBytes) {
  KernelCounters k = convolutionAt100x37();
  CaseOutcome tiled;
  judgeTileLoad(withKernel(k), "Convolution", 100, 37, &tiled);
  EXPECT_EQ(tiled.status, Status::Passed) << tiled.message;
  k.global.loads = 3 * 3700;  // three float4 loads a pixel
  k.global.loadBytes = 48 * 3700;
  CaseOutcome vectors;
  judgeTileLoad(withKernel(k), "Convolution", 100, 37, &vectors);
  EXPECT_EQ(vectors.status, Status::Failed);
  EXPECT_NE(vectors.message.find("bytes of global memory, more than twice the tiles"), std::string::npos)
      << vectors.message;
}

// Spec 5c: a tile the outputs do not read from is not the technique. A dummy local store and a load
// of it per work-item share nothing between work-items.
TEST(Technique, TileTapsComeFromWhatOtherWorkItemsStored) {
  KernelCounters k = convolutionAt100x37();
  k.local.loads = 6144;
  k.local.sharedLoads = 0;
  CaseOutcome own;
  judgeTileLoad(withKernel(k), "Convolution", 100, 37, &own);
  EXPECT_EQ(own.status, Status::Failed);
  EXPECT_NE(own.message.find("0 local loads of a word another work-item stored, fewer than its 3700 outputs"),
            std::string::npos)
      << own.message;
  k.local.sharedLoads = 3700;  // one tap an output from the tile is enough for the rule
  CaseOutcome one;
  judgeTileLoad(withKernel(k), "Convolution", 100, 37, &one);
  EXPECT_EQ(one.status, Status::Passed) << one.message;
}

// On hardware a shared load instruction serves a warp: one per 32 outputs at least.
TEST(Technique, TileReadsOnHardwareAreWarpInstructions) {
  CounterReport r;
  r.origin = "hardware (clgrade's PTX counters, NVIDIA H200)";
  KernelCounters k;
  k.name = "DiscontinuityHorizontal";
  k.local.loads = 3700 / 32;  // one dummy load a work-item: a warp instruction per 32 work-items, 4 outputs each
  r.kernels = {k};
  EXPECT_NE(tooFewTileReads(r, k, 4 * 3700), "");
  k.local.loads = 3 * 3700 / 32;  // left, centre and right of each output
  EXPECT_EQ(tooFewTileReads(r, k, 3700), "");
  CounterReport older;  // a simulator's file without the count: not judged by it
  k.local.loads = 1;
  EXPECT_EQ(tooFewTileReads(older, k, 3700), "");
}

// Spec 5c: "one dummy local load per work-item is not the technique". Four flags a work-item, side
// by side, from a window of three pixels in registers, and one local store and load of its own.
TEST(Technique, DiscontinuityNeighboursComeFromTheGroupsTile) {
  KernelCounters h;
  h.name = "DiscontinuityHorizontal";
  h.workGroups = 10;
  h.groupSize[0] = 32, h.groupSize[1] = 4, h.groupSize[2] = 1;
  h.local.loads = 1280;
  h.local.sharedLoads = 0;
  h.global.loadBytes = 100 * 37 * 16;  // each pixel once: no more than a tile's
  const std::vector<NeighbourKernel> kernel{{"DiscontinuityHorizontal", true, 4, 100, 37}};
  CaseOutcome window;
  judgeNeighboursFromLocal(withKernel(h), kernel, &window);
  EXPECT_EQ(window.status, Status::Failed);
  EXPECT_NE(window.message.find("fewer than its 3700 outputs"), std::string::npos) << window.message;
  h.local.sharedLoads = 2 * 3700;
  CaseOutcome tiled;
  judgeNeighboursFromLocal(withKernel(h), kernel, &tiled);
  EXPECT_EQ(tiled.status, Status::Passed) << tiled.message;
}

// Spec 5c, found by a gaming corpus: atomic_add(&local_hist[0], 0) per pixel, and each of 64
// work-items counting one bin over the group's 256 pixels in a register (1/1 before).
TEST(Technique, LocalHistogramAtomicsMustCountAndThePixelsBeReadOnce) {
  const HistogramShape shape{64, 64 * 48, 12};
  KernelCounters k;
  k.name = "compute_histogram_local_memory";
  k.workGroups = 12;
  k.local.atomics = 3072;
  k.local.atomicsAdded = 3072;
  k.global.atomics = 12 * 64;
  k.global.loadBytes = 4 * 3072;
  CaseOutcome honest;
  judgeLocalHistogram(withKernel(k), k.name, shape, &honest);
  EXPECT_EQ(honest.status, Status::Passed) << honest.message;

  KernelCounters zero = k;
  zero.local.atomicsAdded = 0;  // atomic_add(&local_hist[0], 0) a pixel
  CaseOutcome adds0;
  judgeLocalHistogram(withKernel(zero), zero.name, shape, &adds0);
  EXPECT_EQ(adds0.status, Status::Failed);
  EXPECT_NE(adds0.message.find("3072 local atomics that add up to 0 for 3072 pixels"), std::string::npos)
      << adds0.message;

  // Found by an honest corpus: a work-item's four pixels counted in private bins, each bin added
  // once (fewer atomics than pixels, adding up to the pixels): the technique, 0/1 before.
  KernelCounters grouped = k;
  grouped.local.atomics = 2498;
  grouped.local.atomicsAdded = 3072;
  CaseOutcome privateBins;
  judgeLocalHistogram(withKernel(grouped), grouped.name, shape, &privateBins);
  EXPECT_EQ(privateBins.status, Status::Passed) << privateBins.message;

  KernelCounters rereads = k;
  rereads.global.loadBytes = 64 * 4 * 3072;  // every pixel read again for each bin
  CaseOutcome perBin;
  judgeLocalHistogram(withKernel(rereads), rereads.name, shape, &perBin);
  EXPECT_EQ(perBin.status, Status::Failed);
  EXPECT_NE(perBin.message.find("not read again for each bin"), std::string::npos) << perBin.message;
}

}  // namespace
}  // namespace clgrade
