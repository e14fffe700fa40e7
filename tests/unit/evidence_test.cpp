// Evidence files stay inside the report folder, whatever the ids their paths are built from.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "checks/evidence.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

TEST(EvidenceWriter, APathThatCouldLeaveTheReportFolderWritesNothing) {
  const fs::path root = fs::path(::testing::TempDir()) / ("clgrade_evidence_" + std::to_string(getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "report");
  EvidenceWriter writer((root / "report").string());
  EXPECT_EQ(writer.text("evidence/conv3x3/build_1.log", "log", "x").path, "evidence/conv3x3/build_1.log");
  EXPECT_TRUE(fs::exists(root / "report" / "evidence" / "conv3x3" / "build_1.log"));
  // A rubric case id of "../../../tmp/x" made paths like these.
  for (const std::string& bad : {std::string("evidence/conv3x3/../../../outside.txt"), (root / "abs.txt").string(),
                                 std::string("evidence/./x.txt"), std::string("evidence/.hidden/x.txt"),
                                 std::string("")})
    EXPECT_EQ(writer.text(bad, "log", "x").path, "") << bad;
  EXPECT_FALSE(fs::exists(root / "outside.txt"));
  EXPECT_FALSE(fs::exists(root / "abs.txt"));
  EXPECT_EQ(writer.comparison("conv3x3/../../../x", Comparison{}, Image(1, 1, 1), Image(1, 1, 1), 1).size(), 0u);
  EXPECT_FALSE(fs::exists(root / "x_diff.pfm"));
  fs::remove_all(root);
}

}  // namespace
}  // namespace clgrade
