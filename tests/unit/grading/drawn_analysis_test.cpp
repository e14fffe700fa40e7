// The case the technique is judged at besides the rubric's analysis case (spec 5c).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "grading/drawn_analysis.h"
#include "tasks/task.h"

namespace clgrade {
namespace {

Rubric shipped() {
  Rubric rubric;
  std::vector<std::string> problems;
  EXPECT_TRUE(loadRubric(std::string(CLGRADE_SOURCE_DIR) + "/rubrics/four_tasks.xml", &rubric, &problems));
  return rubric;
}

TEST(DrawnAnalysis, EachTechniqueTaskGetsAHiddenCourseCaseOfWholeGroupsDrawnFromTheSeeds) {
  const Rubric rubric = shipped();
  const Rubric drawn = withDrawnAnalysis(rubric, hiddenSeedsOf(7));
  EXPECT_EQ(drawn.sha256, rubric.sha256);  // still the instructor's file
  for (const TaskRubric& t : drawn.tasks) {
    CaseSpec spec, analysis;
    ASSERT_TRUE(t.analysisCase(&analysis));
    if (t.id == "separable") {  // no criterion of its needs a simulated check
      EXPECT_FALSE(t.drawnAnalysisCase(&spec));
      continue;
    }
    ASSERT_TRUE(t.drawnAnalysisCase(&spec)) << t.id;
    const CaseSpec* graded = t.findCase(kDrawnAnalysisCase);
    ASSERT_NE(graded, nullptr);
    EXPECT_FALSE(graded->visible);  // graded on the device like any hidden case
    const CaseSpec& course = t.cases.front();
    const std::array<int, 2> unit = findTask(t.id)->wholeGroupsSize(course);
    const int w = std::stoi(spec.params.at("width")), h = std::stoi(spec.params.at("height"));
    EXPECT_EQ(w % unit[0], 0) << t.id;
    EXPECT_EQ(h % unit[1], 0) << t.id;
    EXPECT_FALSE(w == std::stoi(analysis.params.at("width")) && h == std::stoi(analysis.params.at("height")));
    EXPECT_LE(long(w) * h, 100 * 37 * 3 / 2) << t.id;
    // The course configuration's other parameters.
    for (const auto& [name, value] : course.params) {
      if (name != "width" && name != "height") {
        EXPECT_EQ(spec.params.at(name), value) << t.id << " " << name;
      }
    }
  }
  // The same seeds, the same rubric (a runner, the keeper, a resumed batch); it is not added twice.
  EXPECT_EQ(withDrawnAnalysis(rubric, hiddenSeedsOf(7)).text, drawn.text);
  EXPECT_EQ(withDrawnAnalysis(drawn, hiddenSeedsOf(7)).text, drawn.text);
  // What depends on the file alone does not see it.
  EXPECT_EQ(withoutDrawnAnalysis(rubricForTasks(drawn, {"conv3x3"})), withoutDrawnAnalysis(rubricForTasks(rubric, {"conv3x3"})));
}

TEST(DrawnAnalysis, TheSizeVariesWithTheSeed) {
  const Rubric rubric = shipped();
  std::set<std::string> sizes;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    CaseSpec spec;
    const Rubric drawn = withDrawnAnalysis(rubric, hiddenSeedsOf(seed));
    for (const TaskRubric& t : drawn.tasks)
      if (t.id == "conv3x3" && t.drawnAnalysisCase(&spec)) sizes.insert(spec.params["width"] + "x" + spec.params["height"]);
  }
  EXPECT_GE(sizes.size(), 4u);
}

}  // namespace
}  // namespace clgrade
