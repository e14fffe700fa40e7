#include "counters/nvidia/ptx_atomics.h"
#include "protocol/atomics_record.h"

#include <gtest/gtest.h>

namespace clgrade {
namespace {

// The atomics NVIDIA's OpenCL compiler writes for a histogram: local, global (result used and not),
// generic, under a guard.
const char* const kPtx = R"(.version 9.0
.target sm_90, texmode_independent
.address_size 64

.entry hist(
	.param .u64 .ptr .global .align 4 hist_param_0
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<18>;
	.reg .b64 	%rd<9>;

	atom.shared.add.u32 	%r5, [%rd3], 1;
	@%p1 red.global.add.u32 	[%rd4+16], %r5;
	@!%p2 atom.global.inc.u32 	%r6, [%rd4], 255;
	atom.add.u32 	%r7, [%rd5], 1; // generic
	ld.global.u32 	%r8, [%rd4];
	ret;
}
)";

TEST(PtxAtomics, EachAtomicGetsACounterUnderItsOwnGuard) {
  std::string out, err;
  std::vector<PtxAtomicSite> sites;
  int slots = 0;
  ASSERT_TRUE(instrumentPtxAtomics(kPtx, &out, &sites, &slots, &err)) << err;
  ASSERT_EQ(sites.size(), 4u);
  EXPECT_EQ(slots, 7);  // three with one counter, the generic one with two; two local adds' values
  EXPECT_EQ(sites[0].space, PtxAtomicSpace::Shared);
  EXPECT_EQ(sites[1].space, PtxAtomicSpace::Global);
  EXPECT_EQ(sites[2].space, PtxAtomicSpace::Global);
  EXPECT_EQ(sites[3].space, PtxAtomicSpace::Generic);
  EXPECT_EQ(sites[0].entry, "hist");
  EXPECT_EQ(sites[0].line, 13);
  EXPECT_EQ(sites[3].slot, 3);
  EXPECT_EQ(sites[1].text, "@%p1 red.global.add.u32 \t[%rd4+16], %r5;");
  // The counters are declared after the module directives, once.
  EXPECT_NE(out.find(".address_size 64\n\n.global .align 8 .u64 __clgrade_atomics[7];"), std::string::npos) << out;
  // Before each atomic, under its guard.
  EXPECT_NE(
      out.find("{ red.global.add.u64 \t[__clgrade_atomics+0], 1; }\n\t{ .reg .b64 %clg_v;\n\tmov.b64 \t%clg_v, 1;\n"
               "\tmax.s64 \t%clg_v, %clg_v, 0;\n\tmin.s64 \t%clg_v, %clg_v, 64;\n"
               "\tred.global.add.u64 \t[__clgrade_atomics+40], %clg_v; }\n\tatom.shared.add.u32"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find("{ @%p1 red.global.add.u64 \t[__clgrade_atomics+8], 1; }\n\t@%p1 red.global.add.u32"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("{ @!%p2 red.global.add.u64 \t[__clgrade_atomics+16], 1; }"), std::string::npos) << out;
  // A generic atomic: its address's space decides the counter.
  EXPECT_NE(out.find("isspacep.shared %clg_s, %rd5;"), std::string::npos) << out;
  EXPECT_NE(out.find("@%clg_s red.global.add.u64 \t[__clgrade_atomics+24], 1;"), std::string::npos) << out;
  EXPECT_NE(out.find("@%clg_g red.global.add.u64 \t[__clgrade_atomics+32], 1; }\n\tatom.add.u32"), std::string::npos)
      << out;
  // The original instructions are all still there, unchanged.
  EXPECT_NE(out.find("\tld.global.u32 \t%r8, [%rd4];\n"), std::string::npos);
}

// What a histogram's local atomics add, summed on the GPU: a work-item may count its pixels' equal
// bins first and add them at once (found by an honest corpus: one atomic a pixel was asked before).
TEST(PtxAtomics, WhatLocalAddsAddIsSummedAfterEveryCountingSlot) {
  std::string out, err;
  std::vector<PtxAtomicSite> sites;
  int slots = 0;
  ASSERT_TRUE(instrumentPtxAtomics(kPtx, &out, &sites, &slots, &err)) << err;
  EXPECT_EQ(sites[0].addedSlot, 5);
  EXPECT_EQ(sites[1].addedSlot, -1);  // global: its pixels are not the local histogram's
  EXPECT_EQ(sites[2].addedSlot, -1);  // an inc: one an execution, its count
  EXPECT_EQ(sites[3].addedSlot, 6);
  EXPECT_NE(out.find("@%clg_s red.global.add.u64 \t[__clgrade_atomics+24], 1;\n\t{ .reg .b64 %clg_v;\n\tmov.b64 "
                     "\t%clg_v, 1;\n\tmax.s64 \t%clg_v, %clg_v, 0;\n\tmin.s64 \t%clg_v, %clg_v, 64;\n\t@%clg_s "
                     "red.global.add.u64 \t[__clgrade_atomics+48], %clg_v; }\n"),
            std::string::npos)
      << out;
  const std::string head = ".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n";
  ASSERT_TRUE(
      instrumentPtxAtomics(head + "\t@%p4 atom.shared.add.s32 \t%r1, [%rd1], %r9;\n}\n", &out, &sites, &slots, &err))
      << err;
  EXPECT_NE(out.find("cvt.s64.s32 \t%clg_v, %r9;\n\tmax.s64 \t%clg_v, %clg_v, 0;\n\tmin.s64 \t%clg_v, %clg_v, "
                     "64;\n\t@%p4 red.global.add.u64 \t[__clgrade_atomics+8], %clg_v; }"),
            std::string::npos)
      << out;
  ASSERT_TRUE(
      instrumentPtxAtomics(head + "\tatom.shared.add.u32 \t%r1, [%rd1], sym;\n}\n", &out, &sites, &slots, &err));
  EXPECT_FALSE(sites[0].addedKnown);  // a value not read here: the record says "?"
}

// The record carries the added values; a record of the first version reads, without them.
TEST(AtomicsRecord, AddedValuesRoundTripAndTheFirstVersionReads) {
  AtomicsRecord r;
  r.kernel = "compute_histogram_local_memory";
  r.workGroups = 21;
  r.sites.push_back({12, "shared", 2498, 0, 3700, true, "atom.shared.add.u32 %r1, [%rd1], %r2;"});
  r.sites.push_back({13, "shared", 5, 0, 0, false, "atom.shared.add.u32 %r1, [%rd1], sym;"});
  AtomicsRecord back;
  std::string err;
  ASSERT_TRUE(readAtomicsRecord(atomicsRecordText(r), &back, &err)) << err;
  ASSERT_EQ(back.sites.size(), 2u);
  EXPECT_EQ(back.sites[0].added, 3700);
  EXPECT_TRUE(back.sites[0].addedKnown);
  EXPECT_FALSE(back.sites[1].addedKnown);
  ASSERT_TRUE(
      readAtomicsRecord("clgrade atomics record 1\nkernel k\nwork_groups 2\nsite 5 shared 7 0 atom\n", &back, &err))
      << err;
  EXPECT_FALSE(back.sites[0].addedKnown);
  EXPECT_FALSE(
      readAtomicsRecord("clgrade atomics record 2\nkernel k\nwork_groups 2\nsite 5 shared 7 0 x7 atom\n", &back, &err));
}

TEST(PtxAtomics, AGuardedGenericAtomicCountsOnlyWhereItsGuardHolds) {
  const std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t@!%p3 atom.cas.b32 \t%r1, "
                          "[%rd2], %r3, %r4;\n}\n";
  std::string out, err;
  std::vector<PtxAtomicSite> sites;
  int slots = 0;
  ASSERT_TRUE(instrumentPtxAtomics(ptx, &out, &sites, &slots, &err)) << err;
  EXPECT_NE(out.find("and.pred %clg_s, %clg_s, !%p3;\n\tand.pred %clg_g, %clg_g, !%p3;"), std::string::npos) << out;
}

TEST(PtxAtomics, AnAtomicNotUnderstoodIsRefusedNotLeftUncounted) {
  std::string out, err;
  std::vector<PtxAtomicSite> sites;
  int slots = 0;
  const std::string head = ".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n";
  EXPECT_FALSE(instrumentPtxAtomics(head + "\tatom.add.u32 %r1, [shared_var], 1;\n}\n", &out, &sites, &slots, &err));
  EXPECT_NE(err.find("not a register"), std::string::npos) << err;
  EXPECT_FALSE(instrumentPtxAtomics(head + "\tatom.shared.add.u32 %r1, [%rd1], 1; atom.shared.add.u32 %r2, [%rd1], 1;\n}\n",
                                    &out, &sites, &slots, &err));
  EXPECT_NE(err.find("not understood"), std::string::npos) << err;
  // Inline assembly that hides an atomic in braces, and reductions of other forms, are refused too: a
  // kernel must not make its atomics vanish from the count (a global atomic per pixel passing as few).
  for (const char* hidden : {"\t{ atom.global.add.u32 %r1, [%rd1], 1; }\n", "\tmultimem.red.global.add.u32 [%rd1], %r1;\n",
                             "\tcp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r2], 64;\n"}) {
    EXPECT_FALSE(instrumentPtxAtomics(head + hidden + "}\n", &out, &sites, &slots, &err)) << hidden;
    EXPECT_NE(err.find("not understood"), std::string::npos) << err;
  }
  // Inline assembly that opens a block comment holding an ".entry" line: the atomic after it would
  // be filed under that other "kernel" and left out of this one's record. Refused.
  const std::string hiding =
      "\t// begin inline asm\n/*\n.entry zz() */\n\tatom.global.add.u32 %r1, [%rd1], 1;\n// */\n";
  EXPECT_FALSE(instrumentPtxAtomics(head + hiding + "\tret;\n}\n", &out, &sites, &slots, &err));
  EXPECT_NE(err.find("block comment"), std::string::npos) << err;
  // A comment that names an atomic is not one.
  ASSERT_TRUE(instrumentPtxAtomics(head + "\t// atom.shared.add in the loop below\n\tret;\n}\n", &out, &sites, &slots, &err))
      << err;
  // A module without atomics gets its one (unused) counter and nothing else.
  ASSERT_TRUE(instrumentPtxAtomics(head + "\tret;\n}\n", &out, &sites, &slots, &err)) << err;
  EXPECT_TRUE(sites.empty());
  EXPECT_NE(out.find("__clgrade_atomics[1]"), std::string::npos);
}

}  // namespace
}  // namespace clgrade
