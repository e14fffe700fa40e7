// Instructor overrides: the CSV file with line-numbered errors, the merge into a report (clamped,
// sums redone, the measured points kept), unknown names reported, and every output showing them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model/report_json.h"
#include "report/gradebook_csv.h"
#include "report/gradescope.h"
#include "report/html_report.h"
#include "report/junit.h"
#include "report/overrides.h"
#include "report/prairielearn.h"
#include "report/summary_html.h"
#include "report_fixture.h"

namespace clgrade {
namespace {

using reporttest::richReport;

TEST(Overrides, LoadsTheCsvFile) {
  const std::string text =
      "\xef\xbb\xbf"
      "Submission,Task,Criterion,Points,Comment,Author\r\n"
      "alice,conv3x3,convolution,3,\"edge handling accepted, see mail\",ta1\r\n"
      "bob, separable , steps ,1.5,\"two\nlines, \"\"quoted\"\"\",\r\n"
      "\r\n"
      "carol,histogram,global,0,,\r\n";
  std::vector<Override> overrides;
  std::vector<std::string> errors;
  EXPECT_TRUE(parseOverrides(text, "overrides.csv", &overrides, &errors)) << reporttest::joinLines(errors);
  ASSERT_EQ(overrides.size(), 3u);
  EXPECT_EQ(overrides[0].submission, "alice");
  EXPECT_EQ(overrides[0].comment, "edge handling accepted, see mail");
  EXPECT_EQ(overrides[0].author, "ta1");
  EXPECT_EQ(overrides[0].where, "overrides.csv:2");
  EXPECT_EQ(overrides[1].task, "separable");
  EXPECT_EQ(overrides[1].criterion, "steps");
  EXPECT_DOUBLE_EQ(overrides[1].points, 1.5);
  EXPECT_EQ(overrides[1].comment, "two\nlines, \"quoted\"");
  EXPECT_EQ(overrides[2].where, "overrides.csv:6");

  // The columns in another order, without comment or author.
  overrides.clear();
  EXPECT_TRUE(
      parseOverrides("points,criterion,task,submission\n2,tile_load,conv3x3,dave\n", "o.csv", &overrides, &errors));
  ASSERT_EQ(overrides.size(), 1u);
  EXPECT_EQ(overrides[0].submission, "dave");
  EXPECT_DOUBLE_EQ(overrides[0].points, 2);
}

TEST(Overrides, ReportsEveryBadLineWithItsNumber) {
  const std::string text =
      "submission,task,criterion,points,comment\n"
      "alice,conv3x3,convolution,three,typo\n"
      "alice,conv3x3,,1,no criterion\n"
      "alice,conv3x3,tile_load,1\n"
      "bob,conv3x3,convolution,nan,\n"
      "carol,conv3x3,convolution,2,fine\n"
      "carol,conv3x3,convolution,1,again\n"
      "dave,conv3x3,convolution,1e400,\n";
  std::vector<Override> overrides;
  std::vector<std::string> errors;
  EXPECT_FALSE(parseOverrides(text, "o.csv", &overrides, &errors));
  EXPECT_EQ(reporttest::joinLines(errors),
            "o.csv:2: points 'three' is not a number\n"
            "o.csv:3: empty criterion\n"
            "o.csv:4: 4 fields, the header has 5\n"
            "o.csv:5: points 'nan' is not a number\n"
            "o.csv:7: a second override of carol conv3x3.convolution (the first is on line 6)\n"
            "o.csv:8: points '1e400' is not a number\n");
  ASSERT_EQ(overrides.size(), 1u);  // the good line is still loaded
  EXPECT_EQ(overrides[0].submission, "carol");
}

TEST(Overrides, RefusesABadHeaderOrFile) {
  std::vector<Override> overrides;
  std::vector<std::string> errors;
  EXPECT_FALSE(parseOverrides("submission,task,points,grade\nalice,conv3x3,1,x\n", "o.csv", &overrides, &errors));
  EXPECT_EQ(
      reporttest::joinLines(errors),
      "o.csv:1: unknown column 'grade' (expected submission,task,criterion,points,comment and optionally author)\n"
      "o.csv:1: no column 'criterion' in the header\n");
  EXPECT_TRUE(overrides.empty());
  errors.clear();
  EXPECT_FALSE(parseOverrides("", "o.csv", &overrides, &errors));
  EXPECT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind("o.csv:1: empty", 0), 0u);
  errors.clear();
  EXPECT_FALSE(parseOverrides("submission,task,criterion,points\nalice,\"x,1,2\n", "o.csv", &overrides, &errors));
  EXPECT_EQ(reporttest::joinLines(errors), "o.csv:2: a quoted field is not closed\n");
  errors.clear();
  EXPECT_FALSE(loadOverrides("/nonexistent/overrides.csv", &overrides, &errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind("/nonexistent/overrides.csv: ", 0), 0u);

  const std::string path = ::testing::TempDir() + "clgrade_overrides_" + std::to_string(::getpid()) + ".csv";
  std::string err;
  ASSERT_TRUE(
      writeFileAtomically(path, "submission,task,criterion,points,comment\nalice,conv3x3,convolution,x,\n", &err));
  errors.clear();
  EXPECT_FALSE(loadOverrides(path, &overrides, &errors));
  EXPECT_EQ(reporttest::joinLines(errors), path + ":2: points 'x' is not a number\n");
  std::remove(path.c_str());
}

TEST(Overrides, ApplySetsPointsKeepsTheMeasuredAndSumsAgain) {
  GradeReport r = richReport();
  const std::vector<Override> overrides = {
      {"alice", "conv3x3", "convolution", 3, "accepted", "ta1", "o.csv:2"},
      {"alice", "separable", "steps", 7, "chart by hand", "", "o.csv:3"},  // above max 2: clamped
      {"alice", "conv3x3", "tile_load", -1, "copied", "ta2", "o.csv:4"},   // below 0: clamped
      {"bob", "conv3x3", "convolution", 1, "someone else", "", "o.csv:5"}};
  std::vector<std::string> problems;
  applyOverrides(overrides, "alice", &r, &problems);
  EXPECT_EQ(reporttest::joinLines(problems),
            "o.csv:3: alice separable.steps: 7 points is outside 0..2, 2 given\n"
            "o.csv:4: alice conv3x3.tile_load: -1 points is outside 0..2, 0 given\n");
  const CriterionResult& c = r.tasks[0].criteria[0];
  EXPECT_TRUE(c.overridden);
  EXPECT_DOUBLE_EQ(c.points, 3);
  EXPECT_DOUBLE_EQ(c.originalPoints, 0);
  EXPECT_EQ(c.overrideComment, "accepted");
  EXPECT_EQ(c.overrideAuthor, "ta1");
  EXPECT_EQ(c.status, Status::Failed);  // what was measured stays
  EXPECT_DOUBLE_EQ(r.tasks[0].criteria[1].points, 0);
  EXPECT_DOUBLE_EQ(r.tasks[0].criteria[1].originalPoints, 2);
  EXPECT_DOUBLE_EQ(r.tasks[1].criteria[1].points, 2);
  EXPECT_DOUBLE_EQ(r.tasks[0].points, 3);
  EXPECT_DOUBLE_EQ(r.tasks[1].points, 2);
  EXPECT_DOUBLE_EQ(r.total, 5);
  EXPECT_FALSE(r.tasks[2].criteria[0].overridden);

  // Applied again to the report read back from report.json: nothing changes, the measured points stay.
  GradeReport read;
  std::string err;
  ASSERT_TRUE(readReportJson(toJson(r), &read, &err)) << err;
  applyOverrides(overrides, "alice", &read);
  EXPECT_EQ(toJson(read), toJson(r));
  // A changed file: clear, apply afresh.
  clearOverrides(&read);
  EXPECT_EQ(toJson(read), toJson(richReport()));
  applyOverrides({{"alice", "conv3x3", "convolution", 1.5, "", "", ""}}, "alice", &read);
  EXPECT_DOUBLE_EQ(read.total, 3.5);
  EXPECT_DOUBLE_EQ(read.tasks[0].criteria[0].originalPoints, 0);
}

TEST(Overrides, ADeductionCanBeWaivedButNotTurnedIntoPoints) {
  GradeReport r = richReport();
  CriterionResult d;
  d.id = "stray_writes";
  d.points = -0.5;
  d.min = -0.5;
  d.status = Status::Failed;
  r.tasks[0].criteria.push_back(d);
  r.tasks[0].sumPoints();
  r.sumPoints();
  const double before = r.total;
  std::vector<std::string> problems;
  applyOverrides({{"alice", "conv3x3", "stray_writes", 0, "a driver quirk", "ta1", "o.csv:2"}}, "alice", &r, &problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_DOUBLE_EQ(r.tasks[0].criteria.back().points, 0);
  EXPECT_DOUBLE_EQ(r.total, before + 0.5);
  applyOverrides({{"alice", "conv3x3", "stray_writes", 2, "", "", "o.csv:3"}}, "alice", &r, &problems);
  EXPECT_EQ(reporttest::joinLines(problems),
            "o.csv:3: alice conv3x3.stray_writes: 2 points is outside -0.5..0, 0 given\n");
  applyOverrides({{"alice", "conv3x3", "stray_writes", -3, "", "", "o.csv:4"}}, "alice", &r, &problems);
  EXPECT_DOUBLE_EQ(r.tasks[0].criteria.back().points, -0.5);
}

TEST(Overrides, UnknownNamesAreReported) {
  GradeReport r = richReport();
  std::vector<std::string> problems;
  const std::vector<Override> overrides = {{"alice", "conv5x5", "convolution", 1, "", "", "o.csv:2"},
                                           {"alice", "conv3x3", "speed", 1, "", "", "o.csv:3"},
                                           {"eve", "conv3x3", "convolution", 1, "", "", "o.csv:4"}};
  applyOverrides(overrides, "alice", &r, &problems);
  EXPECT_EQ(reporttest::joinLines(problems),
            "o.csv:2: alice: no task 'conv5x5' in the report (tasks: conv3x3, separable, histogram)\n"
            "o.csv:3: alice: no criterion 'speed' in task conv3x3 (criteria: convolution, tile_load)\n");
  EXPECT_EQ(toJson(r), toJson(richReport()));  // nothing applied, nothing summed
  EXPECT_EQ(unknownOverrideSubmissions(overrides, {"alice", "bob"}),
            (std::vector<std::string>{
                "o.csv:4: no submission 'eve' in this batch (override of conv3x3.convolution not applied)"}));
}

TEST(Overrides, EveryOutputShowsThem) {
  std::vector<Override> overrides;
  std::vector<std::string> errors;
  ASSERT_TRUE(
      parseOverrides("submission,task,criterion,points,comment,author\n"
                     "alice,conv3x3,convolution,2.5,\"late fix <b>accepted</b>, see mail\",ta1\n",
                     "o.csv", &overrides, &errors));
  GradeReport r = richReport();
  applyOverrides(overrides, "alice", &r);
  ASSERT_DOUBLE_EQ(r.total, 4.5);

  const nlohmann::json json = nlohmann::json::parse(toJson(r));
  EXPECT_EQ(json["tasks"][0]["criteria"][0]["overridden"], true);
  EXPECT_EQ(json["total"], 4.5);

  const std::string html = htmlReport(r);
  EXPECT_NE(html.find("<span class=\"badge override\">overridden</span>"), std::string::npos);
  EXPECT_NE(html.find("late fix &lt;b&gt;accepted&lt;/b&gt;, see mail"), std::string::npos);

  const std::string csv = gradebookCsv({{"alice", true, r, "", "", {}, {}}});
  EXPECT_NE(csv.find("alice,2.5,2,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\"conv3x3.convolution: 2.5 (measured 0) by ta1: late fix <b>accepted</b>, see mail\""),
            std::string::npos);

  const std::string junit = junitXml(r);
  EXPECT_NE(junit.find("<property name=\"convolution.overridden\" value=\"true\"/>"), std::string::npos);
  EXPECT_NE(junit.find("<property name=\"convolution.original_points\" value=\"0\"/>"), std::string::npos);

  const nlohmann::json gs = nlohmann::json::parse(gradescopeResults(r));
  EXPECT_EQ(gs["tests"][0]["extra_data"]["overridden"], true);
  EXPECT_DOUBLE_EQ(gs["score"].get<double>(), 4.5);

  const nlohmann::json pl = nlohmann::json::parse(prairieLearnResults(r));
  EXPECT_NE(
      pl["tests"][0]["message"].get<std::string>().find("Instructor override: 2.5 of 3 points (measured 0) by ta1"),
      std::string::npos);

  EXPECT_NE(summaryHtml({{"alice", true, r, "", "", {}, {}}}).find("badge override"), std::string::npos);
}

}  // namespace
}  // namespace clgrade
