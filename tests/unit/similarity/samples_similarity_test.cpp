// The similarity over the sample submissions and a disguised copy of the reference
// (tests/data/similarity/renamed_reference): the copy is found however renamed and re-laid out, the
// most similar pairs are the reference's copies, and the template (every student's start) is alike
// to nobody once its lines are removed. No grading: the library on the samples' files directly.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "similarity/measure.h"
#include "../../test_env.h"
#include "util/files.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

const char kFile[] = "ConvolutionSeparable.cl";

std::string sampleText(const fs::path& path) {
  std::string text, err;
  EXPECT_TRUE(readFile(path.string(), &text, &err)) << err;
  return text;
}

/// The samples with a ConvolutionSeparable.cl of their own (submissions/<name>/kernels/ holds it), and
/// `reference` and `template`. The other samples fill the file with the reference's own bytes: they
/// are the reference again, not a student's version of it.
std::vector<SimilarityText> samplesWithTheirOwnFile() {
  std::vector<SimilarityText> texts;
  const fs::path source = fs::path(test::sourceDir()) / "submissions";
  for (const auto& entry : fs::directory_iterator(test::samplesDir())) {
    const std::string name = entry.path().filename().string();
    const bool own = fs::exists(source / name / "kernels" / kFile);
    if (!own && name != "reference" && name != "template") continue;
    texts.push_back({name, sampleText(entry.path() / "kernels" / kFile)});
  }
  std::sort(texts.begin(), texts.end(),
            [](const SimilarityText& a, const SimilarityText& b) { return a.submission < b.submission; });
  return texts;
}

TEST(SamplesSimilarity, ADisguisedCopyOfTheReferenceRanksFirstAndTheTemplateIsAlikeToNobody) {
  if (findSimC().empty()) GTEST_SKIP() << "sim_c is not installed (similarity-tester)";
  std::vector<SimilarityText> texts = samplesWithTheirOwnFile();
  ASSERT_GE(texts.size(), 6u) << "the samples are made at configure time in " << test::samplesDir();
  texts.push_back({"renamed_reference",
                   sampleText(fs::path(test::sourceDir()) / "tests/data/similarity/renamed_reference" / kFile)});
  const std::string templateText = sampleText(fs::path(test::sourceDir()) / "kernels_template" / kFile);
  const TaskSimilarity t = compareTask({"separable", kFile}, texts, templateText);
  ASSERT_TRUE(t.problem.empty()) << t.problem;
  EXPECT_EQ(t.compared, int(texts.size()));
  ASSERT_FALSE(t.top.empty());
  std::string listed;  // for the messages below
  for (const SimilarPair& p : t.top)
    listed += "\n  " + p.first + " / " + p.second + ": " + std::to_string(p.firstInSecond) + " % and " +
              std::to_string(p.secondInFirst) + " %";

  // The copy and the reference: every token of each found in the other, and no pair above them.
  const auto copy = std::find_if(t.top.begin(), t.top.end(), [](const SimilarPair& p) {
    return p.first == "reference" && p.second == "renamed_reference";
  });
  ASSERT_NE(copy, t.top.end()) << "the copy is not among the top pairs:" << listed;
  EXPECT_EQ(copy->firstInSecond, 100);
  EXPECT_EQ(copy->secondInFirst, 100);
  EXPECT_DOUBLE_EQ(t.top.front().score, copy->score) << "a pair above the copy:" << listed;

  // The top pairs are the reference and its copies (each sample is the reference with one bug);
  // the template, whose lines are removed, is in none of them and alike to nobody.
  for (const SimilarPair& p : t.top) {
    EXPECT_NE(p.first, "template");
    EXPECT_NE(p.second, "template");
    EXPECT_GE(p.score, 80) << p.first << " / " << p.second;
  }
  EXPECT_LT(t.top.size() + 0, size_t(t.pairs));
  // An all-alike class: copies of one reference flag nobody (the template's pairs at 0 % are below).
  EXPECT_EQ(t.flagged, 0);
}

}  // namespace
}  // namespace clgrade
