// Scoring: a criterion earns its points only when every check it names passed; a check that
// cannot be measured is never a silent pass.
#include <gtest/gtest.h>

#include "rubric/scoring.h"

namespace clgrade {
namespace {

CheckResult check(const std::string& id, Status status, const std::string& message = "why") {
  CheckResult c;
  c.id = id;
  c.status = status;
  c.message = message;
  return c;
}

std::map<std::string, CheckResult> checks(std::initializer_list<CheckResult> list) {
  std::map<std::string, CheckResult> m;
  for (const CheckResult& c : list) m[c.id] = c;
  return m;
}

Criterion makeCriterion() {
  Criterion c;
  c.id = "tile_load";
  c.title = "Tile loaded";
  c.points = 3;
  c.checks = {"output", "bank_conflicts"};
  c.line = 1;
  return c;
}
const Criterion kCriterion = makeCriterion();

/// A speed criterion: 1 point from 0.5x the reference's speed, 2 points from 0.8x.
Criterion speedCriterion() {
  Criterion c;
  c.id = "speed";
  c.points = 2;
  c.checks = {"output"};
  c.kernels = {"Convolution"};
  c.levels = {{0.5, 1}, {0.8, 2}};
  return c;
}

SpeedMeasure measured(double ratio) {
  SpeedMeasure m;
  m.available = true;
  m.ratio = ratio;
  m.detail = "Convolution 10.0 us (reference 9.0 us)";
  return m;
}

TEST(Scoring, SpeedEarnsTheHighestLevelReached) {
  const auto ok = checks({check("output", Status::Passed)});
  SpeedMeasure m = measured(0.9);
  auto r = scoreCriterion(speedCriterion(), ok, &m);
  EXPECT_EQ(r.status, Status::Passed);
  EXPECT_DOUBLE_EQ(r.points, 2);
  m = measured(0.6);
  r = scoreCriterion(speedCriterion(), ok, &m);
  EXPECT_DOUBLE_EQ(r.points, 1);
  EXPECT_NE(r.message.find("0.80x earns 2"), std::string::npos) << r.message;
  m = measured(0.3);
  r = scoreCriterion(speedCriterion(), ok, &m);
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_DOUBLE_EQ(r.points, 0);
}

TEST(Scoring, UntrustedSpeedIsNotMeasuredNeverFullMarks) {
  SpeedMeasure m;
  m.reason = "measured on a cpu device (pocl): indicative only, not graded";
  const auto r = scoreCriterion(speedCriterion(), checks({check("output", Status::Passed)}), &m);
  EXPECT_EQ(r.status, Status::NotMeasured);
  EXPECT_DOUBLE_EQ(r.points, 0);
  EXPECT_NE(r.message.find("cpu device"), std::string::npos);
  EXPECT_EQ(scoreCriterion(speedCriterion(), checks({check("output", Status::Passed)})).status, Status::NotMeasured);
}

TEST(Scoring, AFastWrongKernelEarnsNoSpeedPoints) {
  SpeedMeasure m = measured(2.0);
  const auto r = scoreCriterion(speedCriterion(), checks({check("output", Status::Failed)}), &m);
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_DOUBLE_EQ(r.points, 0);
}

TEST(Scoring, AllPassedEarnsThePoints) {
  const auto r =
      scoreCriterion(kCriterion, checks({check("output", Status::Passed), check("bank_conflicts", Status::Passed)}));
  EXPECT_EQ(r.status, Status::Passed);
  EXPECT_DOUBLE_EQ(r.points, 3);
  EXPECT_DOUBLE_EQ(r.max, 3);
}

TEST(Scoring, NotMeasuredScoresZeroWithItsReason) {
  const auto r = scoreCriterion(kCriterion, checks({check("output", Status::Passed),
                                                    check("bank_conflicts", Status::NotMeasured, "no counter")}));
  EXPECT_EQ(r.status, Status::NotMeasured);
  EXPECT_DOUBLE_EQ(r.points, 0);
  EXPECT_EQ(r.message, "bank_conflicts: no counter");
}

TEST(Scoring, FailureBeatsNotMeasuredAndErrorBeatsFailure) {
  auto r = scoreCriterion(
      kCriterion, checks({check("output", Status::Failed, "12 wrong"), check("bank_conflicts", Status::NotMeasured)}));
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_EQ(r.message, "output: 12 wrong");
  r = scoreCriterion(kCriterion,
                     checks({check("output", Status::Failed), check("bank_conflicts", Status::Error, "driver")}));
  EXPECT_EQ(r.status, Status::Error);
  EXPECT_DOUBLE_EQ(r.points, 0);
}

TEST(Scoring, MissingCheckIsAnError) {
  const auto r = scoreCriterion(kCriterion, checks({check("output", Status::Passed)}));
  EXPECT_EQ(r.status, Status::Error);
}

TEST(Scoring, EvidenceComesFromFailingCases) {
  CheckResult out = check("output", Status::Failed);
  CaseOutcome good, bad;
  good.status = Status::Passed;
  good.evidence = {{"x", "good.png"}};
  bad.status = Status::Failed;
  bad.evidence = {{"difference", "bad.png"}};
  out.cases = {good, bad};
  const auto r = scoreCriterion(kCriterion, checks({out, check("bank_conflicts", Status::NotMeasured)}));
  ASSERT_EQ(r.evidence.size(), 1u);
  EXPECT_EQ(r.evidence[0].path, "bad.png");
}

TEST(Summarize, WorstCaseDecides) {
  CheckResult c;
  c.id = "output";
  CaseOutcome a, b;
  a.caseId = "a";
  a.status = Status::Passed;
  b.caseId = "b";
  b.status = Status::Failed;
  b.message = "3 of 10 values wrong";
  c.cases = {a, b};
  summarize(&c);
  EXPECT_EQ(c.status, Status::Failed);
  EXPECT_EQ(c.message, "case b: 3 of 10 values wrong");
  c.cases = {a};
  summarize(&c);
  EXPECT_EQ(c.status, Status::Passed);
}

}  // namespace
}  // namespace clgrade

namespace clgrade {
namespace {

CheckResult outputWith(Status visibleCase, Status hiddenCase) {
  CheckResult c;
  c.id = "output";
  CaseOutcome v, h;
  v.caseId = "course_edge";
  v.status = visibleCase;
  v.message = "visible outcome";
  h.caseId = "box_1280x720";
  h.visible = false;
  h.status = hiddenCase;
  h.message = "719 values wrong at x = 1279";
  c.cases = {v, h};
  summarize(&c);
  return c;
}

// Spec section 5: a technique criterion needs the technique and correct output in the course
// configuration (the visible cases); a failure only hidden cases show costs the correctness criteria.
TEST(Scoring, ACaseSetQualifiedCheckCountsOnlyThoseCases) {
  std::vector<std::string> errors;
  Rubric rubric;
  ASSERT_TRUE(parseRubric(R"(<rubric id="r" title="t" points="5"><task id="conv3x3">
      <criterion id="tile_load" points="3" checks="output@visible">tile</criterion>
      <criterion id="convolution" points="2" checks="output">all cases</criterion>
      <case id="course_edge" visible="true" input="photo" width="100" height="37" weights="edge"/></task></rubric>)",
                          "r.xml", &rubric, &errors))
      << (errors.empty() ? "" : errors[0]);
  const Criterion& tile = rubric.tasks[0].criteria[0];
  const Criterion& convolution = rubric.tasks[0].criteria[1];
  EXPECT_EQ(tile.checks, std::vector<std::string>{"output"});

  const std::map<std::string, CheckResult> hiddenOnly{{"output", outputWith(Status::Passed, Status::Failed)}};
  EXPECT_EQ(scoreCriterion(tile, hiddenOnly).points, 3);
  EXPECT_EQ(scoreCriterion(convolution, hiddenOnly).points, 0);

  const std::map<std::string, CheckResult> visibleToo{{"output", outputWith(Status::Failed, Status::Failed)}};
  const CriterionResult lost = scoreCriterion(tile, visibleToo);
  EXPECT_EQ(lost.points, 0);
  EXPECT_NE(lost.message.find("visible cases"), std::string::npos) << lost.message;
  EXPECT_EQ(lost.message.find("x = 1279"), std::string::npos) << lost.message;  // the hidden case is not its reason
}

TEST(Scoring, AnUnknownCaseSetIsRefused) {
  std::vector<std::string> errors;
  Rubric rubric;
  EXPECT_FALSE(parseRubric(R"(<rubric id="r" title="t" points="3"><task id="conv3x3">
      <criterion id="tile_load" points="3" checks="output@secret">tile</criterion>
      <case id="course_edge" visible="true" input="photo" width="100" height="37" weights="edge"/></task></rubric>)",
                           "r.xml", &rubric, &errors));
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors[0].find("output@secret"), std::string::npos) << errors[0];
}

}  // namespace
}  // namespace clgrade

namespace clgrade {
namespace {

// Spec section 5: stray writes are a check of their own and cost what the rubric's <deduction>
// gives; a deduction adds nothing to the maximum and never takes a task below 0.
TEST(Deduction, TakesItsPointsOnlyForAFailureItSaw) {
  std::vector<std::string> errors;
  Rubric rubric;
  ASSERT_TRUE(parseRubric(R"(<rubric id="r" title="t" points="2"><task id="conv3x3">
      <criterion id="convolution" points="2" checks="output">correct</criterion>
      <deduction id="stray_writes" points="0.5" checks="writes">stray writes</deduction>
      <case id="course_edge" visible="true" input="photo" width="100" height="37" weights="edge"/></task></rubric>)",
                          "r.xml", &rubric, &errors))
      << (errors.empty() ? "" : errors[0]);
  EXPECT_DOUBLE_EQ(rubric.maxPoints(), 2);
  const Criterion& d = rubric.tasks[0].criteria[1];
  ASSERT_TRUE(d.deduction);

  const CriterionResult clean = scoreCriterion(d, checks({check("writes", Status::Passed, "no writes outside")}));
  EXPECT_EQ(clean.status, Status::Passed);
  EXPECT_DOUBLE_EQ(clean.points, 0);
  EXPECT_DOUBLE_EQ(clean.max, 0);
  EXPECT_DOUBLE_EQ(clean.min, -0.5);

  const CriterionResult stray =
      scoreCriterion(d, checks({check("writes", Status::Failed, "Convolution wrote 12 values below the image")}));
  EXPECT_EQ(stray.status, Status::Failed);
  EXPECT_DOUBLE_EQ(stray.points, -0.5);
  EXPECT_NE(stray.message.find("deduction of 0.5"), std::string::npos) << stray.message;
  EXPECT_NE(stray.message.find("below the image"), std::string::npos) << stray.message;

  // Nothing seen, nothing taken: an error or a gap is reported, not charged.
  EXPECT_DOUBLE_EQ(scoreCriterion(d, checks({check("writes", Status::Error)})).points, 0);
  EXPECT_DOUBLE_EQ(scoreCriterion(d, checks({check("writes", Status::NotMeasured)})).points, 0);
}

TEST(Deduction, NeverTakesATaskBelowZero) {
  TaskReport t;
  CriterionResult lost, taken;
  lost.points = 0;
  lost.max = 2;
  taken.points = -0.5;
  taken.min = -0.5;
  t.criteria = {lost, taken};
  t.sumPoints();
  EXPECT_DOUBLE_EQ(t.points, 0);
  t.criteria[0].points = 2;
  t.sumPoints();
  EXPECT_DOUBLE_EQ(t.points, 1.5);
}

TEST(Deduction, TheRubricLanguageRefusesWhatCannotWork) {
  auto problemsOf = [](const std::string& task) {
    std::vector<std::string> errors;
    Rubric rubric;
    parseRubric("<rubric id=\"r\" title=\"t\">" + task + "</rubric>", "r.xml", &rubric, &errors);
    std::string all;
    for (const std::string& e : errors) all += e + "\n";
    return all;
  };
  const std::string oneCase = R"(<case id="c" visible="true" input="photo" width="100" height="37" weights="edge"/>)";
  EXPECT_NE(problemsOf(R"(<task id="conv3x3"><deduction id="d" points="1" checks="writes">d</deduction>)" + oneCase +
                       "</task>")
                .find("has no <criterion>"),
            std::string::npos);
  EXPECT_NE(problemsOf(R"(<task id="conv3x3"><criterion id="c" points="1" checks="output">c</criterion>
                <deduction id="d" points="1" checks="writes" performance="Convolution"><level ratio="1" points="1"/></deduction>)" +
                       oneCase + "</task>")
                .find("cannot grade speed"),
            std::string::npos);
  EXPECT_NE(problemsOf(R"(<settings out_of_bounds_writes_fail="true"/><task id="conv3x3">
                <criterion id="c" points="1" checks="output">c</criterion>)" +
                       oneCase + "</task>")
                .find("is gone: writes outside the image are the check 'writes'"),
            std::string::npos);
}

}  // namespace
}  // namespace clgrade
