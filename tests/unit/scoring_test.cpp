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
  const auto r = scoreCriterion(kCriterion, checks({check("output", Status::Passed), check("bank_conflicts", Status::Passed)}));
  EXPECT_EQ(r.status, Status::Passed);
  EXPECT_DOUBLE_EQ(r.points, 3);
  EXPECT_DOUBLE_EQ(r.max, 3);
}

TEST(Scoring, NotMeasuredScoresZeroWithItsReason) {
  const auto r = scoreCriterion(
      kCriterion, checks({check("output", Status::Passed), check("bank_conflicts", Status::NotMeasured, "no counter")}));
  EXPECT_EQ(r.status, Status::NotMeasured);
  EXPECT_DOUBLE_EQ(r.points, 0);
  EXPECT_EQ(r.message, "bank_conflicts: no counter");
}

TEST(Scoring, FailureBeatsNotMeasuredAndErrorBeatsFailure) {
  auto r = scoreCriterion(kCriterion, checks({check("output", Status::Failed, "12 wrong"),
                                              check("bank_conflicts", Status::NotMeasured)}));
  EXPECT_EQ(r.status, Status::Failed);
  EXPECT_EQ(r.message, "output: 12 wrong");
  r = scoreCriterion(kCriterion, checks({check("output", Status::Failed), check("bank_conflicts", Status::Error, "driver")}));
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
