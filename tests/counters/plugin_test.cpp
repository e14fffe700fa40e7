// The Oclgrind plugin on small kernels with known answers (32 banks of 4 bytes, warps of 32 unless
// a test says otherwise). Each run is a child process: counter_probe launches one kernel under
// Oclgrind, the plugin writes counters.json, the test reads it. Kernels: tests/counters/kernels.
#include <gtest/gtest.h>

#include <filesystem>

#include "../test_env.h"
#include "probe_runner.h"

namespace clgrade::test {
namespace {

using nlohmann::json;

const std::string kKernels = COUNTER_KERNELS;
const std::string kPatterns = kKernels + "/patterns.cl";
const std::string kTile = kKernels + "/halo_tile.cl";
const std::string kLanes = kKernels + "/lanes.cl";

/// The kernel's entry after a run; a failure (with the probe's output) and null when it did not run.
json entryOf(const ProbeRun& run, const std::string& kernel) {
  if (run.status != 0) {
    ADD_FAILURE() << "counter_probe exited " << run.status << ":\n" << run.output;
    return nullptr;
  }
  // The plugin warns on stderr when its assumptions break (file not written, lanes out of order).
  EXPECT_EQ(run.output.find("clgrade_oclgrind:"), std::string::npos) << run.output;
  const json k = kernelEntry(run.counters, kernel);
  if (k.is_null()) ADD_FAILURE() << "no entry for " << kernel << " in " << run.dir << "/counters.json:\n" << run.output;
  return k;
}

/// 1-D launch of `kernel` over 128 work-items in groups of 64: 2 groups, 2 warps each.
json launch64(const std::string& file, const std::string& kernel, const std::vector<std::string>& kernelArgs,
              const std::string& options = "", const std::map<std::string, std::string>& env = {}) {
  std::vector<std::string> args;
  if (!options.empty()) args = {"--options", options};
  for (const std::string& a : {file, kernel, std::string("128"), std::string("64")}) args.push_back(a);
  args.insert(args.end(), kernelArgs.begin(), kernelArgs.end());
  return entryOf(runProbe(args, env), kernel);
}

using Triple = std::vector<long>;
const Triple kNone{0, 0, 0};

// --- Access patterns: each stored before the barrier and loaded after it, with the same cost.

struct StrideCase {
  int stride;
  long conflictsPerRequest;
};

void PrintTo(const StrideCase& c, std::ostream* os) {
  *os << "stride " << c.stride << ", " << c.conflictsPerRequest << " conflicts a request";
}

class Stride : public ::testing::TestWithParam<StrideCase> {};

TEST_P(Stride, CostsTheSameForStoresAndLoads) {
  const StrideCase c = GetParam();
  const json k =
      launch64(kPatterns, "Stride", {"512", std::to_string(256 * c.stride)}, "-D STRIDE=" + std::to_string(c.stride));
  ASSERT_FALSE(k.is_null());
  // 4 requests (2 groups x 2 warps); each takes 1 + conflicts wavefronts.
  const Triple want{4, 4 * (1 + c.conflictsPerRequest), 4 * c.conflictsPerRequest};
  EXPECT_EQ(triple(k["bank"]["store"]), want);
  EXPECT_EQ(triple(k["bank"]["load"]), want);
  EXPECT_EQ(triple(k["bank"]["atomic"]), kNone);
  EXPECT_EQ(k["lines"].size(), c.conflictsPerRequest ? 2u : 0u) << k["lines"];
}

// Stride 1: 32 banks once each. 2: two words in each even bank. 32: all in bank 0. 33: odd, free.
INSTANTIATE_TEST_SUITE_P(Patterns, Stride,
                         ::testing::Values(StrideCase{1, 0}, StrideCase{2, 1}, StrideCase{32, 31}, StrideCase{33, 0}),
                         [](const auto& info) { return "stride" + std::to_string(info.param.stride); });

TEST(Patterns, BroadcastOfOneWordIsFree) {
  const json k = launch64(kPatterns, "Broadcast", {"512", "256"});
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(triple(k["bank"]["load"]), (Triple{4, 4, 0}));
}

TEST(Patterns, TwoWordsInOneBankConflictOnce) {
  const json k = launch64(kPatterns, "TwoWordsOneBank", {"512", "256"});
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(triple(k["bank"]["load"]), (Triple{4, 8, 4}));
}

TEST(Patterns, ConsecutiveFloat4IsFree) {
  // 4 words a lane: 128 words, 4 in each bank, 4 wavefronts, all of them needed.
  const json k = launch64(kPatterns, "Float4", {"2048", "1024"}, "-D STRIDE=1");
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(triple(k["bank"]["store"]), (Triple{4, 16, 0}));
  EXPECT_EQ(triple(k["bank"]["load"]), (Triple{4, 16, 0}));
}

TEST(Patterns, Float4WithStride2UsesHalfTheBanks) {
  // 16 banks with 8 words each: 8 wavefronts where 4 would do.
  const json k = launch64(kPatterns, "Float4", {"2048", "2048"}, "-D STRIDE=2");
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(triple(k["bank"]["store"]), (Triple{4, 32, 16}));
  EXPECT_EQ(triple(k["bank"]["load"]), (Triple{4, 32, 16}));
}

// --- The 3x3 tile with its halo, 4 groups of 32x16 (64x32 work-items).

json launchTile(int tileWidth) {
  return entryOf(runProbe({"--options", "-D TILE_W=" + std::to_string(tileWidth), kTile, "HaloTile", "64x32", "32x16",
                           "8192", "8192"}),
                 "HaloTile");
}

TEST(HaloTile, DenseTileColumnStoresConflictTwicePerGroup) {
  const json k = launchTile(34);
  ASSERT_FALSE(k.is_null());
  // Per group: 16 interior rows + 2 halo rows (1 wavefront each) + 2 halo columns (18 words in
  // 16 banks: 2 wavefronts, 1 conflict each) = 20 requests, 22 wavefronts, 2 conflicts.
  EXPECT_EQ(k["work_groups"], 4);
  EXPECT_EQ(triple(k["phases"]["load"]["store"]), (Triple{80, 88, 8}));
  // Nine reads a lane, each a warp reading 32 consecutive words of one row.
  EXPECT_EQ(triple(k["phases"]["compute"]["load"]), (Triple{576, 576, 0}));
  EXPECT_EQ(triple(k["phases"]["load"]["load"]), kNone);
  EXPECT_EQ(triple(k["phases"]["compute"]["store"]), kNone);
  // Every conflict is on the column store's line, found without -g.
  ASSERT_EQ(k["lines"].size(), 1u) << k["lines"];
  const json& line = k["lines"][0];
  EXPECT_EQ(line["line"], lineOf(kTile, "HALO-COLUMN-STORE"));
  EXPECT_EQ(line["kind"], "store");
  EXPECT_EQ(line["phase"], "load");
  EXPECT_EQ(triple(line), (Triple{8, 16, 8}));
}

TEST(HaloTile, PaddedTileIsConflictFree) {
  const json k = launchTile(35);
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(triple(k["bank"]["store"]), (Triple{80, 80, 0}));
  EXPECT_EQ(triple(k["bank"]["load"]), (Triple{576, 576, 0}));
  EXPECT_TRUE(k["lines"].empty()) << k["lines"];
}

TEST(HaloTile, ReferenceConvolution3x3IsConflictFree) {
  // The instructor's kernel on 100x37: groups of 128x2 (its reqd_work_group_size), one in four working
  // on a strip of 8 rows (a linear cooperative load of 10 x 130 words), the others returning at once.
  const std::string file = sourceDir() + "/reference/kernels/Convolution3x3.cl";
  const std::string bytes = std::to_string(128 * 48 * 4);
  const json k = entryOf(runProbe({file, "Convolution", "128x38", "128x2", bytes, bytes, "44", "100", "37", "128"}),
                         "Convolution");
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(k["work_groups"], 19);
  const Triple store = triple(k["phases"]["load"]["store"]);
  ASSERT_EQ(store.size(), 3u);
  EXPECT_GT(store[0], 0);
  EXPECT_EQ(store[2], 0);  // no bank conflicts in the tile load
  const Triple load = triple(k["phases"]["compute"]["load"]);
  ASSERT_EQ(load.size(), 3u);
  EXPECT_GT(load[0], 0);
  EXPECT_EQ(load[2], 0);
  EXPECT_TRUE(k["lines"].empty()) << k["lines"];
}

// --- Pairing, kinds, phases, access counts.

TEST(Lanes, UnevenLoopPairsLanesByOccurrence) {
  const json k = launch64(kLanes, "UnevenLoop", {"512", "512"});
  ASSERT_FALSE(k.is_null());
  // 3 iterations per warp, 4 warps: 12 requests, one word per bank in each.
  EXPECT_EQ(triple(k["bank"]["store"]), (Triple{12, 12, 0}));
  // Lanes with l % 3 == 0, 1, 2 store 1, 2, 3 times: (22 + 42 + 63) per group.
  EXPECT_EQ(k["local"]["stores"], 2 * 127);
}

TEST(Lanes, NestedLoopsPairLanesByIterationOfEachLoop) {
  const json k = launch64(kLanes, "NestedLoops", {"512", "544"});
  ASSERT_FALSE(k.is_null());
  // 4 requests a warp, 4 warps, all conflict-free.
  EXPECT_EQ(triple(k["bank"]["store"]), (Triple{16, 16, 0}));
}

TEST(Lanes, OneInstructionFromTwoCallSitesIsTwoRequests) {
  const json k = launch64(kLanes, "TwoCallSites", {"512", "512"});
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(triple(k["bank"]["store"]), (Triple{8, 12, 4}));
  // The line is the helper's store, where the access is, not the call.
  ASSERT_EQ(k["lines"].size(), 1u) << k["lines"];
  EXPECT_EQ(k["lines"][0]["line"], lineOf(kLanes, "HELPER-STORE"));
}

TEST(Lanes, LoadsStoresAndAtomicsAreCountedApart) {
  const json k = launch64(kLanes, "Kinds", {"512", "1024"});
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(triple(k["bank"]["store"]), (Triple{4, 8, 4}));
  EXPECT_EQ(triple(k["bank"]["load"]), (Triple{4, 16, 12}));
  EXPECT_EQ(triple(k["bank"]["atomic"]), (Triple{4, 8, 4}));
  // An atomic is one access, though Oclgrind reports it as a load and a store.
  EXPECT_EQ(accesses(k["local"]), (std::vector<long>{128, 128, 128}));
}

TEST(Lanes, PhasesSplitAtTheFirstBarrier) {
  const json k = launch64(kLanes, "Phases", {"512", "512"});
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(triple(k["phases"]["load"]["store"]), (Triple{4, 8, 4}));
  EXPECT_EQ(triple(k["phases"]["load"]["load"]), kNone);
  // After the first barrier: the stride-2 load (8 wavefronts, 4 conflicts), a consecutive store
  // and a consecutive load (4 each), across two more barriers.
  EXPECT_EQ(triple(k["phases"]["compute"]["load"]), (Triple{8, 12, 4}));
  EXPECT_EQ(triple(k["phases"]["compute"]["store"]), (Triple{4, 4, 0}));
  ASSERT_EQ(k["lines"].size(), 2u) << k["lines"];
  for (const json& line : k["lines"]) {
    const bool store = line["kind"] == "store";
    EXPECT_EQ(line["phase"], store ? "load" : "compute");
    EXPECT_EQ(line["line"], lineOf(kLanes, store ? "PHASE-LOAD-STORE" : "PHASE-COMPUTE-LOAD"));
    EXPECT_EQ(triple(line), (Triple{4, 8, 4}));
  }
}

TEST(Lanes, AccessesAreCountedPerAddressSpace) {
  // a: 129 floats, hist: 4 ints, c: 4 floats, buf: 64 floats.
  const json k = launch64(kLanes, "Counts", {"516", "16", "16", "256"});
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(k["invocations"], 1);
  EXPECT_EQ(k["work_groups"], 2);
  // Per work-item: global 2 loads, 1 store, 1 atomic; the __constant load apart (Oclgrind keeps both
  // in one memory, the pointer's address space tells them apart).
  EXPECT_EQ(accesses(k["global"]), (std::vector<long>{2 * 128, 128, 128}));
  EXPECT_EQ(accesses(k["constant"]), (std::vector<long>{128, 0, 0}));
  EXPECT_EQ(k["group_size"], json::array({64, 1, 1}));
  // Local: even lanes load once; every lane stores once and lane 0 once more; one atomic each.
  EXPECT_EQ(accesses(k["local"]), (std::vector<long>{64, 130, 128}));
}

TEST(Lanes, AsyncCopiesAreAccessesWithoutRequests) {
  const json k = launch64(kLanes, "AsyncCopy", {"512", "512", "256"});
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(accesses(k["global"]), (std::vector<long>{128, 128, 0}));
  EXPECT_EQ(accesses(k["local"]), (std::vector<long>{128, 128, 0}));
  EXPECT_EQ(triple(k["bank"]["store"]), kNone);
  EXPECT_EQ(triple(k["phases"]["compute"]["load"]), (Triple{4, 4, 0}));
}

// Spec 5c: a tile's loads read what other work-items stored; a histogram's atomics add the pixels.
TEST(Lanes, LoadsOfOthersStoresAndWhatAtomicsAddAreCounted) {
  const json k = launch64(kLanes, "Sharing", {"512", "256", "16"});
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(k["local"]["loads"], 2 * 128);
  EXPECT_EQ(k["local"]["shared_loads"], 128);  // the neighbour's word, not the lane's own
  EXPECT_EQ(k["local"]["atomics"], 3 * 128);
  EXPECT_EQ(k["local"]["atomics_added"], 4 * 128);  // 0 + 1 + 3 a lane
}

// Spec 5c, found by a gaming corpus: a kernel used its tile only where `(ulong)d_Src >> 47` said the
// simulator ran it. Reading a pointer's value is what the plugin reports; pointers only stored,
// loaded and compared with null are not.
TEST(Lanes, APointersValueReadIsReported) {
  const json none = launch64(kLanes, "PointerNone", {"512"});
  ASSERT_FALSE(none.is_null());
  EXPECT_EQ(none["pointer_value_read"], false);
  for (const char* kernel : {"PointerCast", "PointerUnion", "PointerLowBits"}) {
    const json k = launch64(kLanes, kernel, {"512"});
    ASSERT_FALSE(k.is_null());
    EXPECT_EQ(k["pointer_value_read"], true) << kernel;
  }
  const json apart = launch64(kLanes, "PointerApart", {"512", "512"});
  ASSERT_FALSE(apart.is_null());
  EXPECT_EQ(apart["pointer_value_read"], true);
  // Offsets within one object and a buffer's alignment read no address (found by an honest corpus).
  const json offsets = launch64(kLanes, "PointerOffsets", {"512"});
  ASSERT_FALSE(offsets.is_null());
  EXPECT_EQ(offsets["pointer_value_read"], false);
}

// What a lane's local atomics add counts at most the global words it read, and never below 0.
TEST(Lanes, WhatALaneAddsCountsAtMostWhatItRead) {
  const json k = launch64(kLanes, "HugeAdd", {"512", "16"});
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(k["local"]["atomics"], 2 * 3);
  EXPECT_EQ(k["local"]["atomics_added"], 2 * 1);  // lane 0: one word read; lane 1: none; lane 2: below 0
}

// Found by an honest corpus: an async copy's reads count for the group (at most once), and a swap
// that succeeds adds what it adds.
TEST(Lanes, AnAsyncCopysReadsAndSwapsCount) {
  const json staged = launch64(kLanes, "StagedAdds", {"512", "256"});
  ASSERT_FALSE(staged.is_null());
  EXPECT_EQ(staged["local"]["atomics_added"], 2 * 64);  // 128 a group asked, 64 words copied
  const json swaps = launch64(kLanes, "SwapAdds", {"512", "256"});
  ASSERT_FALSE(swaps.is_null());
  EXPECT_EQ(swaps["local"]["atomics_added"], 128);  // one swap a lane succeeds
}

// Found by a gaming corpus: what may make the simulated run not the device's, each said with its line.
TEST(Lanes, WhatTheSimulatorCannotVouchForIsReported) {
  const std::map<std::string, std::pair<std::string, bool>> expected{
      {"UnsetLocal", {"unset_local", true}},
      {"Float3Local", {"unset_local", false}},
      {"FloatOverflow", {"undefined_operation", true}},
      {"ConvertOverflow", {"undefined_operation", true}},
      {"Kinds", {"undefined_operation", false}},
      {"ExchangeApart", {"order_dependent_write", true}},
      {"ExchangeAlike", {"order_dependent_write", false}},
      // Found by a review.
      {"AtomicOnUnset", {"unset_local", true}},
      {"ByteOfAWord", {"unset_local", true}},
      {"LocalAddressBits", {"pointer_value", true}},
      {"LockByExchange", {"order_dependent_write", false}}};
  for (const auto& [kernel, what] : expected) {
    const json k = launch64(
        kLanes, kernel, kernel == "Kinds" ? std::vector<std::string>{"512", "1024"} : std::vector<std::string>{"512"});
    ASSERT_FALSE(k.is_null()) << kernel;
    EXPECT_EQ(k[what.first + "_read"], what.second) << kernel;
    if (what.second) {
      EXPECT_GT(k[what.first + "_line"].get<int>(), 0) << kernel;
    }
  }
}

// --- Accumulation, model and threads.

TEST(Accumulation, TwoLaunchesAddUp) {
  const json once = launch64(kLanes, "Kinds", {"512", "1024"});
  const ProbeRun twiceRun = runProbe({"--launches", "2", kLanes, "Kinds", "128", "64", "512", "1024"});
  const json twice = entryOf(twiceRun, "Kinds");
  ASSERT_FALSE(once.is_null());
  ASSERT_FALSE(twice.is_null());
  EXPECT_EQ(twice["invocations"], 2);
  EXPECT_EQ(twice["work_groups"], 4);
  for (const char* space : {"global", "local"})
    for (const char* field : {"loads", "stores", "atomics"})
      EXPECT_EQ(twice[space][field], 2 * once[space][field].get<long>()) << space << "." << field;
  for (const char* phase : {"load", "compute"})
    for (const char* kind : {"load", "store", "atomic"})
      for (const char* field : {"requests", "wavefronts", "conflicts"})
        EXPECT_EQ(twice["phases"][phase][kind][field], 2 * once["phases"][phase][kind][field].get<long>())
            << phase << "." << kind << "." << field;
  // The file is replaced whole through a temporary file, which must not be left behind.
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(twiceRun.dir)) files += entry.is_regular_file();
  EXPECT_EQ(files, 1u);
}

TEST(Model, BankCountFromTheEnvironment) {
  // Stride 2 over 16 banks: 8 banks with 4 words; 32 words need 2 wavefronts anyway: 2 conflicts.
  const ProbeRun run =
      runProbe({"--options", "-D STRIDE=2", kPatterns, "Stride", "128", "64", "512", "512"}, {{"CLGRADE_BANKS", "16"}});
  const json k = entryOf(run, "Stride");
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(run.counters["model"]["banks"], 16);
  EXPECT_EQ(triple(k["bank"]["store"]), (Triple{4, 16, 8}));
}

TEST(Model, BankWidthFromTheEnvironment) {
  // 8-byte banks: lane l's float at 8l is word l; stride 2 becomes conflict-free.
  const ProbeRun run = runProbe({"--options", "-D STRIDE=2", kPatterns, "Stride", "128", "64", "512", "512"},
                                {{"CLGRADE_BANK_BYTES", "8"}});
  const json k = entryOf(run, "Stride");
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(run.counters["model"]["bank_bytes"], 8);
  EXPECT_EQ(triple(k["bank"]["store"]), (Triple{4, 4, 0}));
}

TEST(Model, WarpSizeFromTheEnvironment) {
  // Warps of 64: one request a group, 64 consecutive words in 32 banks: 2 wavefronts, both needed.
  const ProbeRun run = runProbe({kPatterns, "Stride", "128", "64", "512", "256"}, {{"CLGRADE_WARP_SIZE", "64"}});
  const json k = entryOf(run, "Stride");
  ASSERT_FALSE(k.is_null());
  EXPECT_EQ(run.counters["model"]["warp_size"], 64);
  EXPECT_EQ(triple(k["bank"]["store"]), (Triple{2, 4, 0}));
}

TEST(Threads, OneOrTwoWorkerThreadsCountTheSame) {
  const std::vector<std::string> args{kTile, "HaloTile", "64x32", "32x16", "8192", "8192"};
  const ProbeRun one = runProbe(args, {{"OCLGRIND_NUM_THREADS", "1"}});
  const ProbeRun two = runProbe(args, {{"OCLGRIND_NUM_THREADS", "2"}});
  ASSERT_FALSE(entryOf(one, "HaloTile").is_null());
  ASSERT_FALSE(entryOf(two, "HaloTile").is_null());
  EXPECT_EQ(one.counters, two.counters);
}

}  // namespace
}  // namespace clgrade::test
