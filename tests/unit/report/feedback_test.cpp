// Feedback that teaches (issue 14): findings said once, pictures that show the bug, source lines in
// the report, and the student's report that gives no hidden case away.
#include <gtest/gtest.h>

#include <cmath>

#include "checks/comparison.h"
#include "checks/failure_picture.h"
#include "image/difference.h"
#include "image/png.h"
#include "intake/source_quotes.h"
#include "model/report_json.h"
#include "report/audience.h"
#include "report/findings.h"
#include "report/html_report.h"
#include "report/terminal_table.h"

namespace clgrade {
namespace {

Image feedbackRamp(int w, int h) {
  Image img(w, h, 1);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img.at(0, x, y) = 0.01f * float((x * 7 + y * 3) % 50);
  return img;
}

TEST(Finding, SaysWhereTheWrongValuesAreWhateverTheSize) {
  for (int w : {100, 1280}) {
    const Image expected = feedbackRamp(w, 37);
    Image actual = expected;
    for (int y = 0; y < 37; ++y) actual.at(0, w - 1, y) += 0.5f;
    const Comparison c = compareImages(expected, actual, CompareRule{}, RegionModel{});
    EXPECT_EQ(c.finding(), "wrong values in the last column (x = W-1)") << w;
  }
  const Image expected = feedbackRamp(64, 40);
  Image shifted = expected;
  for (float& v : shifted.pixels) v += 0.25f;
  EXPECT_EQ(compareImages(expected, shifted, CompareRule{}, RegionModel{}).finding(), "wrong values nearly everywhere");
  Image tile = expected;
  for (int y = 1; y < 39; ++y) tile.at(0, 16, y) += 0.5f, tile.at(0, 32, y) += 0.5f;  // tile edges of 16 x 16
  EXPECT_EQ(compareImages(expected, tile, CompareRule{}, RegionModel{1, 1, 16, 16}).finding(),
            "wrong values at the edges of work-group tiles (the halo)");
  EXPECT_EQ(compareImages(expected, expected, CompareRule{}, RegionModel{}).finding(), "");
  // The bottom row is the last one the rule grades: y = H-2 when the course leaves y = H-1 out.
  Image bottom = expected;
  for (int x = 0; x < 64; ++x) bottom.at(0, x, 38) += 0.5f;
  EXPECT_EQ(compareImages(expected, bottom, CompareRule{}, RegionModel{}).finding(),
            "wrong values in the bottom row (y = H-2, the last graded row)");
  CompareRule everyRow;
  everyRow.skipLastRow = false;
  EXPECT_EQ(compareImages(expected, bottom, everyRow, RegionModel{}).finding(), "wrong values in one row");
  // On an image a few columns wide, "the last 3 columns" would say nothing.
  const Image narrow = feedbackRamp(4, 40);
  Image wrong = narrow;
  for (int y = 10; y < 20; ++y) wrong.at(0, 1, y) += 0.5f, wrong.at(0, 2, y) += 0.5f;
  EXPECT_EQ(compareImages(narrow, wrong, CompareRule{}, RegionModel{}).finding().find("columns"), std::string::npos);
}

// Issue 28, item 5: an off-by-one in the horizontal pass that damaged the last 5 columns was "wrong
// values in parts of the image" (the band rule knew the last 4 columns only), and the summary counted
// "inside tiles" what the coordinates put at the right edge.
TEST(Finding, ABandAtAnEdgeIsNamedWhateverTheRadius) {
  const Image expected = feedbackRamp(780, 575);
  Image actual = expected;
  for (int y = 0; y < 574; ++y)
    for (int x = 775; x < 780; ++x) actual.at(0, x, y) += 0.5f;
  const Comparison c = compareImages(expected, actual, CompareRule{}, RegionModel{4, 1, 32, 16});
  EXPECT_EQ(c.finding(), "wrong values in the last 5 columns (x >= W-5)");
  EXPECT_NE(c.summary().find("values wrong, all in the last 5 columns (x >= W-5)"), std::string::npos) << c.summary();
  EXPECT_EQ(c.summary().find("inside tiles"), std::string::npos) << c.summary();
  Image top = expected;
  for (int y = 0; y < 60; ++y)
    for (int x = 100; x < 300; ++x) top.at(0, x, y) += 0.5f;
  EXPECT_EQ(compareImages(expected, top, CompareRule{}, RegionModel{}).finding(), "wrong values in the top 60 rows");
  // A third of the image is no band at an edge.
  Image wide = expected;
  for (int y = 0; y < 574; ++y)
    for (int x = 520; x < 780; ++x) wide.at(0, x, y) += 0.5f;
  EXPECT_EQ(compareImages(expected, wide, CompareRule{}, RegionModel{}).finding().find("last"), std::string::npos);
}

CaseOutcome failed(const std::string& id, bool visible, const std::string& message, const std::string& finding) {
  CaseOutcome o;
  o.caseId = id;
  o.visible = visible;
  o.status = Status::Failed;
  o.message = message;
  o.finding = finding;
  o.details = {"first wrong pixel of " + id};
  return o;
}

/// conv3x3 with the last column wrong in a visible and a hidden case of `output` and in the
/// simulator's case of `bank_conflicts`.
GradeReport columnReport() {
  GradeReport r;
  r.mode = "grade";
  r.hiddenSeed = 42;
  r.inputs = {{"box_1280x720", 1280, 720, 1, std::string(64, 'a')}};
  TaskReport t;
  t.id = "conv3x3";
  t.file = "Convolution3x3.cl";
  CheckResult output;
  output.id = "output";
  output.cases = {
      failed("course_edge", true, "575 of 448500 values wrong", "wrong values in the last column (x = W-1)"),
      failed("box_1280x720", false, "719 of 920320 values wrong", "wrong values in the last column (x = W-1)")};
  output.cases[1].evidence = {{"difference image", "evidence/conv3x3/box_1280x720/output_diff.png"}};
  summarize(&output);
  CheckResult analysis;
  analysis.id = "bank_conflicts";
  analysis.cases = {
      failed("analysis (box_1280x720)", false, "36 of 3700 values wrong", "wrong values in the last column (x = W-1)")};
  summarize(&analysis);
  t.checks = {output, analysis};
  CriterionResult c;
  c.id = "convolution";
  c.max = 2;
  c.status = Status::Failed;
  c.checks = {"output"};
  c.message = "output: " + output.message;
  t.criteria = {c};
  t.performance.caseId = "box_1280x720";
  r.tasks = {t};
  return r;
}

TEST(Findings, TheSameFindingIsOneEntryThatListsWhereItRecurs) {
  const GradeReport r = columnReport();
  const std::vector<Finding> findings = taskFindings(r.tasks[0]);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].places.size(), 3u);
  EXPECT_EQ(findings[0].shown().size(), 2u);                          // one case of each check
  EXPECT_EQ(findings[0].shown()[0].outcome->caseId, "box_1280x720");  // the one with pictures
  EXPECT_EQ(recurrence(findings[0]),
            "output: course_edge, box_1280x720 (hidden); bank_conflicts: analysis (box_1280x720) (hidden)");
  // Without a finding, messages that differ only in their numbers are one finding too.
  CaseOutcome a = failed("a", true, "timed out after 5 s in kernel K", ""),
              b = failed("b", true, "timed out after 20 s in kernel K", "");
  EXPECT_EQ(findingKey(a), findingKey(b));
}

TEST(Audience, TheStudentsReportNamesNoHiddenCaseAndNoSize) {
  const GradeReport instructor = columnReport();
  const GradeReport student = forStudents(instructor);
  const std::string json = toJson(student);
  for (const char* secret : {"box_1280x720", "920320", "1280", "719 of"})
    EXPECT_EQ(json.find(secret), std::string::npos) << secret << " in " << json;
  EXPECT_NE(json.find("hidden-1"), std::string::npos);
  EXPECT_EQ(student.tasks[0].checks[1].cases[0].caseId, "the simulator's run") << "not a hidden case of its own";
  EXPECT_EQ(student.tasks[0].checks[1].cases[0].message,
            "the simulator's run failed: wrong values in the last column (x = W-1)");
  EXPECT_NE(json.find("a hidden case failed: wrong values in the last column (x = W-1)"), std::string::npos);
  EXPECT_FALSE(student.hiddenSeed);
  EXPECT_TRUE(student.inputs.empty());
  // The visible case is the instructor's, word for word.
  EXPECT_EQ(student.tasks[0].checks[0].cases[0].message, "575 of 448500 values wrong");
  EXPECT_EQ(student.tasks[0].checks[0].cases[0].details, instructor.tasks[0].checks[0].cases[0].details);
  EXPECT_TRUE(student.tasks[0].checks[0].cases[1].evidence.empty());
  // Every student-facing rendering of it: the page and the terminal lines.
  HtmlOptions options;
  options.audience = Audience::Student;
  for (const std::string& text : {htmlReport(student, options),
                                  terminalTable(student) + whatToFix(student) + failureDetails(student, "reports/x")})
    EXPECT_EQ(text.find("box_1280x720"), std::string::npos) << text;
  // A report without hidden cases loses only the seed.
  GradeReport open = columnReport();
  for (CheckResult& c : open.tasks[0].checks)
    for (CaseOutcome& o : c.cases) o.visible = true;
  EXPECT_EQ(forStudents(open).tasks[0].checks[1].cases[0].caseId, "analysis (box_1280x720)");
  EXPECT_EQ(hiddenFailureKind(failed("x", false, "expected 1280 columns, got 12", "")), "expected N columns, got N");
  // Numbers go, names stay: a file's name is not a hidden value.
  EXPECT_EQ(hiddenFailureKind(failed("x", false, "Convolution3x3.cl does not compile (options: -D H_GROUPSIZE_X=64)", "")),
            "Convolution3x3.cl does not compile (options: -D H_GROUPSIZE_X=N)");
  EXPECT_EQ(numbersAsN("at 1280x720, build_2.log, x=1279, 0.5"), "at NxN, build_2.log, x=N, N.N");
  EXPECT_EQ(hiddenFailureKind(failed("x", false, "anything", "wrong values in the last 2 columns (x >= W-2)")),
            "wrong values in the last 2 columns (x >= W-2)");
}

// A build made for hidden cases only shows the student neither its options (the hidden cases' group
// sizes and steps) nor its log; a build a visible case shares is shown as it is.
TEST(Audience, ABuildOfHiddenCasesOnlyShowsNoOptions) {
  GradeReport r = columnReport();
  BuildRecord visible, hidden;
  visible.options = "-D H_GROUPSIZE_X=32";
  visible.ok = true;
  hidden.options = "-D H_GROUPSIZE_X=64 -D H_RESULT_STEPS=8";
  hidden.hidden = true;
  hidden.error = "does not compile (options: -D H_GROUPSIZE_X=64)";
  hidden.log = "error: static assertion failed: 64 * 8";
  hidden.logPath = "evidence/conv3x3/build_2.log";
  r.tasks[0].builds = {visible, hidden};
  const GradeReport student = forStudents(r);
  const std::string json = toJson(student);
  for (const char* secret : {"=64", "H_RESULT_STEPS", "static assertion", "build_2.log"})
    EXPECT_EQ(json.find(secret), std::string::npos) << secret << " in " << json;
  EXPECT_EQ(student.tasks[0].builds[0].options, "-D H_GROUPSIZE_X=32");
  EXPECT_EQ(student.tasks[0].builds[1].options, "(the options of a hidden case)");
  EXPECT_EQ(toJson(r).find("\"hidden\": true") != std::string::npos, true) << "the instructor's report says which";
}

TEST(Audience, EveryOtherPlaceAHiddenCaseCouldShowIsScrubbedToo) {
  GradeReport r = columnReport();
  TaskReport& t = r.tasks[0];
  // A task stopped in the hidden case (isolation: unfinishedTask), quoted in the task's problem.
  t.problem = "timed out after 60 s while running kernel Convolution (case box_1280x720): the task scores 0";
  CheckResult stopped;
  stopped.id = "stopped";
  stopped.cases = {failed("box_1280x720", false, t.problem, "")};
  stopped.cases[0].evidence = {{"the kernel's output", "evidence/conv3x3/box_1280x720/stopped.txt"}};
  summarize(&stopped);
  t.checks.push_back(stopped);
  // A hidden case named by a plain word: named cases change, plain prose does not.
  t.checks.push_back(
      CheckResult{"edges", "", Status::Failed, "", {failed("border", false, "1 of 920320 values wrong", "")}});
  t.criteria[0].message += "; wrong at the image border; case border: 1 of 920320 values wrong";
  t.criteria[0].evidence = {{"crop x 1248..1279", "evidence/conv3x3/box_1280x720/output_crop.png"},
                            {"course picture", "evidence/conv3x3/course_edge/output_diff.png"}};
  t.counters = {
      {"Convolution", "simulated", {{"work_groups", 14400}, {"local_store_conflicts", 3}, {"global_loads", 921600}}}};
  t.process.kernelOutput = "evidence/conv3x3/kernel_output.txt";
  t.process.kernelOutputBytes = 1280;
  const GradeReport student = forStudents(r);
  const std::string json = toJson(student);
  for (const char* secret : {"box_", "1280", "920320", "14400", "921600", "kernel_output", "work_groups"})
    EXPECT_EQ(json.find(secret), std::string::npos) << secret << " in " << json;
  const TaskReport& s = student.tasks[0];
  EXPECT_EQ(s.criteria[0].evidence.size(), 1u);
  EXPECT_EQ(s.criteria[0].evidence[0].label, "course picture");
  EXPECT_NE(s.criteria[0].message.find("wrong at the image border; case hidden-"), std::string::npos)
      << s.criteria[0].message;
  EXPECT_EQ(s.counters[0].values.size(), 1u);
  EXPECT_EQ(s.counters[0].values[0].first, "local_store_conflicts");
  EXPECT_NE(s.problem.find("(case hidden-1)"), std::string::npos) << s.problem;
  EXPECT_EQ(s.checks[2].cases[0].message,
            "a hidden case failed: timed out after N s while running kernel Convolution "
            "(case hidden-N): the task scores N");
}

TEST(HtmlReport, OpensWithWhatToFixAndSaysEachFindingOnce) {
  const std::string html = htmlReport(columnReport());
  const size_t fix = html.find("id=\"first-failure\""), table = html.find("class=\"points\"");
  ASSERT_NE(fix, std::string::npos);
  EXPECT_LT(table, fix);
  EXPECT_NE(html.find("href=\"#fail-0-output\""), std::string::npos);
  EXPECT_NE(html.find("id=\"fail-0-output\""), std::string::npos);
  EXPECT_NE(html.find("the same in 3 places"), std::string::npos);
  // The finding's headline once, not once per case.
  size_t headlines = 0;
  for (size_t at = html.find("<h4>wrong values in the last column"); at != std::string::npos;
       at = html.find("<h4>wrong values in the last column", at + 1))
    ++headlines;
  EXPECT_EQ(headlines, 1u);
}

TEST(HtmlReport, TheSweepsIncorrectPointsShareOneProblemLine) {
  GradeReport r = columnReport();
  SweepReport& sweep = r.tasks[0].sweep;
  sweep.ran = true;
  for (int steps : {1, 2, 3}) {
    SweepPoint p;
    p.caseId = "steps" + std::to_string(steps);
    p.problem = "horizontal: " + std::to_string(1000 * steps) + " values wrong";
    sweep.points.push_back(p);
  }
  const std::string html = htmlReport(r);
  EXPECT_NE(
      html.find("steps1: horizontal: 1000 values wrong <small>(the same at 2 more points: steps2 steps3)</small>"),
      std::string::npos);
  EXPECT_EQ(html.find("2000 values wrong"), std::string::npos);
}

TEST(Terminal, WhatToFixIsOneLinePerFailingCriterion) {
  const std::string fix = whatToFix(columnReport());
  EXPECT_EQ(
      fix,
      "What to fix:\n  conv3x3.convolution              0/2    wrong values in the last column (x = W-1) (3 places)\n");
  GradeReport passing = columnReport();
  passing.tasks[0].criteria[0].status = Status::Passed;
  EXPECT_EQ(whatToFix(passing), "");
}

TEST(FailureCrop, AOnePixelColumnAtTheBorderIsSeenMagnified) {
  const int W = 1280, H = 40;
  const Image expected = feedbackRamp(W, H);
  Image actual = expected;
  for (int y = 0; y < H; ++y) actual.at(0, W - 1, y) = 0.9f;
  const Image e = squaredError(expected, actual);
  int x = 0, y = 0;
  ASSERT_TRUE(firstFailingPixel(e, 1e-8f, &x, &y));
  EXPECT_EQ(x, W - 1);
  EXPECT_EQ(y, 0);
  const CropWindow w = cropAround(x, y, W, H);
  EXPECT_EQ(w.x0, W - 32);
  EXPECT_EQ(w.y0, 0);
  const RgbImage crop = failureCrop(expected, actual, e, 1e-8f, 0.0f, 1.0f, w);
  // The difference panel is the third: its last magnified column fails (red to yellow), the one
  // before it is black, in every row of the panel.
  const int panelW = w.width * w.scale, left = 8 + 2 * (panelW + 16), top = 26;
  auto at = [&](int px, int py) { return &crop.rgb[3 * (size_t(py) * crop.width + px)]; };
  for (int j = 2; j < w.height; ++j) {  // below the boxed first pixel
    const int py = top + j * w.scale + w.scale / 2;
    const uint8_t* wrong = at(left + (w.width - 1) * w.scale + w.scale / 2, py);
    const uint8_t* right = at(left + (w.width - 2) * w.scale + w.scale / 2, py);
    EXPECT_EQ(wrong[0], 255) << j;
    EXPECT_EQ(wrong[2], 0) << j;
    EXPECT_EQ(right[0] + right[1] + right[2], 0) << j;
  }
  // Shrunk for the page, the column stays: every pooled pixel of the last column keeps the worst.
  const Image pooled = worstPool(e, 2);
  EXPECT_EQ(pooled.width, W / 2);
  for (int j = 0; j < pooled.height; ++j) EXPECT_GT(pooled.at(0, pooled.width - 1, j), 1e-8f);
}

TEST(DifferenceColour, FailuresRunFromRedToYellowAtTheWorstError) {
  const Rgb8 limit = differenceColour(1e-8f, 1e-8f, 1e-2f), worst = differenceColour(1e-2f, 1e-8f, 1e-2f);
  EXPECT_EQ(limit.r, 255);
  EXPECT_EQ(limit.g, 0);
  EXPECT_EQ(worst.g, 255);
  const Rgb8 half = differenceColour(0.25e-2f, 1e-8f, 1e-2f);  // half the worst |difference|
  EXPECT_NEAR(half.g, 128, 2);
  EXPECT_EQ(differenceColour(NAN, 1e-8f, 1e-2f).b, 255);
}

TEST(SourceQuotes, CompilerErrorsAndSimulatorLinesAreQuotedFromTheirFiles) {
  KernelSource source;
  source.present = true;
  source.fileBytes = "#include \"common.h\"\nkernel void K(global float* a) {\n  a[0] = f()\n  a[1] = 2;\n}\n";
  source.text =
      "#line 1 \"common.h\"\nfloat f() { return 1 }\n#line 2 \"Convolution3x3.cl\"\nkernel void K(global float* a) {\n"
      "  a[0] = f()\n  a[1] = 2;\n}\n";
  TaskReport t;
  t.file = "Convolution3x3.cl";
  BuildRecord b;
  b.ok = false;
  b.log =
      "/var/cache/x/Convolution3x3.cl:3:13: error: expected ';' after expression\ncommon.h:1:21: error: expected ';'\n";
  t.builds = {b};
  CheckResult c;
  c.id = "bank_conflicts";
  c.status = Status::Failed;
  c.cases = {failed("analysis", true, "a barrier is missing between lines 3 and 4", "")};
  t.checks = {c};
  const std::vector<SourceQuote> quotes = quoteSource(source, t, 1);
  ASSERT_EQ(quotes.size(), 3u);
  EXPECT_EQ(quotes[0].file, "Convolution3x3.cl");
  EXPECT_EQ(quotes[0].line, 3);
  EXPECT_EQ(quotes[0].firstLine, 2);
  EXPECT_EQ(quotes[0].lines,
            (std::vector<std::string>{"kernel void K(global float* a) {", "  a[0] = f()", "  a[1] = 2;"}));
  EXPECT_EQ(quotes[0].why, "build: error: expected ';' after expression");
  EXPECT_EQ(quotes[1].file, "common.h");
  EXPECT_EQ(quotes[1].lines, (std::vector<std::string>{"float f() { return 1 }"}));
  EXPECT_EQ(quotes[2].line, 4);  // line 3 is quoted already
  EXPECT_EQ(quotes[2].why, "bank_conflicts");
  // The report keeps them, and the page shows them with the line marked.
  t.sourceQuotes = quotes;
  GradeReport r;
  r.tasks = {t};
  GradeReport back;
  std::string err;
  ASSERT_TRUE(readReportJson(toJson(r), &back, &err)) << err;
  EXPECT_EQ(back.tasks[0].sourceQuotes.size(), 3u);
  EXPECT_EQ(back.tasks[0].sourceQuotes[1].lines, quotes[1].lines);
  EXPECT_NE(htmlReport(back).find("<mark>    3    a[0] = f()</mark>"), std::string::npos);
}

// PoCL's build log puts the place after "error:" ("error: Convolution3x3.cl:7:57: expected ';' ..."):
// a kernel that did not compile was quoted nowhere.
TEST(SourceQuotes, PoclsErrorFirstLinesAreQuotedToo) {
  KernelSource source;
  source.present = true;
  source.fileBytes = "kernel void K(global float* a) {\n  a[0] = 1\n}\n";
  source.text = source.fileBytes;
  TaskReport t;
  t.file = "Convolution3x3.cl";
  BuildRecord b;
  b.ok = false;
  b.log = "error: Convolution3x3.cl:2:11: expected ';' at end of declaration\n";
  t.builds = {b};
  const std::vector<SourceQuote> quotes = quoteSource(source, t);
  ASSERT_EQ(quotes.size(), 1u);
  EXPECT_EQ(quotes[0].line, 2);
  EXPECT_EQ(quotes[0].why, "build: error: expected ';' at end of declaration");
}

TEST(SourceQuotes, HostileLogsAndDirectivesCostLittleAndQuoteLittle) {
  // Megabyte lines (a compiler echoing a kernel line, a student's own #line directives) are parsed in
  // one pass: no recursion per character, no line table as long as a directive's number.
  KernelSource source;
  source.present = true;
  source.text =
      "#line 2000000000 \"" + std::string(500000, 'n') + "\"\nx\n#line 1 \"K.cl\"\n" + std::string(1 << 20, 'y') + "\n";
  for (int i = 0; i < 1000; ++i) source.text += "#line 1 \"f" + std::to_string(i) + ".h\"\nz\n";
  TaskReport t;
  t.file = "K.cl";
  BuildRecord b;
  b.log = std::string(1 << 20, 'a') + "\n" + std::string(1 << 20, ':') +
          "\nK.cl:1:1: error: " + std::string(1 << 20, 'e') + "\n";
  for (int i = 0; i < 20000; ++i) b.log += "K.cl:1:1: warning: w\n";
  t.builds = {b};
  const std::vector<SourceQuote> quotes = quoteSource(source, t);
  ASSERT_EQ(quotes.size(), 1u);
  EXPECT_EQ(quotes[0].line, 1);
  EXPECT_LE(quotes[0].lines.at(0).size(), 303u);
  EXPECT_LE(quotes[0].why.size(), 200u);
  EXPECT_LE(linesByFile(source, "K.cl").size(), 256u);
}

}  // namespace
}  // namespace clgrade
