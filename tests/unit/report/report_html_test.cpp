// report.html and summary.html: well-formed HTML5 with no script, every piece of student text
// escaped, pictures that resolve from the report folder (or embedded), overrides shown.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>

#include "report/html_report.h"
#include "report/summary_html.h"
#include "report/text.h"
#include "report_fixture.h"

namespace clgrade {
namespace {

using reporttest::checkHtml;
using reporttest::joinLines;
using reporttest::overriddenReport;
using reporttest::richReport;

bool exists(const std::string& path) {
  struct stat s;
  return ::stat(path.c_str(), &s) == 0;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

size_t count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t i = haystack.find(needle); i != std::string::npos; i = haystack.find(needle, i + 1)) ++n;
  return n;
}

TEST(HtmlReport, IsWellFormedHtml5WithoutScript) {
  HtmlOptions options;
  options.reportDir = reporttest::makeReportDir("html");
  const std::string html = htmlReport(overriddenReport(), options);
  const reporttest::HtmlDoc doc = checkHtml(html);
  EXPECT_EQ(joinLines(doc.problems), "");
  EXPECT_EQ(lower(html).find("<script"), std::string::npos);
  EXPECT_EQ(lower(html).find("javascript:"), std::string::npos);
  EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
  EXPECT_NE(html.find("<html lang=\"en\">"), std::string::npos);
  EXPECT_NE(html.find("<meta charset=\"utf-8\">"), std::string::npos);
  EXPECT_EQ(doc.tagCounts.count("link"), 0u);  // no stylesheet fetched
}

TEST(HtmlReport, EscapesStudentText) {
  HtmlOptions options;
  options.reportDir = reporttest::makeReportDir("html_escape");
  GradeReport r = overriddenReport();
  r.kernelsDir = "submissions/<img src=x onerror=alert(1)>";
  r.tasks[0].file = "\"><script>alert(3)</script>.cl";
  const std::string html = htmlReport(r, options);
  EXPECT_EQ(joinLines(checkHtml(html).problems), "");
  EXPECT_EQ(lower(html).find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<img src=x"), std::string::npos);
  EXPECT_NE(html.find("&lt;img src=x onerror=alert(1)&gt;"),
            std::string::npos);  // text, not an element (checkHtml refuses on* attributes)
  // The hostile detail line is there, escaped, with its bad bytes replaced.
  EXPECT_NE(html.find(htmlEscape(reporttest::kHostile)), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("Fa\xef\xbf\xbd"
                      "ade"),
            std::string::npos);
  // The build log read from the report folder, with its own "</pre><script>", stays inside its <pre>.
  EXPECT_NE(html.find("&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("Separable &lt;convolution&gt;"), std::string::npos);
  EXPECT_TRUE(reporttest::validUtf8(html));
}

TEST(HtmlReport, ShowsHeaderPointsFailuresLogsCountersTimings) {
  HtmlOptions options;
  options.reportDir = reporttest::makeReportDir("html_content");
  const std::string html = htmlReport(richReport(), options);
  EXPECT_NE(html.find("<h1>alice <span class=\"total\">2 / 20 points</span></h1>"),
            std::string::npos);  // the folder holding kernels/
  for (const char* expected : {"Four tasks",
                               "NVIDIA H100",
                               "2025-05-01T10:00:00Z",
                               "<th>Criterion</th>",
                               "badge st-failed",
                               "badge st-passed",
                               "badge st-error",
                               "badge st-not_measured",
                               "What failed",
                               "case edge",
                               "(0,0) ch0: expected 0.5, got 0.25",
                               "<details open><summary>build 1:",
                               "options: -DRESULT_STEPS=4",
                               "<h3>Counters</h3>",
                               "local_store_conflicts",
                               "hardware (ncu)",
                               "<h3>Timings</h3>",
                               "Convolution ch0: 0.412 ms",
                               "<h2>Performance</h2>",
                               "1235",
                               "empty launch ms",
                               "0.0125",
                               "RESULT_STEPS sweep",
                               "steps4_32x16",
                               "histogram.cl not found",
                               "photo_780x575",
                               "(hidden)"})
    EXPECT_NE(html.find(expected), std::string::npos) << expected;
}

TEST(HtmlReport, PicturesAreRelativeToTheReportFolder) {
  HtmlOptions options;
  options.reportDir = reporttest::makeReportDir("html_links");
  const std::string html = htmlReport(richReport(), options);
  const reporttest::HtmlDoc doc = checkHtml(html);
  size_t images = 0;
  for (const auto& [where, url] : doc.urls) {
    EXPECT_EQ(url.find("://"), std::string::npos) << url;  // nothing external
    EXPECT_NE(url.rfind("//", 0), 0u) << url;
    if (url.empty() || url[0] == '#') continue;
    EXPECT_TRUE(isSafeRelativePath(url)) << url;
    if (where == "img.src") {
      ++images;
      EXPECT_TRUE(exists(options.reportDir + "/" + url)) << url;  // the page works opened from the report folder
    }
  }
  EXPECT_EQ(images, 3u);  // difference next to expected and actual
  const size_t diff = html.find("src=\"evidence/conv3x3/edge/output_diff.png\"");
  const size_t expected = html.find("src=\"evidence/conv3x3/edge/output_expected.png\"");
  const size_t actual = html.find("src=\"evidence/conv3x3/edge/output_actual.png\"");
  ASSERT_NE(diff, std::string::npos);
  EXPECT_LT(diff, expected);
  EXPECT_LT(expected, actual);
  EXPECT_NE(html.find("href=\"evidence/conv3x3/edge/output_diff.pfm\""), std::string::npos);
  EXPECT_EQ(html.find("data:image/png"), std::string::npos);
}

TEST(HtmlReport, EmbedsPicturesWhenAsked) {
  HtmlOptions options;
  options.reportDir = reporttest::makeReportDir("html_embed");
  options.embedImages = true;
  const std::string html = htmlReport(richReport(), options);
  EXPECT_EQ(joinLines(checkHtml(html).problems), "");
  EXPECT_EQ(count(html, "<img src=\"data:image/png;base64,iVBORw0KGgo"), 3u);
  EXPECT_EQ(html.find("src=\"evidence/"), std::string::npos);
  // A picture that is missing is said to be missing, not a broken page.
  options.reportDir = "/nonexistent";
  const std::string missing = htmlReport(richReport(), options);
  EXPECT_EQ(joinLines(checkHtml(missing).problems), "");
  EXPECT_NE(missing.find("class=\"missing\""), std::string::npos);
}

TEST(HtmlReport, ShowsOverrides) {
  const std::string html = htmlReport(overriddenReport(), HtmlOptions{});
  EXPECT_GE(count(html, "<span class=\"badge override\">overridden</span>"), 2u);  // the points table and the task
  EXPECT_NE(
      html.find(
          "3 of 3 points by the instructor (measured 0), ta1: edge handling accepted, see mail of 3 May &lt;ok&gt;"),
      std::string::npos);
  EXPECT_NE(html.find("5 / 20 points"), std::string::npos);
  EXPECT_EQ(count(htmlReport(richReport(), HtmlOptions{}), "badge override"), 0u);
}

TEST(HtmlReport, LogsWithoutAReportFolderAndCutLogs) {
  GradeReport r = richReport();
  r.tasks[1].builds[0].log = std::string(100, 'x') + "<b>";
  HtmlOptions options;
  options.logLimitBytes = 50;
  const std::string html = htmlReport(r, options);
  EXPECT_EQ(joinLines(checkHtml(html).problems), "");
  EXPECT_NE(html.find("cut after 50 of 103 bytes"), std::string::npos);
  EXPECT_EQ(html.find("&lt;b&gt;"), std::string::npos);
  // A log path that leaves the report folder is not read.
  r.tasks[1].builds[0].log.clear();
  r.tasks[1].builds[0].logPath = "../../etc/passwd";
  EXPECT_NE(htmlReport(r, options).find("the log is not in the report folder"), std::string::npos);
}

TEST(HtmlReport, EmptyReportIsStillAPage) { EXPECT_EQ(joinLines(checkHtml(htmlReport(GradeReport{})).problems), ""); }

// ---- summary.html

std::vector<ClassEntry> classOf() {
  std::vector<ClassEntry> entries;
  ClassEntry alice{"alice", true, overriddenReport(), "", "alice/report.html", {}, {}};
  ClassEntry bob{"bob <script>alert(1)</script>", true, richReport(), "", "bob <script>/report.html", {}, {}};
  bob.report.tasks[0].points = 5;
  bob.report.tasks[0].criteria[0].points = 3;
  bob.report.total = 5;
  ClassEntry carol{"carol", false, GradeReport{}, "timed out after 600 s & killed", "", {}, {}};
  ClassEntry dave{"dave", true, richReport(), "", "dave/report.html", {}, {}};
  entries = {alice, bob, carol, dave};
  return entries;
}

TEST(SummaryHtml, IsWellFormedWithChartsAndLinks) {
  SummaryOptions options;
  options.notes = {"overrides.csv:4: no submission 'eve' in this batch <b>"};
  const std::string html = summaryHtml(classOf(), options);
  const reporttest::HtmlDoc doc = checkHtml(html);
  EXPECT_EQ(joinLines(doc.problems), "");
  EXPECT_EQ(lower(html).find("<script"), std::string::npos);
  EXPECT_EQ(html.find("://"), std::string::npos);  // nothing external
  // One chart for the total and one per task, the failure-rate chart and a bar per criterion (6).
  EXPECT_EQ(doc.tagCounts.at("svg"), 4u + 1u + 6u);
  std::vector<std::string> links;
  for (const auto& [where, url] : doc.urls)
    if (where == "a.href") links.push_back(url);
  // The gradebook, the three in the one group of first failures, the submissions table.
  EXPECT_EQ(links, (std::vector<std::string>{"gradebook.csv", "alice/report.html", "bob%20%3Cscript%3E/report.html",
                                             "dave/report.html", "alice/report.html", "bob%20%3Cscript%3E/report.html",
                                             "dave/report.html"}));
  EXPECT_NE(html.find("bob &lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("not graded: timed out after 600 s &amp; killed"), std::string::npos);
  EXPECT_NE(html.find("no submission &#39;eve&#39; in this batch &lt;b&gt;"), std::string::npos);
  EXPECT_NE(html.find("4 (3 graded"), std::string::npos);
  EXPECT_NE(html.find("conv3x3.convolution: 3 (measured 0)"), std::string::npos);  // alice's override
}

TEST(SummaryHtml, DistributionCountsEachGradedSubmissionOnce) {
  const std::string html = summaryHtml(classOf());
  // conv3x3 (max 5, whole points): alice 5, bob 5, dave 2; the total (max 20): 5, 5, 2.
  EXPECT_NE(html.find("<title>5 points: 2 submissions</title>"), std::string::npos);
  EXPECT_NE(html.find("<title>2 points: 1 submissions</title>"), std::string::npos);
  // Statistics row of conv3x3: max 5, 3 graded, mean 4.00, median 5, lowest 2, highest 5, 2 full marks.
  EXPECT_NE(
      html.find(
          "<tr><td>conv3x3</td><td class=\"num\">5</td><td class=\"num\">3</td><td class=\"num\">4.00</td>"
          "<td class=\"num\">5</td><td class=\"num\">2</td><td class=\"num\">5</td><td class=\"num\">2</td></tr>"),
      std::string::npos);
}

TEST(SummaryHtml, EmptyClassAndLargeMaxima) {
  EXPECT_EQ(joinLines(checkHtml(summaryHtml({})).problems), "");
  std::vector<ClassEntry> entries = classOf();
  for (ClassEntry& e : entries) e.report.max = 100, e.report.total *= 5;
  const std::string html = summaryHtml(entries);
  EXPECT_EQ(joinLines(checkHtml(html).problems), "");
  EXPECT_NE(html.find("20-30"), std::string::npos);  // ten ranges when the maximum is over 20
}

}  // namespace
}  // namespace clgrade
