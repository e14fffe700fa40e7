// report.json follows the documented schema; the terminal table has one row per criterion.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "grading/grader.h"
#include "intake/source_policy.h"
#include "model/report_json.h"
#include "report/terminal_table.h"

namespace clgrade {
namespace {

GradeReport sample() {
  GradeReport r;
  r.version = "0.1.0";
  r.mode = "grade";
  r.rubricId = "four_tasks";
  r.rubricTitle = "Four tasks";
  r.device.platform = "Portable Computing Language";
  r.device.name = "cpu";
  r.device.driver = "3.1";
  TaskReport t;
  t.id = "conv3x3";
  t.file = "Convolution3x3.cl";
  t.present = true;
  t.sha256 = std::string(64, 'a');
  t.includedFiles = {{"common/tile.h", std::string(64, 'c')}};
  t.max = 5;
  t.points = 2;
  CriterionResult ok;
  ok.id = "convolution";
  ok.points = ok.max = 2;
  ok.status = Status::Passed;
  CriterionResult nm;
  nm.id = "tile_load";
  nm.max = 3;
  nm.status = Status::NotMeasured;
  nm.message = "bank_conflicts: not implemented";
  nm.evidence = {{"difference image", "evidence/x.png"}};
  t.criteria = {nm, ok};
  CheckResult check;
  check.id = "output";
  check.status = Status::Passed;
  CaseOutcome o;
  o.caseId = "course_edge";
  o.status = Status::Passed;
  check.cases = {o};
  t.checks = {check};
  t.builds = {BuildRecord{"", true, "", "evidence/conv3x3/build_1.log", ""}};
  t.counters = {
      {"Convolution", "simulated (Oclgrind, 32 banks of 4 bytes, warps of 32)", {{"local_store_conflicts", 0}}}};
  r.tasks = {t};
  r.total = 2;
  r.max = 5;
  r.inputs = {{"photo_780x575", 780, 575, 3, std::string(64, 'b')}};
  return r;
}

TEST(JsonReport, FollowsTheSchema) {
  const nlohmann::json j = nlohmann::json::parse(toJson(sample()));
  for (const char* key : {"total", "max", "rubric", "device", "tasks", "reproducibility", "mode"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["total"], 2);
  EXPECT_EQ(j["max"], 5);
  for (const char* key : {"platform", "name", "driver"}) EXPECT_TRUE(j["device"].contains(key)) << key;
  const auto& task = j["tasks"][0];
  for (const char* key : {"id", "points", "max", "criteria", "checks", "builds"})
    EXPECT_TRUE(task.contains(key)) << key;
  const auto& criterion = task["criteria"][0];
  for (const char* key : {"id", "points", "max", "status", "message", "evidence"})
    EXPECT_TRUE(criterion.contains(key)) << key;
  EXPECT_EQ(criterion["status"], "not_measured");
  EXPECT_EQ(criterion["evidence"][0]["path"], "evidence/x.png");
  EXPECT_EQ(task["criteria"][1]["status"], "passed");
  const auto& repro = j["reproducibility"];
  EXPECT_EQ(repro["clgrade_version"], "0.1.0");
  EXPECT_EQ(repro["kernel_files"]["Convolution3x3.cl"], std::string(64, 'a'));
  EXPECT_EQ(repro["kernel_files"]["common/tile.h"], std::string(64, 'c'));  // what #include expanded
  EXPECT_EQ(task["included_files"][0]["file"], "common/tile.h");
  EXPECT_EQ(repro["inputs"][0]["sha256"], std::string(64, 'b'));
  EXPECT_TRUE(repro["settings"]["skip_last_row"].get<bool>());
  EXPECT_EQ(task["builds"][0]["options"], "");
  EXPECT_EQ(task["counters"][0]["kernel"], "Convolution");
  EXPECT_EQ(task["counters"][0]["values"]["local_store_conflicts"], 0);
}

TEST(JsonReport, SurvivesBytesThatAreNotUtf8) {
  GradeReport r = sample();
  r.tasks[0].criteria[0].message =
      "line 3: // Fa\xe7"
      "ade";
  std::string text;
  ASSERT_NO_THROW(text = toJson(r));
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j["tasks"][0]["criteria"][0]["message"],
            "line 3: // Fa\xef\xbf\xbd"
            "ade");
}

TEST(TerminalTable, OneRowPerCriterionAndTheTotal) {
  const std::string table = terminalTable(sample(), 100);
  EXPECT_NE(table.find("conv3x3     tile_load"), std::string::npos) << table;
  EXPECT_NE(table.find("0/3     not_measured  bank_conflicts: not implemented"), std::string::npos) << table;
  EXPECT_NE(table.find("2/2     passed"), std::string::npos) << table;
  EXPECT_NE(table.find("2/5"), std::string::npos) << table;
}

TEST(GradeReport, CheckModePassesOnlyWithoutFailures) {
  GradeReport r = sample();
  EXPECT_TRUE(r.allMeasuredPassed());  // not_measured does not block the self-check
  r.tasks[0].criteria[1].status = Status::Failed;
  EXPECT_FALSE(r.allMeasuredPassed());
}

TEST(RefuseSource, IncludesAndBinaryAreRefused) {
  EXPECT_EQ(refuseSource("__kernel void k() {}\n// #include is fine in a comment\n"), "");
  EXPECT_NE(refuseSource("#include \"/etc/passwd\"\n"), "");
  EXPECT_NE(refuseSource("__kernel void k() {}\n  #  include <x.h>\n"), "");
  EXPECT_NE(refuseSource("# /* hidden */ include \"../reference/kernels/x.cl\"\n"), "");
  EXPECT_NE(refuseSource(std::string("__kernel void k() {}\0", 21)), "");
}

}  // namespace
}  // namespace clgrade
