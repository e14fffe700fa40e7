// The PTX counters' instrumentation (counters/nvidia/ptx_accesses.h) on PTX text, and the warp-wide
// arithmetic it emits, followed here lane by lane, against the simulator's bank model. Whether the
// GPU runs it as followed here is ptx_accesses_gpu_test's (an NVIDIA GPU only).
#include "counters/nvidia/ptx_accesses.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "counters/nvidia/ncu_csv.h"
#include "counters/oclgrind/bank_model.h"
#include "util/files.h"

namespace clgrade {
namespace {

std::string countOf(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return std::to_string(n);
}

std::string withoutNuls(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '\0'), s.end());
  return s;
}

// NVIDIA's own PTX of the reference 3x3 convolution: its tile stores, tap loads and global loads.
TEST(PtxAccesses, EverySharedAccessAndGlobalLoadOfTheConvolutionIsCounted) {
  std::string ptx, err, out;
  ASSERT_TRUE(readFile(std::string(NVIDIA_TEST_DATA) + "/convolution3x3_sm90.ptx", &ptx, &err)) << err;
  ptx = withoutNuls(ptx);
  std::vector<PtxAccessSite> sites;
  int slots = 0;
  ASSERT_TRUE(instrumentPtxAccesses(ptx, &out, &sites, &slots, &err)) << err;
  int stores = 0, loads = 0, global = 0;
  for (const PtxAccessSite& s : sites) {
    EXPECT_EQ(s.entry, "Convolution");
    EXPECT_EQ(s.bytes, 4) << s.text;
    stores += s.kind == PtxAccessKind::SharedStore;
    loads += s.kind == PtxAccessKind::SharedLoad;
    global += s.kind == PtxAccessKind::GlobalLoad;
  }
  EXPECT_EQ(stores, 5);  // the tile and its halo
  EXPECT_EQ(loads, 9);   // the taps
  // The tile's 5 global reads and the 11 weights read through their __constant pointer (a register:
  // as a __constant alias of the image would be read); ld.param is not counted.
  EXPECT_EQ(global, 5 + 11);
  EXPECT_EQ(slots, 2 * 30);
  EXPECT_NE(out.find(".global .align 8 .u64 __clgrade_accesses[60];"), std::string::npos);
  // One block before each counted instruction, which stays as it was.
  EXPECT_EQ(countOf(out, "{ // clgrade: counts the next instruction"), "30");
  EXPECT_NE(out.find("\t}\n\tst.shared.f32 \t[%rd31+2048], %f48;"), std::string::npos);
  EXPECT_NE(out.find("add.s64 \t%clg_a, %rd31, 2048;"), std::string::npos);
  EXPECT_NE(out.find("\t}\n\tld.global.f32 \t%f46, [%rd14];"), std::string::npos);
  EXPECT_EQ(countOf(out, "match.any.sync.b64"), "16") << "one per global load";
  EXPECT_EQ(countOf(out, "ld.const.f32"), countOf(ptx, "ld.const.f32"));
}

const char* const kModule = R"(.version 9.0
.target sm_90, texmode_independent
.address_size 64

.entry k(
	.param .u64 .ptr .global .align 4 k_param_0
)
{
	.reg .pred 	%p<3>;
	.reg .f32 	%f<9>;
	.reg .b32 	%r<18>;
	.reg .b64 	%rd<9>;
	.shared .align 16 .b8 k_$_tile[2048];

	@!%p2 st.shared.v4.f32 	[%r3+16], {%f1, %f2, %f3, %f4};
	ld.f32 	%f5, [%rd4];
	st.u32 	[%rd5+-4], %r4;
	ld.shared.u8 	%r6, [k_$_tile+3];
	st.global.f32 	[%rd6], %f5;
	ld.local.f32 	%f6, [%rd7];
	ret;
}
)";

TEST(PtxAccesses, GuardsWidthsGenericAddressesAndSymbols) {
  std::string out, err;
  std::vector<PtxAccessSite> sites;
  int slots = 0;
  ASSERT_TRUE(instrumentPtxAccesses(kModule, &out, &sites, &slots, &err)) << err;
  ASSERT_EQ(sites.size(), 4u) << "global stores and private memory are not counted";
  EXPECT_EQ(sites[0].kind, PtxAccessKind::SharedStore);
  EXPECT_EQ(sites[0].bytes, 16);
  EXPECT_EQ(sites[1].kind, PtxAccessKind::GenericLoad);
  EXPECT_EQ(sites[2].kind, PtxAccessKind::GenericStore);
  EXPECT_EQ(sites[3].kind, PtxAccessKind::SharedLoad);
  EXPECT_EQ(sites[3].bytes, 1);
  EXPECT_EQ(slots, 2 + 4 + 2 + 2);
  EXPECT_EQ(sites[2].slot, 6);
  // The guard decides which lanes access; a 32-bit address is widened; a float4 is four words.
  EXPECT_NE(out.find("not.pred \t%clg_on0, %p2;"), std::string::npos);
  EXPECT_NE(out.find("cvt.u64.u32 \t%clg_a, %r3;\n\tadd.s64 \t%clg_a, %clg_a, 16;"), std::string::npos);
  EXPECT_NE(out.find("add.u32 \t%clg_t, %clg_w, 3;"), std::string::npos);
  // A generic address: where it lies decides what it counts as.
  EXPECT_NE(out.find("isspacep.shared \t%clg_q, %clg_a;"), std::string::npos);
  EXPECT_NE(out.find("isspacep.global \t%clg_q, %clg_a;"), std::string::npos);
  EXPECT_NE(out.find("add.s64 \t%clg_a, %rd5, -4;"), std::string::npos);
  EXPECT_NE(out.find("mov.u64 \t%clg_a, k_$_tile;\n\tadd.s64 \t%clg_a, %clg_a, 3;"), std::string::npos);
}

// A helper the compiler did not inline (a .func) has its accesses counted like the kernel's own.
TEST(PtxAccesses, AHelpersAccessesAreCountedAndNamedByTheirFunction) {
  const std::string module = std::string(kModule).replace(
      std::string(kModule).find(".entry k("), 0,
      ".func helper(\n\t.param .b64 helper_param_0\n)\n{\n\t.reg .b64 \t%rd<3>;\n\tld.param.u64 \t%rd1, "
      "[helper_param_0];\n\tst.shared.u32 \t[%rd1], 0;\n\tret;\n}\n\n");
  std::string out, err;
  std::vector<PtxAccessSite> sites;
  int slots = 0;
  ASSERT_TRUE(instrumentPtxAccesses(module, &out, &sites, &slots, &err)) << err;
  ASSERT_EQ(sites.size(), 5u);
  EXPECT_EQ(sites[0].entry, "helper");
  EXPECT_EQ(sites[0].kind, PtxAccessKind::SharedStore);
  EXPECT_EQ(sites[1].entry, "k");
}

// NVIDIA's compiler splits a vload4 it cannot prove aligned into four scalar loads of one address
// (the conv_float4 kernel's tile: 4 requests where the vector load is 1). The later parts are marked,
// and counted only where some lane's 16 bytes are not aligned; loads that only look alike are not.
TEST(PtxAccesses, AVectorLoadTheCompilerSplitIsCountedAsOneWhereItsLanesAreAligned) {
  auto sitesOf = [](const std::string& loads, std::string* out) {
    std::string module = kModule, err;
    const std::string line = "ld.f32 \t%f5, [%rd4];";
    module.replace(module.find(line), line.size(), loads);
    std::vector<PtxAccessSite> sites;
    int slots = 0;
    EXPECT_TRUE(instrumentPtxAccesses(module, out, &sites, &slots, &err)) << err;
    std::vector<PtxAccessSite> global;
    for (const PtxAccessSite& s : sites)
      if (s.kind == PtxAccessKind::GlobalLoad) global.push_back(s);
    return global;
  };
  std::string out;
  const std::vector<PtxAccessSite> four = sitesOf(
      "ld.global.f32 \t%f1, [%rd8];\n\tld.global.f32 \t%f2, [%rd8+4];\n\tld.global.f32 \t%f3, [%rd8+8];\n"
      "\tld.global.f32 \t%f4, [%rd8+12];",
      &out);
  ASSERT_EQ(four.size(), 4u);
  EXPECT_EQ(four[0].splitFrom, 0);
  for (int j = 1; j < 4; ++j) {
    EXPECT_EQ(four[j].splitFrom, four[0].line);
    EXPECT_EQ(four[j].splitSpan, 16);
    EXPECT_EQ(four[j].splitPart, j);
  }
  // Each later part asks whether any lane's vector (its address less the part's offset) is not
  // 16-byte aligned, and counts only then.
  EXPECT_NE(
      out.find("sub.s64 \t%clg_s, %clg_a, 8;\n\tand.b64 \t%clg_s, %clg_s, 15;\n"
               "\tsetp.ne.and.u64 \t%clg_q, %clg_s, 0, %clg_on0;\n\tvote.sync.any.pred \t%clg_q, %clg_q, %clg_m;"),
      std::string::npos);
  EXPECT_EQ(countOf(out, "setp.ne.and.u64"), "3");
  // Two parts of 8 bytes (a float4 as two float2), and a guarded pair.
  const std::vector<PtxAccessSite> halves = sitesOf(
      "@%p1 ld.global.v2.f32 \t{%f1, %f2}, [%rd8+-16];\n\t@%p1 ld.global.v2.f32 \t{%f3, %f4}, [%rd8+-8];", &out);
  ASSERT_EQ(halves.size(), 2u);
  EXPECT_EQ(halves[1].splitSpan, 16);
  // A 3x3 kernel's taps from global memory (-4, 0, +4): at most a pair of 8 bytes, which its lanes,
  // 4 bytes apart, never all align; the third tap stands alone.
  const std::vector<PtxAccessSite> taps = sitesOf(
      "ld.global.f32 \t%f1, [%rd8+-4];\n\tld.global.f32 \t%f2, [%rd8];\n\tld.global.f32 \t%f3, [%rd8+4];", &out);
  ASSERT_EQ(taps.size(), 3u);
  EXPECT_EQ(taps[1].splitSpan, 8);
  EXPECT_EQ(taps[2].splitFrom, 0);
  // Not one vector: another register, a gap, another guard, another width, a part that writes the
  // address, a line between.
  for (const char* loads :
       {"ld.global.f32 \t%f1, [%rd8];\n\tld.global.f32 \t%f2, [%rd7+4];",
        "ld.global.f32 \t%f1, [%rd8];\n\tld.global.f32 \t%f2, [%rd8+8];",
        "ld.global.f32 \t%f1, [%rd8];\n\t@%p1 ld.global.f32 \t%f2, [%rd8+4];",
        "ld.global.u16 \t%r1, [%rd8];\n\tld.global.f32 \t%f2, [%rd8+2];",
        "ld.global.u64 \t%rd8, [%rd8];\n\tld.global.u64 \t%rd7, [%rd8+8];",
        "ld.global.f32 \t%f1, [%rd8];\n\tadd.s64 \t%rd8, %rd8, 4;\n\tld.global.f32 \t%f2, [%rd8+4];"}) {
    for (const PtxAccessSite& s : sitesOf(loads, &out)) EXPECT_EQ(s.splitSpan, 0) << loads;
    EXPECT_EQ(countOf(out, "setp.ne.and.u64"), "0") << loads;
  }
}

// A tap read with atomic_or(p, 0) is a global read: an atomic that returns a value counts as a
// load, where it lies; a shared atomic writes a word, as a store (a tile stored with atomic_xchg has
// its conflicts); a red on global memory (no value) reads nothing a kernel sees.
TEST(PtxAccesses, AnAtomicThatReturnsAValueReadsMemory) {
  std::string module = kModule, out, err;
  const std::string line = "ld.f32 \t%f5, [%rd4];";
  module.replace(module.find(line), line.size(),
                 "atom.global.or.b32 \t%r1, [%rd8+4], 0;\n\tatom.shared.add.u32 \t%r2, [%r3], 1;\n"
                 "\tred.global.add.u32 \t[%rd4], 1;\n\tatom.add.u32 \t%r7, [%rd5], 1;\n"
                 "\t@%p1 atom.relaxed.gpu.global.cas.b64 \t%rd6, [%rd7], %rd1, %rd2;");
  std::vector<PtxAccessSite> sites;
  int slots = 0;
  ASSERT_TRUE(instrumentPtxAccesses(module, &out, &sites, &slots, &err)) << err;
  std::vector<std::string> atomics;
  for (const PtxAccessSite& s : sites)
    if (s.text.find("atom") != std::string::npos || s.text.find("red.global") != std::string::npos)
      atomics.push_back(s.text);
  ASSERT_EQ(atomics.size(), 4u) << "the global, shared, generic and guarded 64-bit atomics";
  ASSERT_GE(sites.size(), 5u);
  EXPECT_EQ(sites[1].kind, PtxAccessKind::GlobalLoad);
  EXPECT_EQ(sites[1].bytes, 4);
  EXPECT_EQ(sites[2].kind, PtxAccessKind::SharedStore);
  EXPECT_EQ(sites[3].kind, PtxAccessKind::GenericLoad);
  EXPECT_EQ(sites[4].kind, PtxAccessKind::GlobalLoad);
  EXPECT_EQ(sites[4].bytes, 8);
  EXPECT_NE(out.find("mov.pred \t%clg_on0, %p1;"), std::string::npos);
}

TEST(PtxAccesses, WhatItDoesNotFollowIsRefusedWithTheLine) {
  const std::string module = kModule;
  auto refused = [&](const std::string& from, const std::string& to) {
    std::string text = module, out, err;
    text.replace(text.find(from), from.size(), to);
    std::vector<PtxAccessSite> sites;
    int slots = 0;
    EXPECT_FALSE(instrumentPtxAccesses(text, &out, &sites, &slots, &err)) << to;
    return err;
  };
  const std::string line = "ld.f32 \t%f5, [%rd4];";
  EXPECT_NE(refused(line, "cp.async.ca.shared.global [%rd1], [%rd2], 16;").find("PTX line 16"), std::string::npos);
  EXPECT_NE(refused(line, "{ ld.shared.u32 %r1, [%r2]; }").find("not follow"), std::string::npos);
  EXPECT_NE(refused(line, "ld.shared::cluster.u32 \t%r1, [%r2];").find("not follow"), std::string::npos);
  EXPECT_NE(refused(line, "ld.shared.u32 \t%r1, [%q2];").find("%q2"), std::string::npos);
  EXPECT_NE(refused(line, "ld.f32 \t%f5, [k_$_tile];").find("not a register"), std::string::npos);
  EXPECT_NE(refused(line, "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r1}, [%r2];").find("not follow"),
            std::string::npos);
  EXPECT_NE(refused(".target sm_90", ".target sm_60").find("sm_70"), std::string::npos);
  EXPECT_EQ(refused(".target sm_90", ".target sm_60").rfind(kPtxItsOwnCode, 0), std::string::npos)
      << "an old GPU is the machine's, not the module's code";
  EXPECT_EQ(refused(line, "cp.async.ca.shared.global [%rd1], [%rd2], 16;").rfind(kPtxItsOwnCode, 0), 0u);
  // The student's own PTX, which may read the clock to tell the slower counted copy apart.
  EXPECT_NE(refused(line, "// begin inline asm\n\tmov.u64 \t%rd8, %clock64;\n\t// end inline asm").find("inline"),
            std::string::npos);
  EXPECT_NE(refused(line, "mov.u32 \t%r9, %clock;").find("%clock"), std::string::npos);
  EXPECT_NE(refused("k_$_tile", "__clgrade_accesses").find("already has a symbol"), std::string::npos);
}

TEST(PtxAccesses, ASitesCountsAddUpToTheProfilersMetrics) {
  std::vector<PtxAccessSite> sites(4);
  sites[0] = {"k", 1, "", PtxAccessKind::SharedStore, 4, 0};
  sites[1] = {"k", 2, "", PtxAccessKind::GenericLoad, 4, 2};
  sites[2] = {"k", 3, "", PtxAccessKind::GlobalLoad, 4, 6};
  sites[3] = {"helper", 4, "", PtxAccessKind::SharedLoad, 4, 8};  // a .func the kernel called
  const std::vector<unsigned long long> counts{10, 3, 20, 5, 7, 28, 4, 16, 9, 2};
  const std::vector<double> v = accessMetricValues(sites, counts);
  const std::vector<std::string> metrics = hardwareCounterMetrics();
  ASSERT_EQ(v.size(), metrics.size());
  auto metric = [&](const std::string& name) {
    return v[std::find(metrics.begin(), metrics.end(), name) - metrics.begin()];
  };
  EXPECT_EQ(metric("smsp__sass_inst_executed_op_shared_st.sum"), 10);
  EXPECT_EQ(metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), 3);
  EXPECT_EQ(metric("smsp__sass_inst_executed_op_shared_ld.sum"), 20 + 9) << "its helper's loads are its own";
  EXPECT_EQ(metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 5 + 2);
  EXPECT_EQ(metric("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 7 + 4);
  EXPECT_EQ(metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 28 + 16);
}

/// The emitted arithmetic for one warp instruction, lane by lane: slices of words, the leader of
/// each distinct word, the leaders of each bank, the most of any bank, less ceil(words / 32).
uint64_t conflictsAsEmitted(const std::vector<counters::LaneAccess>& lanes, const std::vector<bool>& on, int words) {
  uint32_t cmaxWarp = 0, distinct = 0;
  for (int j = 0; j < words; ++j) {
    std::vector<uint32_t> key(lanes.size());
    std::vector<bool> lead(lanes.size());
    for (size_t l = 0; l < lanes.size(); ++l)
      key[l] = on[l] ? uint32_t(lanes[l].address / 4 + j) & 0x7FFFFFFF : 0x80000000u | uint32_t(l);
    for (size_t l = 0; l < lanes.size(); ++l) {
      lead[l] = on[l];
      for (size_t o = 0; o < l; ++o)
        if (key[o] == key[l]) lead[l] = false;
      distinct += lead[l];
    }
    for (size_t l = 0; l < lanes.size(); ++l) {
      if (!lead[l]) continue;
      uint32_t same = 0;
      for (size_t o = 0; o < lanes.size(); ++o) same += lead[o] && (key[o] & 31) == (key[l] & 31);
      cmaxWarp = std::max(cmaxWarp, same);
    }
  }
  return cmaxWarp - (distinct + 31) / 32;
}

TEST(PtxAccesses, TheEmittedArithmeticIsTheSimulatorsBankModel) {
  std::mt19937 random(29);
  const counters::BankModel model;
  counters::CostScratch scratch;
  for (int trial = 0; trial < 4000; ++trial) {
    const int bytes = std::vector<int>{1, 2, 4, 8, 16, 32}[trial % 6];
    const int words = std::max(1, bytes / 4);
    const int stride = std::vector<int>{0, 1, 2, 3, 4, 8, 16, 17, 32, 33}[random() % 10];
    std::vector<counters::LaneAccess> lanes(32), active;
    std::vector<bool> on(32);
    for (int l = 0; l < 32; ++l) {
      // Strided, or anywhere in a 4 KiB tile; naturally aligned, as PTX asks.
      const uint64_t element = trial % 3 ? uint64_t(l) * stride : random() % (8192 / bytes);
      lanes[l] = {element * bytes + (trial % 7 == 0 ? 512 : 0), uint32_t(bytes)};
      on[l] = trial % 4 != 1 || random() % 3 != 0;  // some instructions run on some lanes only
      if (on[l]) active.push_back(lanes[l]);
    }
    if (active.empty()) continue;
    EXPECT_EQ(conflictsAsEmitted(lanes, on, words), counters::requestCost(model, active, &scratch).conflicts)
        << "trial " << trial << ", " << bytes << " bytes, stride " << stride;
  }
}

}  // namespace
}  // namespace clgrade
