// The bank model, the lane regrouping and the counters file on their own: no Oclgrind needed.
#include <gtest/gtest.h>

#include "../scratch.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "bank_model.h"
#include "counters_json.h"
#include "lane_loops.h"
#include "warp_regrouper.h"

namespace clgrade::counters {
namespace {

/// 32 lanes, lane l at byte `base + l * strideBytes`, `size` bytes each.
std::vector<LaneAccess> warp(uint64_t strideBytes, uint32_t size, uint64_t base = 0) {
  std::vector<LaneAccess> lanes;
  for (uint64_t l = 0; l < 32; ++l) lanes.push_back({base + l * strideBytes, size});
  return lanes;
}

std::pair<uint64_t, uint64_t> cost(const std::vector<LaneAccess>& lanes, BankModel model = {}) {
  CostScratch scratch;
  const RequestCost c = requestCost(model, lanes, &scratch);
  return {c.wavefronts, c.conflicts};
}

using Cost = std::pair<uint64_t, uint64_t>;  // wavefronts, conflicts

TEST(BankModel, ConsecutiveFloatsTakeOneWavefront) { EXPECT_EQ(cost(warp(4, 4)), (Cost{1, 0})); }

TEST(BankModel, StridesConflictByTheirSharedBanks) {
  EXPECT_EQ(cost(warp(8, 4)), (Cost{2, 1}));
  EXPECT_EQ(cost(warp(16, 4)), (Cost{4, 3}));
  EXPECT_EQ(cost(warp(128, 4)), (Cost{32, 31}));
  EXPECT_EQ(cost(warp(132, 4)), (Cost{1, 0}));
}

TEST(BankModel, SameWordIsABroadcast) {
  EXPECT_EQ(cost(warp(0, 4)), (Cost{1, 0}));
  // Two bytes of one word count as the word once.
  EXPECT_EQ(cost({{0, 1}, {1, 1}, {2, 2}}), (Cost{1, 0}));
}

TEST(BankModel, WideAccessesCountOnlyExtraWavefronts) {
  EXPECT_EQ(cost(warp(16, 16)), (Cost{4, 0}));  // float4, consecutive
  EXPECT_EQ(cost(warp(8, 8)), (Cost{2, 0}));    // double or float2, consecutive
  EXPECT_EQ(cost(warp(32, 16)), (Cost{8, 4}));  // float4, stride 2
}

TEST(BankModel, UnalignedAccessCoversBothWords) {
  // Bytes 2..5 lie in words 0 and 1; bytes 130..133 in words 32 and 33: banks 0 and 1 twice.
  EXPECT_EQ(cost({{2, 4}, {130, 4}}), (Cost{2, 1}));
}

TEST(BankModel, OtherModels) {
  BankModel sixteen;
  sixteen.banks = 16;
  EXPECT_EQ(cost(warp(8, 4), sixteen), (Cost{4, 2}));
  BankModel wide;
  wide.bankBytes = 8;
  EXPECT_EQ(cost(warp(8, 4), wide), (Cost{1, 0}));
}

TEST(BankModel, NoLanesCostNothing) { EXPECT_EQ(cost({}), (Cost{0, 0})); }

// --- Regrouping lanes, fed in the order Oclgrind runs them: lane 0 to the barrier, then lane 1, ...

const int kSiteA = 1, kSiteB = 2;  // only their addresses matter: two instructions
const Site storeA{&kSiteA, 0, AccessKind::Store};
const Site loadB{&kSiteB, 0, AccessKind::Load};

TEST(WarpRegrouper, PairsTheKthExecutionOfEachLane) {
  KernelTally tally;
  WarpRegrouper r;
  r.begin(BankModel{}, &tally);
  // Lane l runs 1 + l % 3 iterations, word i * 32 + l in iteration i: three requests, no conflict.
  for (uint32_t lane = 0; lane < 32; ++lane)
    for (uint32_t i = 0; i <= lane % 3; ++i) r.record(lane, storeA, 7, (i * 32 + lane) * 4, 4);
  r.finish();
  const BankTally t = tally.lines.at(LineKey{7, AccessKind::Store, Phase::Load});
  EXPECT_EQ(t.requests, 3u);
  EXPECT_EQ(t.wavefronts, 3u);
  EXPECT_EQ(t.conflicts, 0u);
  EXPECT_FALSE(r.sawOutOfOrderLanes());
}

TEST(WarpRegrouper, WarpsAreSeparateRequests) {
  KernelTally tally;
  WarpRegrouper r;
  r.begin(BankModel{}, &tally);
  // 64 lanes at stride 32 words: within a warp all in bank 0; each warp its own request.
  for (uint32_t lane = 0; lane < 64; ++lane) r.record(lane, storeA, 1, lane * 128, 4);
  r.finish();
  const BankTally t = tally.lines.at(LineKey{1, AccessKind::Store, Phase::Load});
  EXPECT_EQ(t.requests, 2u);
  EXPECT_EQ(t.conflicts, 62u);
}

TEST(WarpRegrouper, BarrierEndsRequestsAndStartsTheComputePhase) {
  KernelTally tally;
  WarpRegrouper r;
  r.begin(BankModel{}, &tally);
  for (uint32_t lane = 0; lane < 32; ++lane) r.record(lane, storeA, 1, lane * 4, 4);
  r.barrier();
  // The same instruction again after the barrier (a loop around it): a new request, phase compute.
  for (uint32_t lane = 0; lane < 32; ++lane) r.record(lane, storeA, 1, lane * 8, 4);
  for (uint32_t lane = 0; lane < 32; ++lane) r.record(lane, loadB, 2, 0, 4);
  r.finish();
  EXPECT_EQ(tally.lines.at(LineKey{1, AccessKind::Store, Phase::Load}).requests, 1u);
  const BankTally after = tally.lines.at(LineKey{1, AccessKind::Store, Phase::Compute});
  EXPECT_EQ(after.requests, 1u);
  EXPECT_EQ(after.conflicts, 1u);
  EXPECT_EQ(tally.lines.at(LineKey{2, AccessKind::Load, Phase::Compute}).requests, 1u);
}

TEST(WarpRegrouper, SameInstructionFromTwoCallSitesIsTwoRequests) {
  KernelTally tally;
  WarpRegrouper r;
  r.begin(BankModel{}, &tally);
  Site viaFirstCall = storeA, viaSecondCall = storeA;
  viaFirstCall.context = 11;
  viaSecondCall.context = 22;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    r.record(lane, viaFirstCall, 1, lane * 4, 4);
    r.record(lane, viaSecondCall, 1, 512 + lane * 4, 4);
  }
  r.finish();
  const BankTally t = tally.lines.at(LineKey{1, AccessKind::Store, Phase::Load});
  EXPECT_EQ(t.requests, 2u);
  EXPECT_EQ(t.conflicts, 0u);
}

TEST(WarpRegrouper, NoticesLanesOutOfLinearOrder) {
  KernelTally tally;
  WarpRegrouper r;
  r.begin(BankModel{}, &tally);
  r.record(0, storeA, 1, 0, 4);
  r.record(32, storeA, 1, 4, 4);
  r.record(1, storeA, 1, 8, 4);
  r.finish();
  EXPECT_TRUE(r.sawOutOfOrderLanes());
}

// --- Loop iterations per lane, with stand-ins for LLVM's loops and blocks.

struct Block {};
struct FakeLoop {
  std::vector<const Block*> blocks;
  bool contains(const Block* b) const { return std::find(blocks.begin(), blocks.end(), b) != blocks.end(); }
};
using Loops = LaneLoops<FakeLoop, Block>;

// for (outer) { for (inner) { body } after } end: blocks of a kernel, and of a helper it calls.
const Block kOuterHead, kInnerHead, kBody, kAfter, kEnd, kCallBlock, kHelperHead, kHelperBody;
const FakeLoop kOuter{{&kOuterHead, &kInnerHead, &kBody, &kAfter}};
const FakeLoop kInner{{&kInnerHead, &kBody}};
const FakeLoop kCaller{{&kOuterHead, &kCallBlock}};
const FakeLoop kHelper{{&kHelperHead, &kHelperBody}};

Loops::Frames at(const Block* b) { return {{b, 0}}; }

/// Runs the nest with `inner[o]` inner iterations in outer iteration o; the hash at each body visit.
std::vector<uint64_t> runNest(Loops& lane, const std::vector<int>& inner) {
  std::vector<uint64_t> hashes;
  for (int trips : inner) {
    lane.enterHeader(&kOuter, at(&kOuterHead));
    for (int i = 0; i < trips; ++i) {
      lane.enterHeader(&kInner, at(&kInnerHead));
      hashes.push_back(lane.iterationHash(at(&kBody)));
    }
    lane.enterHeader(&kInner, at(&kInnerHead));  // the failing test that leaves the inner loop
  }
  lane.enterHeader(&kOuter, at(&kOuterHead));
  return hashes;
}

TEST(LaneLoops, SameIterationsGiveTheSameHash) {
  Loops a, b;
  const std::vector<uint64_t> two = runNest(a, {2, 2});  // (0,0) (0,1) (1,0) (1,1)
  const std::vector<uint64_t> one = runNest(b, {1, 1});  // (0,0) (1,0)
  ASSERT_EQ(two.size(), 4u);
  ASSERT_EQ(one.size(), 2u);
  EXPECT_EQ(one[0], two[0]);
  EXPECT_EQ(one[1], two[2]);  // outer iteration 1, inner 0: not lane a's second body visit
  EXPECT_NE(two[1], two[2]);
  EXPECT_NE(two[0], two[1]);
}

TEST(LaneLoops, LeavingLoopsForgetsThem) {
  Loops lane;
  EXPECT_EQ(lane.iterationHash(at(&kEnd)), 0u);
  runNest(lane, {3});
  EXPECT_EQ(lane.iterationHash(at(&kEnd)), 0u);
  // In the outer loop after the inner one: only the outer iteration counts.
  Loops other;
  other.enterHeader(&kOuter, at(&kOuterHead));
  lane.clear();
  lane.enterHeader(&kOuter, at(&kOuterHead));
  lane.enterHeader(&kInner, at(&kInnerHead));
  lane.enterHeader(&kInner, at(&kInnerHead));
  EXPECT_EQ(lane.iterationHash(at(&kAfter)), other.iterationHash(at(&kAfter)));
}

TEST(LaneLoops, CalleeLoopsBelongToTheirCall) {
  // A caller loop calls a helper with a loop; the call's block stands for the caller's level.
  Loops lane;
  lane.enterHeader(&kCaller, at(&kOuterHead));
  const Loops::Frames viaCall{{&kCallBlock, 0}, {&kHelperHead, 7}};
  lane.enterHeader(&kHelper, viaCall);
  lane.enterHeader(&kHelper, viaCall);
  const uint64_t second = lane.iterationHash({{&kCallBlock, 0}, {&kHelperBody, 7}});
  // The same helper reached through another call starts its loop afresh.
  const Loops::Frames viaOtherCall{{&kCallBlock, 0}, {&kHelperHead, 9}};
  lane.enterHeader(&kHelper, viaOtherCall);
  const uint64_t first = lane.iterationHash({{&kCallBlock, 0}, {&kHelperBody, 9}});
  Loops fresh;
  fresh.enterHeader(&kCaller, at(&kOuterHead));
  fresh.enterHeader(&kHelper, viaOtherCall);
  EXPECT_EQ(first, fresh.iterationHash({{&kCallBlock, 0}, {&kHelperBody, 9}}));
  EXPECT_NE(first, second);
  // Back in the caller, the helper's loop is gone.
  Loops callerOnly;
  callerOnly.enterHeader(&kCaller, at(&kOuterHead));
  EXPECT_EQ(lane.iterationHash(at(&kCallBlock)), callerOnly.iterationHash(at(&kCallBlock)));
}

// --- The counters file.

TEST(CountersJson, HasTheAgreedShape) {
  KernelTallies kernels;
  KernelTally& k = kernels["Convolution"];
  k.invocations = 2;
  k.workGroups = 8;
  k.global.loads = 5;
  k.local.atomics = 3;
  k.lines[LineKey{31, AccessKind::Store, Phase::Load}] = BankTally{16, 32, 16};
  k.lines[LineKey{40, AccessKind::Load, Phase::Compute}] = BankTally{10, 10, 0};
  k.lines[LineKey{12, AccessKind::Atomic, Phase::Compute}] = BankTally{4, 24, 20};
  BankModel model;
  model.banks = 16;
  const nlohmann::json j = nlohmann::json::parse(countersJson(model, kernels));

  EXPECT_EQ(j["model"], (nlohmann::json{{"banks", 16}, {"bank_bytes", 4}, {"warp_size", 32}}));
  ASSERT_EQ(j["kernels"].size(), 1u);
  const nlohmann::json& c = j["kernels"][0];
  EXPECT_EQ(c["name"], "Convolution");
  EXPECT_EQ(c["invocations"], 2);
  EXPECT_EQ(c["work_groups"], 8);
  EXPECT_EQ(
      c["global"],
      (nlohmann::json{
          {"loads", 5}, {"stores", 0}, {"atomics", 0}, {"load_bytes", 0}, {"shared_loads", 0}, {"atomics_added", 0}}));
  EXPECT_EQ(c["local"]["atomics"], 3);
  EXPECT_EQ(c["bank"]["store"], (nlohmann::json{{"requests", 16}, {"wavefronts", 32}, {"conflicts", 16}}));
  EXPECT_EQ(c["bank"]["load"]["requests"], 10);
  EXPECT_EQ(c["phases"]["load"]["store"]["conflicts"], 16);
  EXPECT_EQ(c["phases"]["compute"]["store"]["requests"], 0);
  EXPECT_EQ(c["phases"]["compute"]["atomic"]["wavefronts"], 24);
  // Only conflicting lines, most conflicts first.
  ASSERT_EQ(c["lines"].size(), 2u);
  EXPECT_EQ(c["lines"][0], (nlohmann::json{{"line", 12},
                                           {"kind", "atomic"},
                                           {"phase", "compute"},
                                           {"requests", 4},
                                           {"wavefronts", 24},
                                           {"conflicts", 20}}));
  EXPECT_EQ(c["lines"][1]["line"], 31);
}

TEST(CountersJson, OddKernelNamesStayValidJson) {
  KernelTallies kernels;
  kernels["we\"ird\\name\n"].invocations = 1;
  const nlohmann::json j = nlohmann::json::parse(countersJson(BankModel{}, kernels));
  EXPECT_EQ(j["kernels"][0]["name"], "we\"ird\\name\n");
}

// The counters file used to be written as <path>.tmp.<pid> and renamed: a 255-byte name made that
// temporary name longer than NAME_MAX, and the file was never written. It now goes through the
// checked writer, whose temporary name is short.
TEST(CountersJson, TheFileIsReplacedWholeWhateverTheNameLength) {
  const std::filesystem::path dir = test::freshFolder("clgrade_counters_replace", "files");
  KernelTallies kernels;
  kernels["first"].invocations = 1;
  for (const std::string& name : {std::string("counters.json"), std::string(255, 'c')}) {
    SCOPED_TRACE(name.size());
    const std::string path = (dir / name).string();
    std::string error;
    ASSERT_TRUE(writeCountersFile(path, BankModel{}, kernels, &error)) << error;
    kernels["second"].invocations = 2;
    ASSERT_TRUE(writeCountersFile(path, BankModel{}, kernels, &error)) << error;
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, countersJson(BankModel{}, kernels));
    kernels.erase("second");
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 2);
  std::string error;
  const std::string missing = (dir / "missing" / "x.json").string();
  EXPECT_FALSE(writeCountersFile(missing, BankModel{}, kernels, &error));
  EXPECT_NE(error.find(missing), std::string::npos) << error;
}

}  // namespace
}  // namespace clgrade::counters
