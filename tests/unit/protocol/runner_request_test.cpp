// The runner's request (protocol/runner_request.h) read back as written: the hidden seed, where the
// counters are read, and what the runner gets instead of the kernels folder and the rubric file.
#include <gtest/gtest.h>

#include <string>

#include "protocol/runner_request.h"
#include "tasks/inputs.h"

namespace clgrade {
namespace {

// Spec 5c: the runner runs student code, so it gets the seeds derived from the run's hidden seed
// and never the seed itself (nothing in its request is the seed).
TEST(RunnerRequest, CarriesTheDerivedSeedsAndNeverTheRunsSeed) {
  RunnerRequest r;
  r.task = "conv3x3";
  r.recordPath = "/tmp/record";
  const uint64_t runSeed = 123456789;
  r.hiddenSeeds = hiddenSeedsOf(runSeed);
  r.hiddenSeeds.rows = kMaxHiddenSeed;
  RunnerRequest back;
  std::string err;
  ASSERT_TRUE(readRunnerRequest(runnerRequestJson(r), &back, &err)) << err;
  EXPECT_EQ(back.hiddenSeeds, r.hiddenSeeds);
  std::string text = runnerRequestJson(r);
  EXPECT_EQ(text.find(std::to_string(runSeed)), std::string::npos) << text;
  const std::string key = "\"rows\":" + std::to_string(kMaxHiddenSeed);
  ASSERT_NE(text.find(key), std::string::npos) << text;
  text.replace(text.find(key), key.size(), "\"rows\":-1");
  EXPECT_FALSE(readRunnerRequest(text, &back, &err));
  EXPECT_NE(err.find("hidden_seeds.rows"), std::string::npos) << err;
}

TEST(RunnerRequest, SaysWhenTheKeeperReadsTheCounters) {
  RunnerRequest r;
  r.task = "conv3x3";
  r.recordPath = "/tmp/record";
  RunnerRequest back;
  std::string err;
  ASSERT_TRUE(readRunnerRequest(runnerRequestJson(r), &back, &err)) << err;
  EXPECT_FALSE(back.hardwareElsewhere);
  r.hardwareElsewhere = true;
  ASSERT_TRUE(readRunnerRequest(runnerRequestJson(r), &back, &err)) << err;
  EXPECT_TRUE(back.hardwareElsewhere);
}

TEST(RunnerRequest, CarriesTheTasksFileByteForByteAndItsRubricPart) {
  RunnerRequest r;
  r.task = "conv3x3";
  r.recordPath = "/tmp/record";
  r.rubricText = "<rubric id=\"r\"><task id=\"conv3x3\"/></rubric>";
  r.sourceFile = "Convolution3x3.cl";
  r.source.present = r.source.exists = true;
  // Not UTF-8 (a Latin-1 comment), and a byte of every value: the runner compiles exactly these bytes.
  for (int b = 1; b < 256; ++b) r.source.fileBytes += char(b);
  r.source.text = "#line 1 \"Convolution3x3.cl\"\n// caf\xe9\n__kernel void f() {}\n";
  r.source.included = {"common.h"};
  r.source.includedSha256 = {std::string(64, 'a')};
  RunnerRequest back;
  std::string err;
  ASSERT_TRUE(readRunnerRequest(runnerRequestJson(r), &back, &err)) << err;
  EXPECT_EQ(back.rubricText, r.rubricText);
  EXPECT_EQ(back.sourceFile, r.sourceFile);
  EXPECT_EQ(back.source.fileBytes, r.source.fileBytes);
  EXPECT_EQ(back.source.text, r.source.text);
  EXPECT_TRUE(back.source.present);
  EXPECT_TRUE(back.source.exists);
  EXPECT_EQ(back.source.included, r.source.included);
  EXPECT_EQ(back.source.includedSha256, r.source.includedSha256);
  // A request whose file is not base64 is refused, not compiled as something else.
  std::string text = runnerRequestJson(r);
  const size_t at = text.find("\"text\":\"") + 8;
  text.insert(at, "!");
  EXPECT_FALSE(readRunnerRequest(text, &back, &err));
}

}  // namespace
}  // namespace clgrade
