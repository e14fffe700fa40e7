// What the class outputs say about an override of a submission that is not in the batch.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "batch/outputs.h"
#include "report/overrides.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

fs::path freshDir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("clgrade_batch_names_" + std::to_string(getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The message was nested twice: "overrides: no submission 'o.csv:2: no submission 'eve' in this batch
// (...)' in this batch".
TEST(BatchNames, AnOverrideOfAnUnknownSubmissionIsSaidOnce) {
  const fs::path out = freshDir("unknown");
  std::vector<Override> overrides;
  std::vector<std::string> errors, problems;
  ASSERT_TRUE(parseOverrides("submission,task,criterion,points\neve,histogram,global_atomics,0\n", "o.csv",
                             &overrides, &errors));
  const nlohmann::ordered_json classResults = {{"submissions", nlohmann::ordered_json::array()}};
  EXPECT_TRUE(writeClassOutputs(out.string(), classResults, &errors, overrides, &problems));
  EXPECT_EQ(problems, std::vector<std::string>{
                          "o.csv:2: no submission 'eve' in this batch (override of histogram.global_atomics not applied)"});
}

}  // namespace
}  // namespace clgrade
