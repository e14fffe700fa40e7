// Oclgrind's log turned into findings a student understands.
#include <gtest/gtest.h>

#include "checks/sanitizer.h"

namespace clgrade {
namespace {

// Two reports of one missing barrier (different addresses), as Oclgrind 21.10 prints them.
const char* kRaceLog =
    "\n"
    "Read-write data race at local memory address 0x1000000000004\n"
    "\tKernel: Convolution\n"
    "\t\n"
    "\tFirst entity:  Global(1,0,0) Local(1,0,0) Group(0,0,0)\n"
    "\t  store float %v.0, float addrspace(3)* %arrayidx28, align 4, !dbg !109, !tbaa !102\n"
    "\tAt line 49 (column 17) of input.cl:\n"
    "\t  tile[i] = v;\n"
    "\t\n"
    "\tSecond entity: Global(0,0,0) Local(0,0,0) Group(0,0,0)\n"
    "\t  %10 = load float, float addrspace(3)* %arrayidx57.1, align 4, !dbg !117, !tbaa !102\n"
    "\tAt line 63 (column 20) of input.cl:\n"
    "\t  sum += tile[(ly + 1 + dy) * TILE_W + (lx + 1 + dx)];\n"
    "\t\n"
    "\n"
    "Read-write data race at local memory address 0x1000000000008\n"
    "\tKernel: Convolution\n"
    "\tFirst entity:  Global(2,0,0) Local(2,0,0) Group(0,0,0)\n"
    "\tAt line 49 (column 17) of input.cl:\n"
    "\t  tile[i] = v;\n"
    "\tSecond entity: Global(0,0,0) Local(0,0,0) Group(0,0,0)\n"
    "\tAt line 63 (column 20) of input.cl:\n"
    "\t  sum += tile[(ly + 1 + dy) * TILE_W + (lx + 1 + dx)];\n"
    "\n"
    "Oclgrind: 1000 errors generated - suppressing further errors\n"
    "clgrade: output on the simulator: failed: 12 of 3120 values wrong\n";

TEST(Sanitizer, MissingBarrierBecomesOneFindingWithBothLines) {
  const SanitizerLog log = parseOclgrindLog(kRaceLog);
  ASSERT_EQ(log.findings.size(), 1u);
  const SanitizerFinding& f = log.findings[0];
  EXPECT_EQ(f.kind, "Read-write data race");
  EXPECT_EQ(log.findings.size(), 1u);
  EXPECT_EQ(f.space, "local");
  EXPECT_EQ(f.kernel, "Convolution");
  EXPECT_EQ(f.line, 49);
  EXPECT_EQ(f.otherLine, 63);
  EXPECT_EQ(f.code, "tile[i] = v;");
  // The file each access is in: clgrade quotes the line from that file (Oclgrind quotes the compiled
  // text's line of that number, which clgrade's prelude and #line directives shift).
  EXPECT_EQ(f.file, "input.cl");
  EXPECT_EQ(f.otherFile, "input.cl");
  EXPECT_EQ(f.count, 2);
  EXPECT_TRUE(f.isRace());
  EXPECT_TRUE(log.truncated);
  EXPECT_NE(f.explanation().find("barrier(CLK_LOCAL_MEM_FENCE) is missing between lines 49 and 63"), std::string::npos)
      << f.explanation();
}

TEST(Sanitizer, OutOfBoundsReadNamesTheLine) {
  const SanitizerLog log = parseOclgrindLog(
      "\nInvalid read of size 4 at global memory address 0xfffffffffe80\n"
      "\tKernel: Convolution\n"
      "\tEntity: Global(0,0,0) Local(0,0,0) Group(0,0,0)\n"
      "\t  %0 = load float, float addrspace(1)* %arrayidx, align 4\n"
      "\tAt line 6 (column 26) of input.cl:\n"
      "\t  d_Dst[y * Pitch + x] = d_Src[(y - 1) * (int)Pitch + x];\n");
  ASSERT_EQ(log.findings.size(), 1u);
  const SanitizerFinding& f = log.findings[0];
  EXPECT_TRUE(f.isOutOfBounds());
  EXPECT_EQ(f.space, "global");
  EXPECT_EQ(f.line, 6);
  EXPECT_EQ(f.otherLine, 0);
  EXPECT_NE(f.explanation().find("reads outside the global buffer at line 6"), std::string::npos) << f.explanation();
  EXPECT_FALSE(log.truncated);
}

TEST(Sanitizer, GlobalRaceAsksForAnAtomic) {
  const SanitizerLog log = parseOclgrindLog(
      "Write-write data race at global memory address 0x10\n\tKernel: compute_histogram\n"
      "\tAt line 20 (column 3) of input.cl:\n\t  histogram[bin]++;\n");
  ASSERT_EQ(log.findings.size(), 1u);
  EXPECT_NE(log.findings[0].explanation().find("needs an atomic"), std::string::npos);
}

// Issue 11: a race caused by a store running past the end of a row was told to use an atomic.
TEST(Sanitizer, AGlobalStoreRaceAsksForTheIndexNotAnAtomic) {
  const SanitizerLog log = parseOclgrindLog(
      "Write-write data race at global memory address 0x10\n\tKernel: ConvHorizontal\n"
      "\tAt line 31 (column 9) of input.cl:\n\t  d_Dst[y * Pitch + x + i * H_GROUPSIZE_X] = sum;\n");
  ASSERT_EQ(log.findings.size(), 1u);
  const std::string text = log.findings[0].explanation();
  EXPECT_EQ(text.find("atomic"), std::string::npos) << text;
  EXPECT_NE(text.find("two work-items store to the same global memory address at line 31"), std::string::npos) << text;
  EXPECT_NE(text.find("runs past its end"), std::string::npos) << text;
}

TEST(Sanitizer, UninitializedLocalValueIsGroupedAcrossAddresses) {
  const SanitizerLog log = parseOclgrindLog(
      "\nUninitialized value written to local memory address 0x1000000000054\n"
      "\tKernel: compute_histogram_local_memory\n\tAt line 14 (column 5) of input.cl:\n\t  "
      "atomic_inc(&local_hist[bin]);\n"
      "\nUninitialized value written to local memory address 0x1000000000050\n"
      "\tKernel: compute_histogram_local_memory\n\tAt line 14 (column 5) of input.cl:\n\t  "
      "atomic_inc(&local_hist[bin]);\n");
  ASSERT_EQ(log.findings.size(), 1u);
  EXPECT_EQ(log.findings[0].kind, "Uninitialized value written to");
  EXPECT_EQ(log.findings[0].space, "local");
  EXPECT_EQ(log.findings[0].count, 2);
  EXPECT_NE(log.findings[0].explanation().find("is the local array cleared before use?"), std::string::npos);
}

TEST(Sanitizer, CleanLogHasNoFindings) {
  const SanitizerLog log = parseOclgrindLog("clgrade: output on the simulator: passed: all good\n");
  EXPECT_TRUE(log.findings.empty());
  EXPECT_TRUE(log.fatal.empty());
}

}  // namespace
}  // namespace clgrade
