// The override ledger (report/override_ledger.h): an override applies to the grade it was written
// for; a resubmission (other task files) or another measurement makes it stale until confirmed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "report/override_ledger.h"

namespace clgrade {
namespace {

/// A report of one task (conv3x3, file hash `sha`) with one criterion measured at `measured` of 2.
GradeReport gradeOf(double measured, const std::string& sha = "aaaa") {
  GradeReport report;
  TaskReport task;
  task.id = "conv3x3";
  task.file = "Convolution3x3.cl";
  task.sha256 = sha;
  CriterionResult c;
  c.id = "convolution";
  c.points = measured;
  c.max = 2;
  task.criteria.push_back(c);
  report.tasks.push_back(task);
  return report;
}

Override overrideOf(double points, const std::string& comment = "accepted") {
  Override o;
  o.submission = "bob";
  o.task = "conv3x3";
  o.criterion = "convolution";
  o.points = points;
  o.comment = comment;
  o.where = "overrides.csv:2";
  return o;
}

TEST(OverrideLedger, AnOverrideAppliesToTheGradeItWasWrittenFor) {
  OverrideLedger ledger;
  std::vector<StaleOverride> stale;
  EXPECT_EQ(ledger.current({overrideOf(1)}, "bob", gradeOf(0), false, &stale).size(), 1u);
  EXPECT_EQ(ledger.current({overrideOf(1)}, "bob", gradeOf(0), false, &stale).size(), 1u);
  EXPECT_TRUE(stale.empty());
  EXPECT_TRUE(ledger.current({overrideOf(1)}, "alice", gradeOf(0), false, &stale).empty()) << "another submission's";
}

TEST(OverrideLedger, AResubmissionMakesItStaleUntilConfirmed) {
  OverrideLedger ledger;
  std::vector<StaleOverride> stale;
  ledger.current({overrideOf(1)}, "bob", gradeOf(0), false, &stale);
  EXPECT_TRUE(ledger.current({overrideOf(1)}, "bob", gradeOf(0, "bbbb"), false, &stale).empty());
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_EQ(stale[0].where, "overrides.csv:2");
  EXPECT_EQ(stale[0].task + "." + stale[0].criterion, "conv3x3.convolution");
  EXPECT_NE(stale[0].message.find("stale override of conv3x3.convolution (1 point)"), std::string::npos)
      << stale[0].message;
  EXPECT_NE(stale[0].message.find("resubmitted"), std::string::npos) << stale[0].message;
  stale.clear();
  EXPECT_EQ(ledger.current({overrideOf(1)}, "bob", gradeOf(0, "bbbb"), true, &stale).size(), 1u) << "confirmed";
  EXPECT_EQ(ledger.current({overrideOf(1)}, "bob", gradeOf(0, "bbbb"), false, &stale).size(), 1u) << "recorded";
  EXPECT_TRUE(stale.empty());
}

TEST(OverrideLedger, AnotherMeasurementMakesItStale) {
  OverrideLedger ledger;
  std::vector<StaleOverride> stale;
  ledger.current({overrideOf(1)}, "bob", gradeOf(0), false, &stale);
  EXPECT_TRUE(ledger.current({overrideOf(1)}, "bob", gradeOf(2), false, &stale).empty());
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_NE(stale[0].message.find("measured 0 then, 2 now"), std::string::npos) << stale[0].message;
  EXPECT_EQ(stale[0].message.find("resubmitted"), std::string::npos) << stale[0].message;
}

TEST(OverrideLedger, AnEditedOverrideIsANewDecision) {
  OverrideLedger ledger;
  std::vector<StaleOverride> stale;
  ledger.current({overrideOf(1)}, "bob", gradeOf(0), false, &stale);
  EXPECT_EQ(ledger.current({overrideOf(1.5)}, "bob", gradeOf(2), false, &stale).size(), 1u);
  EXPECT_EQ(ledger.current({overrideOf(1.5, "seen again")}, "bob", gradeOf(1), false, &stale).size(), 1u);
  EXPECT_TRUE(stale.empty());
}

TEST(OverrideLedger, IsKeptInItsFileAndForgetsRemovedOverrides) {
  const std::string path = ::testing::TempDir() + "/ledger_" + std::to_string(getpid()) + ".json";
  std::vector<StaleOverride> stale;
  std::string err;
  {
    OverrideLedger ledger;
    ledger.current({overrideOf(1)}, "bob", gradeOf(0), false, &stale);
    ASSERT_TRUE(ledger.save(path, &err)) << err;
  }
  OverrideLedger read;
  ASSERT_TRUE(read.load(path, &err)) << err;
  EXPECT_TRUE(read.current({overrideOf(1)}, "bob", gradeOf(2), false, &stale).empty()) << "the record was lost";
  read.keepOnly({});
  stale.clear();
  EXPECT_EQ(read.current({overrideOf(1)}, "bob", gradeOf(2), false, &stale).size(), 1u) << "a removed override stayed";
  std::ofstream(path) << "{\"schema\": \"something else\"}";
  OverrideLedger other;
  EXPECT_FALSE(other.load(path, &err));
  EXPECT_NE(err.find("not an override ledger"), std::string::npos) << err;
  std::filesystem::remove(path);
  EXPECT_TRUE(OverrideLedger().load(path, &err)) << "no file is an empty ledger";
}

}  // namespace
}  // namespace clgrade
