// Rubric parsing: the shipped variants load with the sheet's points; malformed rubrics give
// "file:line: message" errors that name the problem.
#include <gtest/gtest.h>

#include "../../test_env.h"

#include "model/report_json.h"
#include "report/gradescope.h"
#include "rubric/rubric.h"

#include <nlohmann/json.hpp>

namespace clgrade {
namespace {

std::string rubricPath(const std::string& name) { return test::sourceDir() + "/rubrics/" + name; }

struct Variant {
  const char* file;
  std::vector<std::pair<std::string, std::vector<double>>> tasks;  // task id, criterion points in order
};

void PrintTo(const Variant& v, std::ostream* os) { *os << v.file; }

class ShippedRubric : public ::testing::TestWithParam<Variant> {};

TEST_P(ShippedRubric, LoadsWithTheSheetsPoints) {
  const Variant& v = GetParam();
  Rubric r;
  std::vector<std::string> errors;
  ASSERT_TRUE(loadRubric(rubricPath(v.file), &r, &errors)) << (errors.empty() ? "" : errors.front());
  EXPECT_DOUBLE_EQ(r.maxPoints(), 20.0);
  ASSERT_EQ(r.tasks.size(), v.tasks.size());
  for (size_t i = 0; i < v.tasks.size(); ++i) {
    EXPECT_EQ(r.tasks[i].id, v.tasks[i].first);
    std::vector<Criterion> criteria, deductions;
    for (const Criterion& c : r.tasks[i].criteria) (c.deduction ? deductions : criteria).push_back(c);
    ASSERT_EQ(criteria.size(), v.tasks[i].second.size()) << r.tasks[i].id;
    for (size_t k = 0; k < v.tasks[i].second.size(); ++k)
      EXPECT_DOUBLE_EQ(criteria[k].points, v.tasks[i].second[k]) << criteria[k].id;
    // Stray writes cost a small deduction per task (spec section 5), never more than a tenth of it.
    ASSERT_EQ(deductions.size(), 1u) << r.tasks[i].id;
    EXPECT_EQ(deductions[0].checks, std::vector<std::string>{"writes"});
    EXPECT_GT(deductions[0].points, 0);
    EXPECT_LE(deductions[0].points, r.tasks[i].maxPoints() / 8) << r.tasks[i].id;
    bool visible = false, hidden = false;
    for (const CaseSpec& c : r.tasks[i].cases) (c.visible ? visible : hidden) = true;
    EXPECT_TRUE(visible && hidden) << r.tasks[i].id << " needs visible and hidden cases";
  }
  EXPECT_TRUE(r.settings.rule.skipLastRow);
  EXPECT_DOUBLE_EQ(r.settings.rule.maxSquaredError, 1e-8);
  EXPECT_DOUBLE_EQ(r.settings.rule.meanSquaredError, 1e-10);
  EXPECT_EQ(r.sha256.size(), 64u);
}

INSTANTIATE_TEST_SUITE_P(
    Variants, ShippedRubric,
    ::testing::Values(
        // 3x3: 3 conflict-free load + 2 convolution; separable 3 + 3 + 1 chart; bilateral 1 (+2 with local
        // memory) + 3 filtering; histogram 1 + 1.
        Variant{"four_tasks.xml",
                {{"conv3x3", {3, 2}}, {"separable", {3, 3, 1}}, {"bilateral", {1, 2, 3}}, {"histogram", {1, 1}}}},
        Variant{"three_tasks_histogram.xml", {{"conv3x3", {4, 4}}, {"separable", {4, 4, 2}}, {"histogram", {1, 1}}}},
        Variant{"three_tasks_bilateral.xml",
                {{"conv3x3", {3, 2}}, {"separable", {3, 3, 1}}, {"bilateral", {2, 2, 4}}}}),
    [](const auto& info) {
      std::string name = info.param.file;
      return name.substr(0, name.find('.'));
    });

/// Parses `body` inside a valid rubric skeleton and returns the errors.
std::vector<std::string> errorsOf(const std::string& text) {
  Rubric r;
  std::vector<std::string> errors;
  const bool ok = parseRubric(text, "bad.xml", &r, &errors);
  EXPECT_EQ(ok, errors.empty());
  return errors;
}

const char* kValidTask =
    "  <task id=\"histogram\">\n"
    "    <criterion id=\"g\" points=\"1\" checks=\"global\">global</criterion>\n"
    "    <case id=\"a\" visible=\"true\" width=\"64\" height=\"32\"/>\n"
    "  </task>\n";

TEST(RubricErrors, ValidSkeletonHasNoErrors) {
  EXPECT_TRUE(errorsOf(std::string("<rubric id=\"r\">\n") + kValidTask + "</rubric>\n").empty());
}

TEST(RubricErrors, MalformedXmlNamesTheLine) {
  const auto errors = errorsOf("<rubric id=\"r\">\n  <task id=\"histogram\">\n  </tsk>\n</rubric>\n");
  ASSERT_EQ(errors.size(), 1u);
  // tinyxml2 points at the element that is not closed properly; said in words (issue 28, item 6).
  EXPECT_EQ(errors[0],
            "bad.xml:2: not well-formed XML: element <task> is closed by another element's end tag (or never closed)");
  const auto empty = errorsOf("");
  ASSERT_EQ(empty.size(), 1u);
  EXPECT_EQ(empty[0], "bad.xml:1: not well-formed XML: the file is empty: a rubric is one <rubric> element") << "line 0";
  const auto quotes = errorsOf("<rubric id=r>\n</rubric>\n");
  ASSERT_EQ(quotes.size(), 1u);
  EXPECT_NE(quotes[0].find("an attribute of <rubric> cannot be read (a value needs quotes"), std::string::npos)
      << quotes[0];
}

TEST(RubricErrors, UnknownTaskAndCheckAndParameter) {
  const auto errors = errorsOf(
      "<rubric id=\"r\">\n"
      "  <task id=\"fft\">\n"
      "    <criterion id=\"c\" points=\"1\" checks=\"x\"/>\n"
      "    <case id=\"a\"/>\n"
      "  </task>\n"
      "  <task id=\"histogram\">\n"
      "    <criterion id=\"c\" points=\"1\" checks=\"globl\"/>\n"
      "    <case id=\"a\" widht=\"10\"/>\n"
      "    <case id=\"b\" width=\"-3\"/>\n"
      "    <case id=\"c\" input=\"moon\"/>\n"
      "  </task>\n"
      "</rubric>\n");
  ASSERT_EQ(errors.size(), 5u);
  EXPECT_NE(errors[0].find("bad.xml:2: unknown task 'fft'"), std::string::npos) << errors[0];
  EXPECT_NE(errors[1].find("bad.xml:7: task 'histogram' has no check 'globl'"), std::string::npos) << errors[1];
  EXPECT_NE(errors[2].find("bad.xml:8: case 'a': unknown parameter 'widht'"), std::string::npos) << errors[2];
  EXPECT_NE(errors[3].find("bad.xml:9: case 'b': parameter 'width' must be an integer"), std::string::npos)
      << errors[3];
  EXPECT_NE(errors[4].find("bad.xml:10: case 'c': parameter 'input' must be one of"), std::string::npos) << errors[4];
}

TEST(RubricErrors, PointsMustAddUpAndBeNumbers) {
  const auto errors = errorsOf(std::string("<rubric id=\"r\" points=\"5\">\n") + kValidTask +
                               "  <task id=\"conv3x3\">\n"
                               "    <criterion id=\"c\" points=\"lots\" checks=\"output\"/>\n"
                               "    <case id=\"a\"/>\n"
                               "  </task>\n</rubric>\n");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_NE(errors[0].find("bad.xml:7: attribute 'points' must be a non-negative number"), std::string::npos)
      << errors[0];
  EXPECT_NE(errors[1].find("bad.xml:1: the rubric declares points=\"5\" but its criteria add up to 1"),
            std::string::npos)
      << errors[1];
}

TEST(RubricErrors, DuplicatesMissingPartsAndUnknownSettings) {
  const auto errors = errorsOf(
      "<rubric id=\"r\">\n"
      "  <settings skip_last_row=\"maybe\" colour=\"red\"/>\n"
      "  <task id=\"histogram\">\n"
      "    <criterion id=\"g\" points=\"1\" checks=\"global\"/>\n"
      "    <criterion id=\"g\" points=\"1\" checks=\"local\"/>\n"
      "    <case id=\"a\"/>\n"
      "    <case id=\"a\"/>\n"
      "    <note/>\n"
      "  </task>\n"
      "  <task id=\"conv3x3\"/>\n"
      "</rubric>\n");
  const std::vector<std::string> expected{
      "bad.xml:2: unknown setting 'colour'",
      "bad.xml:2: attribute 'skip_last_row' must be true or false, not 'maybe'",
      "bad.xml:5: criterion id 'g' appears twice",
      "bad.xml:7: case id 'a' appears twice",
      "bad.xml:8: unexpected <note> inside <task>",
      "bad.xml:10: task 'conv3x3' has no <criterion>",
      "bad.xml:10: task 'conv3x3' has no <case>",
  };
  ASSERT_EQ(errors.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(errors[i].rfind(expected[i], 0), 0u) << errors[i];
}

TEST(RubricErrors, SeparableCaseAssumptionsAreChecked) {
  const auto errors = errorsOf(
      "<rubric id=\"r\">\n"
      "  <task id=\"separable\">\n"
      "    <criterion id=\"h\" points=\"1\" checks=\"horizontal\"/>\n"
      "    <case id=\"even\" weights=\"1 2\"/>\n"
      "    <case id=\"radius\" weights=\"box_8x8\" h_group=\"4 16\"/>\n"
      "    <case id=\"wide\" width=\"780\" v_group=\"48 8\"/>\n"
      "    <case id=\"preset\" weights=\"gauss_9x9\"/>\n"
      "  </task>\n"
      "</rubric>\n");
  ASSERT_EQ(errors.size(), 4u);
  EXPECT_NE(errors[0].find("bad.xml:4: case 'even': the filter needs an odd number"), std::string::npos) << errors[0];
  EXPECT_NE(errors[1].find("bad.xml:5: case 'radius': radius 8 exceeds the group size"), std::string::npos)
      << errors[1];
  EXPECT_NE(errors[2].find("bad.xml:6: case 'wide': the vertical launch width"), std::string::npos) << errors[2];
  EXPECT_NE(errors[3].find("bad.xml:7: case 'preset': parameter 'weights' must be a preset"), std::string::npos)
      << errors[3];
}

// Ids become evidence file names, JSON keys and CSV columns: a case id of "../../../tmp/x" wrote
// evidence outside the report folder, and an id with ESC reached the terminal raw.
TEST(RubricErrors, IdsAreRestrictedToASafeCharacterSet) {
  const auto errors = errorsOf(
      "<rubric id=\"r..x\">\n"
      "  <task id=\"histogram\">\n"
      "    <criterion id=\"g/h\" points=\"1\" checks=\"global ../local\">global</criterion>\n"
      "    <case id=\"../../../tmp/x\" visible=\"true\" width=\"64\" height=\"32\"/>\n"
      "    <case id=\".hidden\" width=\"64\" height=\"32\"/>\n"
      "    <case id=\"esc\x1b]0;x\a\" width=\"64\" height=\"32\"/>\n"
      "  </task>\n"
      "</rubric>\n");
  ASSERT_EQ(errors.size(), 6u) << ::testing::PrintToString(errors);
  EXPECT_EQ(errors[0], "bad.xml:1: the id of <rubric> ('r..x') may not hold '..'");
  EXPECT_EQ(errors[1], "bad.xml:3: the id of <criterion> ('g/h') may hold only letters, digits, '_', '-' and '.'");
  EXPECT_EQ(errors[2], "bad.xml:3: criterion 'g/h': check '../local' may hold only letters, digits, '_', '-' and '.'");
  EXPECT_EQ(errors[3],
            "bad.xml:4: the id of <case> ('../../../tmp/x') may hold only letters, digits, '_', '-' and '.'");
  EXPECT_EQ(errors[4], "bad.xml:5: the id of <case> ('.hidden') may not start with '.'");
  EXPECT_EQ(errors[5],
            "bad.xml:6: the id of <case> ('esc\\x1b]0;x\\x07') may hold only letters, digits, '_', '-' and '.'");
}

// Two criteria of 1e308 points each were valid, their sum was inf, and writing the report aborted.
TEST(RubricErrors, NumbersAreFiniteAndBounded) {
  auto withTask = [](const std::string& body, const std::string& settings = "") {
    return errorsOf("<rubric id=\"r\">\n" + settings + "  <task id=\"histogram\">\n" + body +
                    "    <case id=\"a\" visible=\"true\" width=\"64\" height=\"32\"/>\n  </task>\n</rubric>\n");
  };
  auto errors = withTask(
      "    <criterion id=\"g\" points=\"1e308\" checks=\"global\"/>\n"
      "    <criterion id=\"l\" points=\"1e308\" checks=\"local\"/>\n");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0], "bad.xml:3: attribute 'points' is 1e+308 (in <criterion id=\"g\">); at most 1e+06 is allowed");
  errors = withTask(
      "    <criterion id=\"g\" points=\"600000\" checks=\"global\"/>\n"
      "    <criterion id=\"l\" points=\"600000\" checks=\"local\"/>\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "bad.xml:1: the criteria add up to 1.2e+06 points; a rubric may total at most 1e+06");
  EXPECT_EQ(withTask("    <criterion id=\"g\" points=\"inf\" checks=\"global\"/>\n").size(), 1u);
  EXPECT_EQ(withTask("    <criterion id=\"g\" points=\"nan\" checks=\"global\"/>\n").size(), 1u);
  // Counts and sizes become ints: beyond an int's range the conversion was undefined.
  errors = withTask("    <criterion id=\"g\" points=\"1\" checks=\"global\"/>\n",
                    "  <settings banks=\"1e300\" perf_runs=\"4.5\"/>\n");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0], "bad.xml:2: attribute 'banks' is 1e+300 (in <settings>); at most 1024 is allowed");
  EXPECT_EQ(errors[1], "bad.xml:2: attribute 'perf_runs' must be a whole number (in <settings>)");
}

TEST(RubricErrors, MissingFileIsAnError) {
  Rubric r;
  std::vector<std::string> errors;
  EXPECT_FALSE(loadRubric("/nonexistent/rubric.xml", &r, &errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("does not exist"), std::string::npos);
}

}  // namespace
}  // namespace clgrade

namespace clgrade {
namespace {

// Gradescope visibility from the rubric (issue 13, item 1): a task's and a criterion's attribute,
// the criterion's winning, kept in the report and used for the criterion's test.
TEST(RubricVisibility, FromTheTaskAndTheCriterionIntoGradescope) {
  Rubric r;
  std::vector<std::string> errors;
  ASSERT_TRUE(parseRubric(
      "<rubric id=\"r\">\n"
      "  <task id=\"histogram\" visibility=\"hidden\">\n"
      "    <criterion id=\"g\" points=\"1\" checks=\"global\">global</criterion>\n"
      "    <criterion id=\"l\" points=\"1\" checks=\"global\" visibility=\"after_published\">l</criterion>\n"
      "    <case id=\"a\" visible=\"true\" width=\"64\" height=\"32\"/>\n"
      "  </task>\n</rubric>\n",
      "v.xml", &r, &errors))
      << errors.front();
  EXPECT_EQ(r.tasks[0].visibility, "hidden");
  EXPECT_EQ(r.tasks[0].criteria[0].visibility, "");
  EXPECT_EQ(r.tasks[0].criteria[1].visibility, "after_published");
  EXPECT_FALSE(
      parseRubric("<rubric id=\"r\">\n  <task id=\"histogram\" visibility=\"soon\">\n"
                  "    <criterion id=\"g\" points=\"1\" checks=\"global\">g</criterion>\n"
                  "    <case id=\"a\" width=\"64\" height=\"32\"/>\n  </task>\n</rubric>\n",
                  "v.xml", &r, &errors));
  EXPECT_EQ(errors.back(),
            "v.xml:2: attribute 'visibility' is 'soon' (expected visible, hidden, after_due_date or after_published)");

  GradeReport report;
  TaskReport t;
  t.id = "histogram";
  CriterionResult shown, own;
  shown.id = "g";
  own.id = "l";
  own.visibility = "after_published";
  shown.status = own.status = Status::Passed;
  t.criteria = {shown, own};
  report.tasks = {t};
  GradeReport back;
  std::string err;
  ASSERT_TRUE(readReportJson(toJson(report), &back, &err)) << err;
  EXPECT_EQ(back.tasks[0].criteria[1].visibility, "after_published");
  const nlohmann::json j = nlohmann::json::parse(gradescopeResults(back));
  EXPECT_EQ(j["tests"][0]["visibility"], "visible");
  EXPECT_EQ(j["tests"][1]["visibility"], "after_published");
}

}  // namespace
}  // namespace clgrade

namespace clgrade {
namespace {

// A task's runner is told the rubric's settings and its own task only (protocol/runner_request.h).
TEST(RubricForTask, KeepsTheSettingsAndOneTask) {
  Rubric whole;
  std::vector<std::string> problems;
  ASSERT_TRUE(loadRubric(test::sourceDir() + "/rubrics/four_tasks.xml", &whole, &problems));
  for (const TaskRubric& task : whole.tasks) {
    Rubric part;
    ASSERT_TRUE(parseRubric(rubricForTask(whole, task.id), "part.xml", &part, &problems)) << task.id;
    ASSERT_EQ(part.tasks.size(), 1u);
    EXPECT_EQ(part.tasks.front().id, task.id);
    EXPECT_EQ(part.tasks.front().cases.size(), task.cases.size());
    EXPECT_EQ(part.tasks.front().criteria.size(), task.criteria.size());
    EXPECT_EQ(part.id, whole.id);
    EXPECT_EQ(part.settings.rule.maxSquaredError, whole.settings.rule.maxSquaredError);
    EXPECT_EQ(part.settings.banks, whole.settings.banks);
    EXPECT_EQ(part.perf.minTimerMultiple, whole.perf.minTimerMultiple);
  }
  EXPECT_EQ(rubricForTask(Rubric(), "conv3x3"), "") << "no text, no part";
}

// The profiler session counts several tasks in one process: it is told theirs and no other.
TEST(RubricForTask, KeepsTheTasksNamedInTheirOrder) {
  Rubric whole;
  std::vector<std::string> problems;
  ASSERT_TRUE(loadRubric(test::sourceDir() + "/rubrics/four_tasks.xml", &whole, &problems));
  ASSERT_EQ(whole.tasks.size(), 4u);
  const std::vector<std::string> named{whole.tasks[3].id, whole.tasks[1].id};
  Rubric part;
  ASSERT_TRUE(parseRubric(rubricForTasks(whole, named), "part.xml", &part, &problems));
  ASSERT_EQ(part.tasks.size(), 2u);
  EXPECT_EQ(part.tasks[0].id, whole.tasks[1].id) << "the rubric's order";
  EXPECT_EQ(part.tasks[1].id, whole.tasks[3].id);
}

}  // namespace
}  // namespace clgrade
