// Grades each sample submission of tests/e2e/CASES with each shipped rubric on the CPU device and
// asserts what submissions/<name>/expected.json says: every check listed there fails, every other
// measurable check passes, checks clgrade cannot measure yet are not_measured, and the total.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include <unistd.h>

#include "grading/grader.h"
#include "model/report_json.h"
#include "tasks/task.h"
#include "util/files.h"
#include "../test_env.h"

namespace clgrade {
namespace {

const std::string kRoot = test::sourceDir();
const std::vector<std::string> kRubrics{"four_tasks", "three_tasks_histogram", "three_tasks_bilateral"};

/// Sample names from tests/e2e/CASES (one per line, '#' comments).
std::vector<std::string> samples() {
  std::vector<std::string> names;
  std::ifstream in(kRoot + "/tests/e2e/CASES");
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string name;
    if (words >> name) names.push_back(name);
  }
  return names;
}

/// One runtime for the whole binary: the CPU device, as CI has it.
const Runtime& runtime() {
  static std::unique_ptr<Runtime> rt = [] {
    DeviceEntry entry;
    std::string err;
    if (!chooseDevice(test::deviceSpec(), &entry, &err)) throw std::runtime_error(err);
    return std::make_unique<Runtime>(entry);
  }();
  return *rt;
}

using Pair = std::tuple<std::string, std::string>;  // sample, rubric

class Sample : public ::testing::TestWithParam<Pair> {};

TEST_P(Sample, GradesAsExpected) {
  const auto& [sample, rubricName] = GetParam();
  const std::string dir = kRoot + "/submissions/" + sample;
  std::string text, err;
  ASSERT_TRUE(readFile(dir + "/expected.json", &text, &err)) << err;
  const nlohmann::json expected = nlohmann::json::parse(text);

  Rubric rubric;
  std::vector<std::string> problems;
  ASSERT_TRUE(loadRubric(kRoot + "/rubrics/" + rubricName + ".xml", &rubric, &problems));
  // One folder per process: two test runs on one machine must not clean each other's reports.
  const std::string out = std::string(::testing::TempDir()) + "clgrade_e2e_" + std::to_string(getpid()) + "/" +
                          sample + "_" + rubricName;
  std::filesystem::remove_all(out);
  GradeOptions options;
  options.kernelsDir = dir + "/kernels";
  options.outDir = out;
  if (test::hiddenSeed()) options.hiddenSeed = *test::hiddenSeed();  // else the golden seed: deterministic
  const GradeReport report = gradeSubmission(runtime(), rubric, options);
  ASSERT_TRUE(writeFileAtomically(out + "/report.json", toJson(report), &err)) << err;

  for (const TaskReport& t : report.tasks) {
    const Task* task = findTask(t.id);
    for (const CheckResult& c : t.checks) {
      const std::string key = t.id + "." + c.id;
      std::string want = "passed";
      for (const CheckInfo& info : task->info().checks)
        if (info.id == c.id && !info.notMeasuredReason.empty()) want = "not_measured";
      if (expected["checks"].contains(key)) want = expected["checks"][key].get<std::string>();
      // A missing or refused file fails every check of its task, measurable or not; the stray writes
      // (judged from what the others saw) are not measured: nothing ran.
      bool derived = false;
      for (const CheckInfo& info : task->info().checks) derived = derived || (info.id == c.id && info.fromOtherChecks);
      if (!t.problem.empty()) want = expected["checks"].value(key, std::string(derived ? "not_measured" : "failed"));
      EXPECT_EQ(statusName(c.status), want) << key << ": " << c.message << "\n  (report: " << out << "/report.json)";
    }
  }
  ASSERT_TRUE(expected["scores"].contains(rubricName)) << "expected.json has no score for " << rubricName;
  EXPECT_DOUBLE_EQ(report.total, expected["scores"][rubricName].get<double>());
  EXPECT_DOUBLE_EQ(report.max, 20.0);
  if (!HasFailure()) std::filesystem::remove_all(out);  // keep the report only when it explains a failure
}

INSTANTIATE_TEST_SUITE_P(Submissions, Sample, ::testing::Combine(::testing::ValuesIn(samples()),
                                                                 ::testing::ValuesIn(kRubrics)),
                         [](const ::testing::TestParamInfo<Pair>& info) {
                           return std::get<0>(info.param) + "__" + std::get<1>(info.param);
                         });

}  // namespace
}  // namespace clgrade
