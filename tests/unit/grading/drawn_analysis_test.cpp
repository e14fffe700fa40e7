// The case the technique is judged at besides the rubric's analysis case (spec 5c).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "grading/drawn_analysis.h"
#include "tasks/task_context.h"
#include "tasks/task.h"

namespace clgrade {
namespace {

Rubric shipped() {
  Rubric rubric;
  std::vector<std::string> problems;
  EXPECT_TRUE(loadRubric(std::string(CLGRADE_SOURCE_DIR) + "/rubrics/four_tasks.xml", &rubric, &problems));
  return rubric;
}

TEST(DrawnAnalysis, EachTechniqueTaskGetsAHiddenCourseCaseOfItsShapeDrawnFromTheSeeds) {
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
    // Whole groups plus the course case's own partial ones: its shape, so its rows' padding too
    // (halo_not_zeroed reads its right halo from the padding: right in the course configuration, and
    // so at the drawn case; before, 64 x 80 had none and tile_load was lost).
    const int courseW = std::stoi(course.params.at("width")), courseH = std::stoi(course.params.at("height"));
    EXPECT_EQ(w % unit[0], courseW % unit[0]) << t.id;
    EXPECT_EQ(h % unit[1], courseH % unit[1]) << t.id;
    EXPECT_EQ(pitchOf(w) > w, pitchOf(courseW) > courseW) << t.id << " " << w;
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
  // Within 1.5x the analysis case's pixels and of the course case's shape (32 x 16 groups plus 12 x 15):
  // 76 x 47, 76 x 63 and 108 x 47.
  EXPECT_GE(sizes.size(), 3u);
}

}  // namespace
}  // namespace clgrade
