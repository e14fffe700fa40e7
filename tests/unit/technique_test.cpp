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
  r.kernels = {h, v};
  CaseOutcome o;
  judgeLocalReads(r, {"DiscontinuityHorizontal", "DiscontinuityVertical"}, &o);
  EXPECT_EQ(o.status, Status::Failed);
  EXPECT_EQ(o.message.rfind("DiscontinuityVertical read no local memory", 0), 0u) << o.message;
  r.kernels[1].local.loads = 5;
  CaseOutcome ok;
  judgeLocalReads(r, {"DiscontinuityHorizontal", "DiscontinuityVertical"}, &ok);
  EXPECT_EQ(ok.status, Status::Passed);
}

TEST(Technique, LocalHistogramMergesOncePerBinAndGroup) {
  KernelCounters k;
  k.name = "compute_histogram_local_memory";
  k.workGroups = 12;
  k.local.atomics = 3072;
  k.global.atomics = 12 * 64;
  CaseOutcome o;
  judgeLocalHistogram(withKernel(k), k.name, 64, &o);
  EXPECT_EQ(o.status, Status::Passed) << o.message;
  k.global.atomics = 3072;  // one global atomic per pixel: no merge
  CaseOutcome perPixel;
  judgeLocalHistogram(withKernel(k), k.name, 64, &perPixel);
  EXPECT_EQ(perPixel.status, Status::Failed);
  k.local.atomics = 0;
  CaseOutcome noLocal;
  judgeLocalHistogram(withKernel(k), k.name, 64, &noLocal);
  EXPECT_EQ(noLocal.status, Status::Failed);
  EXPECT_NE(noLocal.message.find("no local atomics"), std::string::npos);
}

}  // namespace
}  // namespace clgrade
