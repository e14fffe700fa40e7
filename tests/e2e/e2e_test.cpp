// Grades each sample submission of tests/e2e/CASES on the CPU device with the four-task rubric and
// asserts what submissions/<name>/expected.json says: every check listed there fails, every other
// measurable check passes, checks clgrade cannot measure yet are not_measured, and the total. The
// three-task rubrics grade the same cases with the same settings and give other points: their totals
// are scored from the same checks (scoreCriterion, as a grade does), after the test has made sure
// that the rubric asks for exactly the same grading work (else it says so and fails).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include <unistd.h>

#include <tinyxml2.h>

#include "../scratch.h"
#include "../test_env.h"
#include "grading/drawn_analysis.h"
#include "grading/grader.h"
#include "grading/performance.h"
#include "model/report_json.h"
#include "rubric/scoring.h"
#include "tasks/task.h"
#include "util/files.h"
#include "util/install_layout.h"

namespace clgrade {
namespace {

const std::string kRoot = test::sourceDir();
const std::string kGraded = "four_tasks";
/// Every other shipped rubric scores the same report (rubrics/*.xml).
std::vector<std::string> scoredRubrics() {
  std::vector<std::string> names;
  for (const std::string& path : rubricFiles(kRoot + "/rubrics"))
    if (const std::string name = std::filesystem::path(path).stem().string(); name != kGraded) names.push_back(name);
  return names;
}
const std::vector<std::string> kScored = scoredRubrics();

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

/// What a rubric makes a task do, as text: its <settings> and every element of the task but the
/// criteria and deductions (cases, analysis, performance, sweep), with their attributes.
std::string gradingWork(const std::string& rubricPath, const std::string& taskId) {
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(rubricPath.c_str()) != tinyxml2::XML_SUCCESS) return "unreadable";
  const tinyxml2::XMLElement* root = doc.RootElement();
  auto describe = [](const tinyxml2::XMLElement* e) {
    std::string text = e->Name();
    for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next())
      text += std::string(" ") + a->Name() + "=" + a->Value();
    return text + "\n";
  };
  std::string work;
  if (const tinyxml2::XMLElement* settings = root->FirstChildElement("settings")) work += describe(settings);
  for (const tinyxml2::XMLElement* t = root->FirstChildElement("task"); t; t = t->NextSiblingElement("task")) {
    if (t->Attribute("id") != taskId) continue;
    for (const tinyxml2::XMLElement* e = t->FirstChildElement(); e; e = e->NextSiblingElement())
      if (std::string(e->Name()) != "criterion" && std::string(e->Name()) != "deduction") work += describe(e);
  }
  return work;
}

class Sample : public ::testing::TestWithParam<std::string> {};

TEST_P(Sample, GradesAsExpected) {
  const std::string sample = GetParam();
  const std::string rubricName = kGraded;
  const std::string dir = test::samplesDir() + "/" + sample;
  std::string text, err;
  ASSERT_TRUE(readFile(dir + "/expected.json", &text, &err)) << err;
  const nlohmann::json expected = nlohmann::json::parse(text);

  Rubric rubric;
  std::vector<std::string> problems;
  ASSERT_TRUE(loadRubric(kRoot + "/rubrics/" + rubricName + ".xml", &rubric, &problems));
  // One folder per process: two test runs on one machine must not clean each other's reports.
  const std::string out = test::freshFolder("clgrade_e2e", sample + "_" + rubricName, /*make=*/false).string();
  GradeOptions options;
  options.kernelsDir = dir + "/kernels";
  options.outDir = out;
  if (test::hiddenSeed()) options.hiddenSeed = *test::hiddenSeed();  // else the golden seed: deterministic
  // As a grade does (spec 5c): the technique judged at a case drawn from the hidden seed as well.
  const GradeReport report =
      gradeSubmission(runtime(), withDrawnAnalysis(rubric, hiddenSeedsOf(options.hiddenSeed)), options);
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

  // The three-task rubrics: the same checks, their own points.
  for (const std::string& other : kScored) {
    SCOPED_TRACE(other);
    Rubric scored;
    ASSERT_TRUE(loadRubric(kRoot + "/rubrics/" + other + ".xml", &scored, &problems));
    double total = 0, max = 0;
    for (const TaskRubric& tr : scored.tasks) {
      const std::string work = gradingWork(scored.path, tr.id);
      ASSERT_NE(work.find("\ncase id="), std::string::npos) << "no case of " << tr.id << " read from " << scored.path;
      ASSERT_EQ(work, gradingWork(rubric.path, tr.id))
          << other << " makes task " << tr.id << " do other work than " << kGraded << ": grade it on its own";
      const auto t =
          std::find_if(report.tasks.begin(), report.tasks.end(), [&](const TaskReport& r) { return r.id == tr.id; });
      ASSERT_NE(t, report.tasks.end()) << tr.id;
      std::map<std::string, CheckResult> byId;
      for (const CheckResult& c : t->checks) byId[c.id] = c;
      double points = 0;
      for (const Criterion& criterion : tr.criteria) {
        const SpeedMeasure speed = speedFor(criterion, *t);
        points += scoreCriterion(criterion, byId, &speed).points;
      }
      total += std::max(0.0, points);
      max += tr.maxPoints();
    }
    ASSERT_TRUE(expected["scores"].contains(other)) << "expected.json has no score for " << other;
    EXPECT_DOUBLE_EQ(total, expected["scores"][other].get<double>());
    EXPECT_DOUBLE_EQ(max, 20.0);
  }
  if (!HasFailure()) std::filesystem::remove_all(out);  // keep the report only when it explains a failure
}

INSTANTIATE_TEST_SUITE_P(Submissions, Sample, ::testing::ValuesIn(samples()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace clgrade
