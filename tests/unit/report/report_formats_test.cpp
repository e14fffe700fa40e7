// Gradescope results.json, PrairieLearn results.json and JUnit XML from the one result model: each
// against its required fields and types (schemas in tests/data/report_schemas), JUnit through tinyxml2.
#include <gtest/gtest.h>

#include <tinyxml2.h>

#include <nlohmann/json.hpp>

#include "image/png.h"
#include "model/report_json.h"
#include "report/gradescope.h"
#include "report/html_report.h"
#include "report/junit.h"
#include "report/prairielearn.h"
#include "report/terminal_table.h"
#include "report/text.h"
#include "report_fixture.h"

namespace clgrade {
namespace {

using reporttest::kHostile;
using reporttest::overriddenReport;
using reporttest::richReport;
using reporttest::validate;

// ---- What students see

TEST(StudentFormats, NeverShowTheHiddenSeed) {
  // The seed makes the hidden inputs again: it stays in the instructor's report.json.
  const GradeReport r = richReport();
  ASSERT_TRUE(r.hiddenSeed.has_value());
  GradescopeOptions gradescope;
  gradescope.details.hiddenCaseDetails = true;
  PrairieLearnOptions prairielearn;
  prairielearn.details.hiddenCaseDetails = true;
  const std::string seed = std::to_string(*r.hiddenSeed);
  for (const auto& [format, text] : std::vector<std::pair<std::string, std::string>>{
           {"gradescope", gradescopeResults(r, gradescope)},
           {"prairielearn", prairieLearnResults(r, prairielearn)},
           {"junit", junitXml(r)},
           {"terminal", terminalTable(r) + failureDetails(r, "reports/a")}}) {
    EXPECT_EQ(text.find(seed), std::string::npos) << format;
    EXPECT_EQ(text.find("seed"), std::string::npos) << format;
  }
}

// Found by an intake corpus: what an archive left out was said on the terminal only. A report's
// notices reach every format a student or an instructor reads, and report.json round-trips them.
TEST(StudentFormats, ShowTheNotices) {
  GradeReport r = richReport();
  r.notices = {"alice.zip: left out demo.mp4: larger than 16 MiB, the limit of one file",
               "histogram.cl is beside the kernels folder and not graded <b>"};
  for (const auto& [format, text] : std::vector<std::pair<std::string, std::string>>{
           {"gradescope", nlohmann::json::parse(gradescopeResults(r))["output"].get<std::string>()},
           {"prairielearn", nlohmann::json::parse(prairieLearnResults(r))["output"].get<std::string>()},
           {"html", htmlReport(r)}}) {
    EXPECT_NE(text.find("alice.zip: left out demo.mp4: larger than 16 MiB"), std::string::npos) << format;
    // The student's text is escaped where it is markup.
    const std::string bold = format == "html" ? "not graded &lt;b&gt;" : "not graded <b>";
    EXPECT_NE(text.find(bold), std::string::npos) << format;
  }
  const std::string json = toJson(r);
  EXPECT_EQ(validate(json, "clgrade_report.schema.json"), "");
  GradeReport read;
  std::string err;
  ASSERT_TRUE(readReportJson(json, &read, &err)) << err;
  EXPECT_EQ(read.notices, r.notices);
  EXPECT_EQ(toJson(richReport()).find("notices"), std::string::npos);  // none: no key
}

// ---- Gradescope

TEST(Gradescope, FollowsTheSpec) {
  const std::string text = gradescopeResults(overriddenReport());
  EXPECT_EQ(validate(text, "gradescope_results.schema.json"), "");
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_DOUBLE_EQ(j["score"].get<double>(), 5);
  EXPECT_EQ(j["execution_time"], 13);
  ASSERT_EQ(j["tests"].size(), 6u);  // one per criterion
  const auto& t = j["tests"][0];
  EXPECT_EQ(t["name"], "conv3x3 / convolution: Correct convolution");
  EXPECT_EQ(t["number"], "1.1");
  EXPECT_DOUBLE_EQ(t["max_score"].get<double>(), 3);
  EXPECT_EQ(t["visibility"], "visible");
  EXPECT_EQ(j["tests"][1]["status"], "passed");
  EXPECT_EQ(j["tests"][2]["status"], "failed");  // error
  // Its points count a hidden case: shown after the due date (Gradescope then hides the total too).
  EXPECT_EQ(j["tests"][2]["visibility"], "after_due_date");
  // Not measured: an informational test (no score, no status), with the reason.
  EXPECT_EQ(j["tests"][3]["name"], "separable / steps: RESULT_STEPS chart, \"fast\" & <right> (not measured)");
  EXPECT_FALSE(j["tests"][3].contains("score") || j["tests"][3].contains("max_score") ||
               j["tests"][3].contains("status"));
  EXPECT_NE(j["tests"][3]["output"].get<std::string>().find("not measured: steps_sweep: not implemented yet"),
            std::string::npos);
  // Student text stays text, never HTML or Markdown.
  EXPECT_EQ(j["output_format"], "text");
  EXPECT_EQ(j["test_output_format"], "text");
  EXPECT_EQ(j["test_name_format"], "text");
  EXPECT_TRUE(j["leaderboard"].is_array());
  EXPECT_TRUE(j["leaderboard"].empty());
  EXPECT_FALSE(j.contains("visibility"));
}

TEST(Gradescope, OutputListsTheFailingCasesAndHidesHiddenDetails) {
  const nlohmann::json j = nlohmann::json::parse(gradescopeResults(richReport()));
  const std::string failed = j["tests"][0]["output"];
  EXPECT_NE(failed.find("case edge failed: 12 values wrong"), std::string::npos) << failed;
  EXPECT_NE(failed.find("(0,0) ch0: expected 0.5, got 0.25"), std::string::npos) << failed;
  const std::string errored = j["tests"][2]["output"];
  EXPECT_NE(errored.find("case secret_size (hidden) error"), std::string::npos) << errored;
  EXPECT_EQ(errored.find("hidden detail"), std::string::npos) << errored;
  GradescopeOptions all;
  all.details.hiddenCaseDetails = true;
  const nlohmann::json k = nlohmann::json::parse(gradescopeResults(richReport(), all));
  EXPECT_NE(k["tests"][2]["output"].get<std::string>().find("hidden detail: 1023x767"), std::string::npos);
}

TEST(Gradescope, VisibilityPerTaskAndCriterion) {
  GradescopeOptions options;
  options.visibility = "after_published";
  options.testVisibility = {{"separable", "hidden"}, {"separable.steps", "visible"}};
  options.resultVisibility = "after_due_date";
  const std::string text = gradescopeResults(richReport(), options);
  EXPECT_EQ(validate(text, "gradescope_results.schema.json"), "");
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j["visibility"], "after_due_date");
  EXPECT_EQ(j["tests"][0]["visibility"], "after_published");
  EXPECT_EQ(j["tests"][2]["visibility"], "hidden");
  EXPECT_EQ(j["tests"][3]["visibility"], "visible");
}

TEST(Gradescope, HiddenCasesPointsAfterTheDueDateVisibleCasesNow) {
  GradeReport r = richReport();
  TaskReport& sep = r.tasks[1];
  ASSERT_EQ(sep.id, "separable");
  const std::string checkId = sep.criteria[0].checks.front();
  for (CheckResult& check : sep.checks)
    if (check.id == checkId) {
      CaseOutcome course;
      course.caseId = "course_small";
      course.status = Status::Failed;
      course.message = "3 values wrong";
      course.details = {"ConvolutionSeparable.cl:12:5: error: use of undeclared identifier 'tile'"};
      check.cases.insert(check.cases.begin(), course);
    }
  const std::string text = gradescopeResults(r);
  EXPECT_EQ(validate(text, "gradescope_results.schema.json"), "");
  const nlohmann::json j = nlohmann::json::parse(text);
  ASSERT_EQ(j["tests"].size(), 7u);
  const auto& scored = j["tests"][2];
  EXPECT_EQ(scored["visibility"], "after_due_date");
  EXPECT_TRUE(scored.contains("score"));
  const auto& now = j["tests"][3];
  EXPECT_EQ(now["name"], "separable / horizontal (visible cases)");
  EXPECT_EQ(now["visibility"], "visible");
  EXPECT_FALSE(now.contains("score"));
  EXPECT_EQ(now["status"], "failed") << "a visible test says whether the visible cases passed";
  EXPECT_NE(now["output"].get<std::string>().find(checkId + ", case course_small: 3 values wrong"), std::string::npos);
  EXPECT_NE(now["output"].get<std::string>().find("error: use of undeclared identifier 'tile'"), std::string::npos)
      << "a visible case's details (the compiler's errors) are shown: " << now["output"];
  EXPECT_EQ(now["output"].get<std::string>().find("secret_size"), std::string::npos);  // no hidden case named
  // The top-level output shows whenever the results do: no points of a test shown after the due
  // date there, and no total that would give them away.
  const std::string top = j["output"];
  EXPECT_EQ(top.find("total:"), std::string::npos) << top;
  EXPECT_EQ(top.find("horizontal:"), std::string::npos) << top;
  EXPECT_NE(top.find("shown after the due date"), std::string::npos) << top;

  GradescopeOptions allVisible;
  allVisible.hiddenCaseVisibility = "";
  const nlohmann::json k = nlohmann::json::parse(gradescopeResults(r, allVisible));
  EXPECT_EQ(k["tests"].size(), 6u);
  EXPECT_EQ(k["tests"][2]["visibility"], "visible");
  EXPECT_NE(k["output"].get<std::string>().find("total:"), std::string::npos) << "every test visible: the total too";
}

TEST(Gradescope, OverrideIsShown) {
  const nlohmann::json j = nlohmann::json::parse(gradescopeResults(overriddenReport()));
  const auto& t = j["tests"][0];
  EXPECT_DOUBLE_EQ(t["score"].get<double>(), 3);
  EXPECT_EQ(t["extra_data"]["overridden"], true);
  EXPECT_DOUBLE_EQ(t["extra_data"]["original_points"].get<double>(), 0);
  EXPECT_NE(std::find(t["tags"].begin(), t["tags"].end(), "overridden"), t["tags"].end());
  EXPECT_NE(t["output"].get<std::string>().find(
                "Instructor override: 3 of 3 points (measured 0) by ta1: edge handling accepted"),
            std::string::npos);
  EXPECT_NE(j["output"].get<std::string>().find("convolution: 3/3 failed (overridden, measured 0)"), std::string::npos);
  EXPECT_EQ(j["tests"][1]["extra_data"]["overridden"], false);
}

TEST(Gradescope, LeaderboardFromEntriesAndFromBandwidth) {
  GradeReport r = richReport();
  EXPECT_EQ(bandwidthLeaderboard(r).size(), 1u);
  EXPECT_EQ(bandwidthLeaderboard(r)[0].name, "conv3x3 Convolution GB/s");
  EXPECT_DOUBLE_EQ(bandwidthLeaderboard(r)[0].value, 1234.57);
  r.tasks[0].performance.kernels[0].untrusted = "CPU device: indicative only";
  EXPECT_TRUE(bandwidthLeaderboard(r).empty());

  GradescopeOptions options;
  options.leaderboard = {{"conv3x3 GB/s", 1234.5, "desc"}, {"total ms", 0.25, "asc"}, {"broken", std::nan(""), "asc"}};
  const std::string text = gradescopeResults(richReport(), options);
  EXPECT_EQ(validate(text, "gradescope_results.schema.json"), "");
  const nlohmann::json j = nlohmann::json::parse(text);
  ASSERT_EQ(j["leaderboard"].size(), 2u);  // NaN is not JSON: left out
  EXPECT_EQ(j["leaderboard"][1]["name"], "total ms");
  EXPECT_EQ(j["leaderboard"][1]["order"], "asc");
}

TEST(Gradescope, SurvivesHostileText) {
  std::string text;
  ASSERT_NO_THROW(text = gradescopeResults(richReport()));
  EXPECT_TRUE(reporttest::validUtf8(text));
  EXPECT_NO_THROW(nlohmann::json::parse(text));
}

// ---- PrairieLearn

TEST(PrairieLearn, FollowsTheSpecWithImages) {
  PrairieLearnOptions options;
  options.reportDir = reporttest::makeReportDir("pl");
  const std::string text = prairieLearnResults(overriddenReport(), options);
  EXPECT_EQ(validate(text, "prairielearn_results.schema.json"), "");
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j["gradable"], true);
  EXPECT_DOUBLE_EQ(j["score"].get<double>(), 5.0 / 20);
  ASSERT_EQ(j["tests"].size(), 6u);
  const auto& t = j["tests"][0];
  EXPECT_EQ(t["name"], "conv3x3 / convolution");
  EXPECT_DOUBLE_EQ(t["points"].get<double>(), 3);
  EXPECT_DOUBLE_EQ(t["max_points"].get<double>(), 3);
  EXPECT_NE(t["message"].get<std::string>().find("Instructor override: 3 of 3 points (measured 0)"), std::string::npos);
  EXPECT_EQ(t["description"], "Correct convolution (checks: output)");
  ASSERT_EQ(t["images"].size(), 3u);  // difference, expected, actual
  EXPECT_NE(t["images"][0]["label"].get<std::string>().find("output, case edge: difference"), std::string::npos);
  EXPECT_NE(t["images"][1]["label"].get<std::string>().find("expected"), std::string::npos);
  // The data URI holds the PNG file itself.
  std::string png, err;
  ASSERT_TRUE(readFile(options.reportDir + "/evidence/conv3x3/edge/output_diff.png", &png, &err)) << err;
  const std::string url = t["images"][0]["url"];
  EXPECT_EQ(reporttest::base64Decode(url.substr(std::string("data:image/png;base64,").size())), png);
  EXPECT_TRUE(j["tests"][1]["images"].empty());
}

TEST(PrairieLearn, ScoreStaysAFractionAndImagesStayWithinTheBudget) {
  GradeReport r = richReport();
  PrairieLearnOptions options;
  options.reportDir = reporttest::makeReportDir("pl_budget");
  options.maxFileBytes = 10;  // nothing fits: the last resort is the score and one line, still valid
  nlohmann::json j = nlohmann::json::parse(prairieLearnResults(r, options));
  EXPECT_EQ(j["gradable"], true);
  EXPECT_TRUE(j["tests"].empty());
  EXPECT_NE(j["output"].get<std::string>().find("only the points are here"), std::string::npos);
  options.reportDir = "/nonexistent";
  options.maxFileBytes = 1000000;
  j = nlohmann::json::parse(prairieLearnResults(r, options));
  EXPECT_TRUE(j["tests"][0]["images"].empty());  // a missing file is named, not fatal
  r.max = 0;
  r.total = 0;
  j = nlohmann::json::parse(prairieLearnResults(r, options));
  EXPECT_DOUBLE_EQ(j["score"].get<double>(), 0);
  EXPECT_EQ(validate(j.dump(), "prairielearn_results.schema.json"), "");
}

TEST(PrairieLearn, TheFileStaysUnderOneMegabyteAndEachPictureIsShownOnce) {
  // Pictures of noise that do not compress (about 250 kB each as PNG), shared by two criteria.
  const std::string dir = reporttest::makeReportDir("pl_megabyte");
  Image noise(500, 500, 1);
  uint32_t state = 12345;
  for (float& v : noise.pixels) v = float((state = state * 1664525u + 1013904223u) >> 8) / float(1 << 24);
  std::string err;
  for (const char* name : {"output_diff.png", "output_expected.png", "output_actual.png"})
    ASSERT_TRUE(writePng(dir + "/evidence/conv3x3/edge/" + name, noise, 0, 1, &err)) << err;
  GradeReport r = richReport();
  CriterionResult again = r.tasks[0].criteria[0];
  again.id = "again";
  r.tasks[0].criteria.push_back(again);
  PrairieLearnOptions options;
  options.reportDir = dir;
  const std::string text = prairieLearnResults(r, options);
  EXPECT_LE(text.size(), 1000000u);
  // (Not run through validate(): std::regex recurses per character of a 300 kB data URI.)
  const nlohmann::json j = nlohmann::json::parse(text);
  size_t pictures = 0;
  for (const auto& t : j["tests"]) pictures += t["images"].size();
  // The difference map and one more fit in 1 MB as base64; the third is named instead.
  ASSERT_EQ(j["tests"][0]["images"].size(), 2u);
  EXPECT_NE(j["tests"][0]["images"][0]["label"].get<std::string>().find("difference"), std::string::npos);
  EXPECT_EQ(pictures, 2u);
  EXPECT_NE(j["tests"][0]["output"].get<std::string>().find("not included: no room left in results.json"),
            std::string::npos);
  const nlohmann::json& shared = j["tests"][r.tasks[0].criteria.size() - 1];
  EXPECT_EQ(shared["name"], "conv3x3 / again");
  EXPECT_TRUE(shared["images"].empty());
  EXPECT_NE(shared["output"].get<std::string>().find("shown with conv3x3 / convolution"), std::string::npos);
}

TEST(PrairieLearn, TextOverTheLimitIsCutLongestFirst) {
  GradeReport r = richReport();
  r.tasks[0].criteria[0].message = std::string(400000, 'x');
  r.tasks[0].checks[0].cases[1].details.assign(2000, std::string(600, 'y'));
  PrairieLearnOptions options;
  options.details.detailLines = 5000;
  options.maxFileBytes = 300000;
  options.images = false;
  std::string text = prairieLearnResults(r, options);
  // The message is never cut with the outputs: with it the file cannot be kept under 300 kB that way,
  // so only the points are left, each message cut short, and where the reasons are.
  EXPECT_LE(text.size(), 300000u);
  EXPECT_NE(text.find("only the points are here; report.html has the reasons"), std::string::npos);
  EXPECT_EQ(validate(text, "prairielearn_results.schema.json"), "");
  // Without the long message the outputs alone are cut, longest first, and say so.
  r.tasks[0].criteria[0].message = "short";
  text = prairieLearnResults(r, options);
  EXPECT_LE(text.size(), 300000u);
  EXPECT_NE(text.find("(cut: PrairieLearn's results.json must stay under 300 kB"), std::string::npos);
  EXPECT_EQ(validate(text, "prairielearn_results.schema.json"), "");

  // Many pictures that do not fit, each adding a note: still under the limit.
  const std::string dir = reporttest::makeReportDir("pl_notes");
  GradeReport many = richReport();
  for (int i = 0; i < 60; ++i) {
    CriterionResult copy = many.tasks[0].criteria[0];
    copy.id = "copy" + std::to_string(i);
    many.tasks[0].criteria.push_back(copy);
  }
  PrairieLearnOptions tight;
  tight.reportDir = dir;
  tight.maxFileBytes = 20000;
  text = prairieLearnResults(many, tight);
  EXPECT_LE(text.size(), 20000u);
  EXPECT_NO_THROW(nlohmann::json::parse(text));
}

// ---- JUnit

const tinyxml2::XMLElement* child(const tinyxml2::XMLElement* e, const char* name, const char* attr = nullptr,
                                  const char* value = nullptr) {
  for (auto* c = e->FirstChildElement(name); c; c = c->NextSiblingElement(name))
    if (!attr || (c->Attribute(attr) && std::string(c->Attribute(attr)) == value)) return c;
  return nullptr;
}

std::string property(const tinyxml2::XMLElement* testcase, const char* name) {
  const auto* props = testcase->FirstChildElement("properties");
  if (!props) return "(no properties)";
  const auto* p = child(props, "property", "name", name);
  return p ? p->Attribute("value") : "(none)";
}

TEST(Junit, ParsesWithCorrectCounts) {
  const std::string xml = junitXml(overriddenReport());
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(xml.c_str()), tinyxml2::XML_SUCCESS) << doc.ErrorStr();
  const auto* root = doc.RootElement();
  ASSERT_STREQ(root->Name(), "testsuites");
  EXPECT_EQ(root->IntAttribute("tests"), 6);
  EXPECT_EQ(root->IntAttribute("failures"), 3);
  EXPECT_EQ(root->IntAttribute("errors"), 1);
  EXPECT_EQ(root->Attribute("skipped"), nullptr);  // junit-10.xsd: on testsuite only
  EXPECT_DOUBLE_EQ(root->DoubleAttribute("time"), 12.5);
  int suites = 0, total = 0;
  for (auto* suite = root->FirstChildElement("testsuite"); suite; suite = suite->NextSiblingElement("testsuite")) {
    ++suites;
    int tests = 0, failures = 0, errors = 0, skipped = 0;
    for (auto* tc = suite->FirstChildElement("testcase"); tc; tc = tc->NextSiblingElement("testcase")) {
      ++tests;
      EXPECT_STREQ(tc->Attribute("classname"), suite->Attribute("name"));
      failures += tc->FirstChildElement("failure") != nullptr;
      errors += tc->FirstChildElement("error") != nullptr;
      skipped += tc->FirstChildElement("skipped") != nullptr;
    }
    EXPECT_EQ(suite->IntAttribute("tests"), tests) << suite->Attribute("name");
    EXPECT_EQ(suite->IntAttribute("failures"), failures);
    EXPECT_EQ(suite->IntAttribute("errors"), errors);
    EXPECT_EQ(suite->IntAttribute("skipped"), skipped);
    EXPECT_STREQ(suite->Attribute("timestamp"), "2025-05-01T10:00:00Z");
    total += tests;
  }
  EXPECT_EQ(suites, 3);
  EXPECT_EQ(total, 6);
}

TEST(Junit, OneTestcasePerCriterionWithPointsAndOutcome) {
  const std::string xml = junitXml(overriddenReport());
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(xml.c_str()), tinyxml2::XML_SUCCESS) << doc.ErrorStr();
  const auto* conv = child(doc.RootElement(), "testsuite", "name", "conv3x3");
  ASSERT_TRUE(conv);
  EXPECT_EQ(property(conv, "points"), "5");
  const auto* convolution = child(conv, "testcase", "name", "convolution");
  ASSERT_TRUE(convolution);
  EXPECT_STREQ(convolution->Attribute("classname"), "conv3x3");
  // A testcase has no <properties> in junit-10.xsd: the criterion's are its suite's, prefixed.
  EXPECT_EQ(convolution->FirstChildElement("properties"), nullptr);
  EXPECT_EQ(property(conv, "convolution.points"), "3");
  EXPECT_EQ(property(conv, "convolution.max"), "3");
  EXPECT_EQ(property(conv, "convolution.overridden"), "true");
  EXPECT_EQ(property(conv, "convolution.original_points"), "0");
  EXPECT_EQ(property(conv, "convolution.override_comment"), "edge handling accepted, see mail of 3 May <ok>");
  EXPECT_EQ(property(conv, "convolution.override_author"), "ta1");
  EXPECT_STREQ(conv->Attribute("file"), "Convolution3x3.cl");
  const auto* failure = convolution->FirstChildElement("failure");
  ASSERT_TRUE(failure);
  EXPECT_STREQ(failure->Attribute("message"), "output: case edge: 12 values wrong");
  EXPECT_NE(std::string(failure->GetText()).find("case edge failed"), std::string::npos);
  EXPECT_EQ(std::string(failure->GetText()).rfind("Convolution3x3.cl: ", 0), 0u) << failure->GetText();
  const auto* tile = child(conv, "testcase", "name", "tile_load");
  EXPECT_FALSE(tile->FirstChildElement("failure") || tile->FirstChildElement("error") ||
               tile->FirstChildElement("skipped"));
  EXPECT_EQ(property(conv, "tile_load.overridden"), "(none)");

  const auto* sep = child(doc.RootElement(), "testsuite", "name", "separable");
  const auto* steps = child(sep, "testcase", "name", "steps");
  const auto* skipped = steps->FirstChildElement("skipped");
  ASSERT_TRUE(skipped);
  EXPECT_STREQ(skipped->Attribute("message"), "steps_sweep: not implemented yet");
  EXPECT_STREQ(skipped->GetText(), "steps_sweep: not implemented yet");  // GitLab reads the text
  EXPECT_EQ(property(sep, "steps.title"), "RESULT_STEPS chart, \"fast\" & <right>");
  const auto* error = child(sep, "testcase", "name", "horizontal")->FirstChildElement("error");
  ASSERT_TRUE(error);
  // Markup and bytes that are not UTF-8 arrive as text: escaped, the bytes replaced.
  EXPECT_EQ(std::string(error->Attribute("message")), "horizontal: CL_OUT_OF_RESOURCES " + cleanText(kHostile));
  EXPECT_EQ(xml.find("<script>"), std::string::npos);
  EXPECT_TRUE(reporttest::validUtf8(xml));
  EXPECT_EQ(xml.find('\x01'), std::string::npos);
}

TEST(Junit, MultiLineMessagesKeepTheirLines) {
  GradeReport r = richReport();
  r.tasks[0].criteria[0].message = "first line\nsecond line";
  tinyxml2::XMLDocument doc;
  const std::string xml = junitXml(r);
  ASSERT_EQ(doc.Parse(xml.c_str()), tinyxml2::XML_SUCCESS);
  const auto* failure =
      child(child(doc.RootElement(), "testsuite", "name", "conv3x3"), "testcase", "name", "convolution")
          ->FirstChildElement("failure");
  EXPECT_STREQ(failure->Attribute("message"), "first line\nsecond line");
}

}  // namespace
}  // namespace clgrade
