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

const Criterion kCriterion{"tile_load", "Tile loaded", 3, {"output", "bank_conflicts"}, 1};

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
