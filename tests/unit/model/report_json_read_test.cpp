// report.json read back: what toJson writes parses into the same model (batch grading builds the
// class outputs from the stored files), and a damaged file is refused with the place of the damage.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../report/report_fixture.h"
#include "model/report_json.h"

namespace clgrade {
namespace {

using reporttest::overriddenReport;
using reporttest::richReport;

TEST(ReportJsonRead, RoundTripsARichReport) {
  for (const GradeReport& original : {richReport(), overriddenReport()}) {
    const std::string text = toJson(original);
    GradeReport read;
    std::string err;
    ASSERT_TRUE(readReportJson(text, &read, &err)) << err;
    EXPECT_EQ(toJson(read), text);
    // And a second time, from what was read (the replacement of bytes that are not UTF-8 is stable).
    GradeReport again;
    ASSERT_TRUE(readReportJson(toJson(read), &again, &err)) << err;
    EXPECT_EQ(toJson(again), text);
  }
}

TEST(ReportJsonRead, ReadsEveryPartOfTheModel) {
  GradeReport read;
  std::string err;
  ASSERT_TRUE(readReportJson(toJson(overriddenReport()), &read, &err)) << err;
  EXPECT_EQ(read.version, "0.3.0");
  EXPECT_EQ(read.kernelsDir, "submissions/alice/kernels");
  EXPECT_DOUBLE_EQ(read.total, 5);
  EXPECT_DOUBLE_EQ(read.max, 20);
  EXPECT_EQ(read.rubricSha256, std::string(64, 'c'));
  EXPECT_EQ(read.device.computeUnits, 132u);
  EXPECT_EQ(read.device.globalMemBytes, 80ull << 30);
  EXPECT_FALSE(read.settings.rule.skipLastRow);
  EXPECT_DOUBLE_EQ(read.settings.rule.maxSquaredError, 2e-8);
  ASSERT_EQ(read.inputs.size(), 2u);
  EXPECT_EQ(read.inputs[1].channels, 1);
  EXPECT_EQ(read.hiddenSeed, reporttest::kHiddenSeed);
  ASSERT_EQ(read.tasks.size(), 3u);
  const TaskReport& conv = read.tasks[0];
  const CriterionResult& c = conv.criteria[0];
  EXPECT_TRUE(c.overridden);
  EXPECT_DOUBLE_EQ(c.points, 3);
  EXPECT_DOUBLE_EQ(c.originalPoints, 0);
  EXPECT_EQ(c.overrideAuthor, "ta1");
  EXPECT_EQ(c.status, Status::Failed);
  EXPECT_FALSE(conv.criteria[1].overridden);
  ASSERT_EQ(conv.checks[0].cases.size(), 2u);
  EXPECT_EQ(conv.checks[0].cases[1].evidence.size(), 4u);
  EXPECT_EQ(conv.checks[0].cases[1].timings.size(), 1u);
  EXPECT_EQ(conv.builds[0].logPath, "evidence/conv3x3/build_1.log");
  // The counters keep the order they were written in (not sorted by name).
  ASSERT_EQ(conv.counters[0].values.size(), 3u);
  EXPECT_EQ(conv.counters[0].values[0].first, "work_groups");
  EXPECT_EQ(conv.counters[0].values[2].first, "global_loads");
  EXPECT_TRUE(conv.performance.measured);
  ASSERT_EQ(conv.performance.kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(conv.performance.kernels[0].gbPerS, 1234.567);
  EXPECT_DOUBLE_EQ(conv.performance.kernels[0].launchFloorMs, 0.0125);
  ASSERT_EQ(conv.includedFiles.size(), 1u);
  EXPECT_EQ(conv.includedFiles[0].first, "common/tile.h");
  EXPECT_EQ(conv.includedFiles[0].second, std::string(64, 'c'));
  EXPECT_TRUE(conv.sweep.ran);
  EXPECT_EQ(conv.sweep.points[0].group[0], 32);
  EXPECT_FALSE(read.tasks[1].checks[0].cases[0].visible);
  EXPECT_EQ(read.tasks[1].criteria[1].status, Status::NotMeasured);
  EXPECT_EQ(read.tasks[1].criteria[0].status, Status::Error);
  EXPECT_FALSE(read.tasks[2].present);
  EXPECT_EQ(read.tasks[2].problem, "histogram.cl not found");
  EXPECT_FALSE(read.tasks[2].performance.measured);
  EXPECT_FALSE(read.tasks[2].sweep.ran);
}

TEST(ReportJsonRead, WritesTheOverrideFieldsOnlyWhenOverridden) {
  const nlohmann::json j = nlohmann::json::parse(toJson(overriddenReport()));
  const auto& c = j["tasks"][0]["criteria"][0];
  EXPECT_EQ(c["overridden"], true);
  EXPECT_EQ(c["original_points"], 0.0);
  EXPECT_EQ(c["points"], 3.0);
  EXPECT_EQ(c["override_comment"], "edge handling accepted, see mail of 3 May <ok>");
  EXPECT_EQ(c["override_author"], "ta1");
  const auto& plain = j["tasks"][0]["criteria"][1];
  EXPECT_EQ(plain["overridden"], false);
  EXPECT_FALSE(plain.contains("original_points"));
}

TEST(ReportJsonRead, FollowsTheSchema) {
  EXPECT_EQ(reporttest::validate(toJson(overriddenReport()), "clgrade_report.schema.json"), "");
  GradeReport empty;
  empty.mode = "check";
  EXPECT_EQ(reporttest::validate(toJson(empty), "clgrade_report.schema.json"), "");
}

TEST(ReportJsonRead, TheHiddenSeedIsWrittenOnlyWhenThereIsOne) {
  const nlohmann::json grade = nlohmann::json::parse(toJson(richReport()));
  ASSERT_TRUE(grade["reproducibility"].contains("hidden_seed"));
  // A whole number that every JSON reader gets back exactly (below 2^53).
  EXPECT_EQ(grade["reproducibility"]["hidden_seed"].get<uint64_t>(), reporttest::kHiddenSeed);
  GradeReport check = richReport();
  check.mode = "check";
  check.hiddenSeed.reset();
  const std::string text = toJson(check);
  EXPECT_FALSE(nlohmann::json::parse(text)["reproducibility"].contains("hidden_seed"));
  GradeReport read;
  std::string err;
  ASSERT_TRUE(readReportJson(text, &read, &err)) << err;
  EXPECT_FALSE(read.hiddenSeed.has_value());
  EXPECT_EQ(reporttest::validate(text, "clgrade_report.schema.json"), "");
  // A negative seed is damage, refused with its place.
  nlohmann::json bad = grade;
  bad["reproducibility"]["hidden_seed"] = -3;
  EXPECT_FALSE(readReportJson(bad.dump(), &read, &err));
  EXPECT_NE(err.find("reproducibility.hidden_seed"), std::string::npos) << err;
}

TEST(ReportJsonRead, MissingKeysKeepTheDefaults) {
  GradeReport read;
  std::string err;
  ASSERT_TRUE(readReportJson(
      R"({"schema": "clgrade-report/1", "tasks": [{"id": "conv3x3", "criteria": [{"id": "x"}]}]})", &read, &err))
      << err;
  ASSERT_EQ(read.tasks.size(), 1u);
  EXPECT_EQ(read.tasks[0].criteria[0].status, Status::NotMeasured);
  EXPECT_FALSE(read.tasks[0].criteria[0].overridden);
  EXPECT_TRUE(read.settings.rule.skipLastRow);
}

TEST(ReportJsonRead, RefusesDamageWithItsPlace) {
  const std::string good = toJson(richReport());
  auto refused = [](const std::string& text) {
    GradeReport r;
    r.total = 99;
    std::string err;
    EXPECT_FALSE(readReportJson(text, &r, &err));
    EXPECT_DOUBLE_EQ(r.total, 99) << "the report is left alone on failure";
    return err;
  };
  EXPECT_NE(refused("{\"schema\": \"clgrade-report/1\", \"tasks\": [").find("not JSON"), std::string::npos);
  EXPECT_NE(refused("[1, 2]").find("expected a JSON object"), std::string::npos);
  EXPECT_NE(refused(R"({"total": 1})").find("schema: missing"), std::string::npos);
  EXPECT_NE(refused(R"({"schema": "clgrade-report/2"})").find("not clgrade-report/1"), std::string::npos);

  nlohmann::ordered_json j = nlohmann::ordered_json::parse(good);
  j["tasks"][1]["criteria"][0]["status"] = "ok";
  EXPECT_EQ(refused(j.dump()), "tasks[1].criteria[0].status: unknown status 'ok'");
  j = nlohmann::ordered_json::parse(good);
  j["tasks"][0]["checks"][0]["cases"][1]["details"][2] = 7;
  EXPECT_EQ(refused(j.dump()), "tasks[0].checks[0].cases[1].details[2]: expected a string");
  j = nlohmann::ordered_json::parse(good);
  j["tasks"][0]["points"] = "2";
  EXPECT_EQ(refused(j.dump()), "tasks[0].points: expected a number");
  j = nlohmann::ordered_json::parse(good);
  j["device"]["compute_units"] = -1;
  EXPECT_EQ(refused(j.dump()), "device.compute_units: expected a whole number of at least 0");
  j = nlohmann::ordered_json::parse(good);
  j["tasks"][0]["counters"][0]["values"]["work_groups"] = "many";
  EXPECT_EQ(refused(j.dump()), "tasks[0].counters[0].values.work_groups: expected a number");
  j = nlohmann::ordered_json::parse(good);
  j["tasks"][0]["performance"]["kernels"][0]["median_ms"] = "slow";
  EXPECT_EQ(refused(j.dump()).rfind("tasks[0].performance: ", 0), 0u);
  j = nlohmann::ordered_json::parse(good);
  j["tasks"] = nlohmann::ordered_json::object();
  EXPECT_EQ(refused(j.dump()), "tasks: expected a list");
}

TEST(ReportJsonRead, ReadsAFileAndNamesItInErrors) {
  const std::string path = ::testing::TempDir() + "clgrade_json_read_" + std::to_string(::getpid()) + ".json";
  std::string err;
  ASSERT_TRUE(writeFileAtomically(path, toJson(richReport()), &err)) << err;
  GradeReport read;
  ASSERT_TRUE(readReportFile(path, &read, &err)) << err;
  EXPECT_EQ(read.tasks.size(), 3u);
  ASSERT_TRUE(writeFileAtomically(path, "{}", &err)) << err;
  EXPECT_FALSE(readReportFile(path, &read, &err));
  EXPECT_EQ(err.rfind(path + ": schema", 0), 0u) << err;
  EXPECT_FALSE(readReportFile(path + ".missing", &read, &err));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace clgrade
