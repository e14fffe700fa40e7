// Evidence files stay inside the report folder, whatever the ids their paths are built from; PFM
// files only on request; PNG images within the budget, the first failing checks' first.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <random>

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
  for (const std::string& bad :
       {std::string("evidence/conv3x3/../../../outside.txt"), (root / "abs.txt").string(),
        std::string("evidence/./x.txt"), std::string("evidence/.hidden/x.txt"), std::string("")})
    EXPECT_EQ(writer.text(bad, "log", "x").path, "") << bad;
  EXPECT_FALSE(fs::exists(root / "outside.txt"));
  EXPECT_FALSE(fs::exists(root / "abs.txt"));
  EXPECT_EQ(writer.comparison("conv3x3/../../../x", Comparison{}, Image(1, 1, 1), Image(1, 1, 1), 1).size(), 0u);
  EXPECT_FALSE(fs::exists(root / "x_diff.pfm"));
  fs::remove_all(root);
}

/// A failed comparison of noise against zeros: images that do not compress, of a known size.
struct NoisyFailure {
  Image expected{96, 64, 1}, actual{96, 64, 1};
  Comparison result;
  NoisyFailure() {
    std::mt19937 random(7);
    std::uniform_real_distribution<float> value(0, 1);
    for (float& v : expected.pixels) v = value(random);
    result.difference = Image(96, 64, 1);
    for (size_t i = 0; i < expected.pixels.size(); ++i)
      result.difference.pixels[i] = expected.pixels[i] * expected.pixels[i];
  }
};

class EvidenceFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) / ("clgrade_evidence_files_" + std::to_string(getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  std::vector<std::string> written(const std::vector<Evidence>& files) {
    std::vector<std::string> paths;
    for (const Evidence& e : files) {
      EXPECT_TRUE(fs::exists(root_ / e.path)) << e.path;
      paths.push_back(e.path);
    }
    return paths;
  }
  fs::path root_;
  NoisyFailure failure_;
};

TEST_F(EvidenceFiles, PfmOnlyOnRequest) {
  EvidenceWriter plain(root_.string());
  EXPECT_EQ(written(plain.comparison("t/a", failure_.result, failure_.expected, failure_.actual, 1e-8)),
            (std::vector<std::string>{"evidence/t/a_crop.png", "evidence/t/a_diff.png", "evidence/t/a_actual.png",
                                      "evidence/t/a_expected.png"}));
  EXPECT_FALSE(fs::exists(root_ / "evidence/t/a_diff.pfm"));
  EvidencePolicy pfm;
  pfm.pfm = true;
  EvidenceWriter withPfm(root_.string(), pfm);
  const std::vector<std::string> files =
      written(withPfm.comparison("t/b", failure_.result, failure_.expected, failure_.actual, 1e-8));
  EXPECT_EQ(files.front(), "evidence/t/b_diff.pfm");
  EXPECT_EQ(files.size(), 5u);
}

TEST_F(EvidenceFiles, ImagesBeyondTheBudgetAreLeftOutInOrder) {
  // How big this case's four images are without a budget: the crop of the first wrong pixels, the
  // difference map, actual and expected.
  EvidenceWriter unlimited((root_ / "sizes").string());
  uint64_t sizes[4] = {};
  const std::vector<Evidence> all =
      unlimited.comparison("t/a", failure_.result, failure_.expected, failure_.actual, 1e-8);
  ASSERT_EQ(all.size(), 4u);
  for (int i = 0; i < 4; ++i) sizes[i] = fs::file_size(root_ / "sizes" / all[i].path);

  // Room for the first case's four and the second case's crop and difference map only.
  EvidencePolicy policy;
  policy.imageBudgetBytes = sizes[0] + sizes[1] + sizes[2] + sizes[3] + sizes[0] + sizes[1];
  EvidenceWriter writer((root_ / "budget").string(), policy);
  EXPECT_EQ(writer.comparison("t/first", failure_.result, failure_.expected, failure_.actual, 1e-8).size(), 4u);
  EXPECT_EQ(writer.imagesOverBudget(), 0);
  const std::vector<Evidence> second =
      writer.comparison("t/second", failure_.result, failure_.expected, failure_.actual, 1e-8);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[0].path, "evidence/t/second_crop.png");
  EXPECT_EQ(second[1].path, "evidence/t/second_diff.png");
  EXPECT_EQ(writer.imagesOverBudget(), 2);
  EXPECT_TRUE(writer.comparison("t/third", failure_.result, failure_.expected, failure_.actual, 1e-8).empty());
  EXPECT_EQ(writer.imagesOverBudget(), 6);
  // What was left out is not on disk either.
  for (const char* name : {"second_actual.png", "second_expected.png", "third_crop.png", "third_diff.png"})
    EXPECT_FALSE(fs::exists(root_ / "budget/evidence/t" / name)) << name;
  uint64_t total = 0;
  for (const auto& e : fs::recursive_directory_iterator(root_ / "budget"))
    if (e.is_regular_file()) total += e.file_size();
  EXPECT_LE(total, policy.imageBudgetBytes);
}

}  // namespace
}  // namespace clgrade
