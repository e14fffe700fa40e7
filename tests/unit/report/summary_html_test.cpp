// summary.html, the class at a glance: the header (device, clgrade version, rubric, dates, the
// gradebook link), the failure rate of each criterion (table and chart) and the most common first
// failures grouped by their message with the numbers taken out.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "report/summary_html.h"
#include "report_fixture.h"

namespace clgrade {
namespace {

using reporttest::checkHtml;
using reporttest::joinLines;

CriterionResult criterion(const std::string& id, double max, Status status, double points, const std::string& message) {
  CriterionResult c;
  c.id = id;
  c.title = "title of " + id;
  c.max = max;
  c.status = status;
  c.points = points;
  c.message = message;
  return c;
}

/// Two tasks: conv (output 3 points, tile 2 points) and hist (global 4 points, the deduction
/// stray_writes of up to 1 point); every criterion passed with full points.
GradeReport passingReport(const std::string& device, const std::string& driver, const std::string& version,
                          const std::string& startedAt) {
  GradeReport r;
  r.version = version;
  r.mode = "grade";
  r.startedAt = startedAt;
  r.rubricId = "two_tasks";
  r.rubricTitle = "Two tasks";
  r.device.name = device;
  r.device.driver = driver;
  TaskReport conv;
  conv.id = "conv";
  conv.title = "Convolution";
  conv.max = 5;
  conv.criteria = {criterion("output", 3, Status::Passed, 3, "all values within tolerance"),
                   criterion("tile", 2, Status::Passed, 2, "0 conflicts")};
  TaskReport hist;
  hist.id = "hist";
  hist.title = "Histogram";
  hist.max = 4;
  CriterionResult stray = criterion("stray_writes", 0, Status::Passed, 0, "no stray writes");
  stray.min = -1;
  hist.criteria = {criterion("global", 4, Status::Passed, 4, "all bins right"), stray};
  r.tasks = {conv, hist};
  for (TaskReport& t : r.tasks) t.sumPoints();
  r.sumPoints();
  return r;
}

void setCriterion(GradeReport* r, size_t task, size_t crit, Status status, double points, const std::string& message) {
  CriterionResult& c = r->tasks[task].criteria[crit];
  c.status = status;
  c.points = points;
  c.message = message;
  for (TaskReport& t : r->tasks) t.sumPoints();
  r->sumPoints();
}

/// Three graded submissions and one that was not:
///  alice: conv.output failed "719 of 920320 values wrong" (first failure);
///  bob <b>x</b>: conv.output failed "12 of 100 values wrong" (first failure), conv.tile failed,
///    hist.global error, the deduction hist.stray_writes applied (-1);
///  carol: everything passed but hist.stray_writes, not measured; another device and clgrade version;
///  dave: not graded.
/// conv.output fails in 2 of 3 (67%), the others in 1 of 3 (33%).
std::vector<ClassEntry> summaryClass() {
  ClassEntry alice{"alice", true, passingReport("NVIDIA H100", "550.1", "0.3.0", "2025-05-02T08:00:00Z"), "",
                   "alice/report.html", {}, {}};
  setCriterion(&alice.report, 0, 0, Status::Failed, 0, "output: case edge: 719 of 920320 values wrong");
  ClassEntry bob{"bob <b>x</b>", true, passingReport("NVIDIA H100", "550.1", "0.3.0", "2025-05-03T18:30:00Z"), "",
                 "bob <b>x</b>/report.html", {}, {}};
  setCriterion(&bob.report, 0, 0, Status::Failed, 0, "output: case  edge: 12 of 100 values wrong");
  setCriterion(&bob.report, 0, 1, Status::Failed, 0, "3 bank conflicts");
  setCriterion(&bob.report, 1, 0, Status::Error, 0, "CL_OUT_OF_RESOURCES");
  setCriterion(&bob.report, 1, 1, Status::Failed, -1, "2 stray writes");
  ClassEntry carol{"carol", true, passingReport("Portable CL cpu", "5.0", "0.4.0", "2025-05-01T09:00:00Z"), "",
                   "carol/report.html", {}, {}};
  setCriterion(&carol.report, 1, 1, Status::NotMeasured, 0, "not on this device");
  ClassEntry dave{"dave", false, GradeReport{}, "timed out", "", {}, {}};
  return {alice, bob, carol, dave};
}

/// The text of the element that starts with `<section id="ID"`, up to its end tag.
std::string section(const std::string& html, const std::string& id) {
  const size_t start = html.find("<section id=\"" + id + "\"");
  if (start == std::string::npos) return "";
  const size_t end = html.find("</section>", start);
  return html.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

/// The table row (<tr ... </tr>) of `text` that holds `needle`.
std::string rowWith(const std::string& text, const std::string& needle) {
  const size_t at = text.find(needle);
  if (at == std::string::npos) return "";
  const size_t start = text.rfind("<tr", at);
  const size_t end = text.find("</tr>", at);
  if (start == std::string::npos || end == std::string::npos) return "";
  return text.substr(start, end - start);
}

size_t occurrences(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(SummaryGlance, IsWellFormedWithNoScriptAndNothingExternal) {
  const std::string html = summaryHtml(summaryClass());
  const reporttest::HtmlDoc doc = checkHtml(html);
  EXPECT_EQ(joinLines(doc.problems), "");
  std::string lower = html;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  EXPECT_EQ(lower.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("://"), std::string::npos);
  EXPECT_EQ(joinLines(checkHtml(summaryHtml({})).problems), "");
}

TEST(SummaryGlance, HeaderNamesDeviceVersionRubricDatesAndLinksTheGradebook) {
  const std::string html = summaryHtml(summaryClass());
  const size_t headerEnd = html.find("</header>");
  ASSERT_NE(headerEnd, std::string::npos);
  const std::string header = html.substr(0, headerEnd);
  EXPECT_NE(
      header.find("<dt>Device</dt><dd>mixed: NVIDIA H100, driver 550.1 (2 submissions); Portable CL cpu, driver 5.0 "
                  "(1 submission)</dd>"),
      std::string::npos)
      << header;
  EXPECT_NE(header.find("<dt>clgrade</dt><dd>mixed: 0.3.0 (2 submissions); 0.4.0 (1 submission)</dd>"),
            std::string::npos)
      << header;
  EXPECT_NE(header.find("<dt>Rubric</dt><dd>Two tasks (two_tasks)</dd>"), std::string::npos) << header;
  // The earliest and the latest start, whatever the order of the submissions.
  EXPECT_NE(header.find("2025-05-01T09:00:00Z to 2025-05-03T18:30:00Z"), std::string::npos) << header;
  EXPECT_NE(header.find("<a href=\"gradebook.csv\">gradebook.csv</a>"), std::string::npos) << header;
  const reporttest::HtmlDoc doc = checkHtml(html);
  EXPECT_NE(
      std::find(doc.urls.begin(), doc.urls.end(), std::make_pair(std::string("a.href"), std::string("gradebook.csv"))),
      doc.urls.end());

  // One device and one version: said once, not "mixed".
  std::vector<ClassEntry> same = summaryClass();
  same[2].report.device = same[0].report.device;
  same[2].report.version = "0.3.0";
  const std::string one = summaryHtml(same);
  EXPECT_NE(one.find("<dt>Device</dt><dd>NVIDIA H100, driver 550.1</dd>"), std::string::npos);
  EXPECT_NE(one.find("<dt>clgrade</dt><dd>0.3.0</dd>"), std::string::npos);
  EXPECT_EQ(one.find("mixed"), std::string::npos);

  // No gradebook next to the page: no link.
  SummaryOptions options;
  options.gradebook = "";
  EXPECT_EQ(summaryHtml(summaryClass(), options).find("gradebook.csv"), std::string::npos);
}

TEST(SummaryGlance, FailureRatePerCriterionInRubricOrder) {
  const std::string html = summaryHtml(summaryClass());
  EXPECT_NE(html.find("failure rate"), std::string::npos);
  const std::string rates = section(html, "failure-rates");
  ASSERT_FALSE(rates.empty()) << "no section failure-rates";
  EXPECT_NE(rates.find("<h2>Failure rate per criterion</h2>"), std::string::npos);

  // Every criterion, in class column order.
  const std::vector<std::string> order = {"<code>conv.output</code>", "<code>conv.tile</code>",
                                          "<code>hist.global</code>", "<code>hist.stray_writes</code>"};
  size_t at = 0;
  for (const std::string& name : order) {
    const size_t found = rates.find(name, at);
    ASSERT_NE(found, std::string::npos) << name << " missing or out of order";
    at = found + 1;
  }

  // conv.output: failed by alice and bob, passed by carol; 3 points lost by each of the two.
  const std::string output = rowWith(rates, "<code>conv.output</code>");
  EXPECT_NE(output.find("2 / 3"), std::string::npos) << output;
  EXPECT_NE(output.find("67%"), std::string::npos) << output;
  EXPECT_NE(output.find(">2.00<"), std::string::npos) << output;   // points lost on average: (3 + 3 + 0) / 3
  EXPECT_NE(output.find("highest"), std::string::npos) << output;  // the highest rate is marked
  EXPECT_NE(output.find("<svg"), std::string::npos) << output;     // with a bar

  // An error counts as failing, and is said.
  const std::string global = rowWith(rates, "<code>hist.global</code>");
  EXPECT_NE(global.find("1 / 3 <small>(1 error)</small>"), std::string::npos) << global;
  EXPECT_NE(global.find("33%"), std::string::npos) << global;

  // A deduction that applied (failed, -1) fails; not measured is counted apart, not as failing.
  const std::string stray = rowWith(rates, "<code>hist.stray_writes</code>");
  EXPECT_NE(stray.find("deduction up to 1"), std::string::npos) << stray;
  EXPECT_NE(stray.find("1 / 3"), std::string::npos) << stray;
  EXPECT_NE(stray.find("<td class=\"num\">1</td><td class=\"num\">0.33</td>"), std::string::npos)
      << stray;  // 1 not measured

  // A criterion nobody failed is not marked.
  std::vector<ClassEntry> entries = summaryClass();
  setCriterion(&entries[1].report, 0, 1, Status::Passed, 2, "0 conflicts");
  const std::string tile = rowWith(section(summaryHtml(entries), "failure-rates"), "<code>conv.tile</code>");
  EXPECT_NE(tile.find("0 / 3"), std::string::npos) << tile;
  EXPECT_NE(tile.find("0%"), std::string::npos) << tile;
  EXPECT_EQ(tile.find("highest"), std::string::npos) << tile;
}

TEST(SummaryGlance, FailureRateChart) {
  const std::string html = summaryHtml(summaryClass());
  const std::string rates = section(html, "failure-rates");
  ASSERT_FALSE(rates.empty());
  EXPECT_NE(rates.find("aria-label=\"failure rate per criterion\""), std::string::npos);
  EXPECT_NE(rates.find("<title>conv.output: 2 of 3 graded submissions failed or error (67%)</title>"),
            std::string::npos);
  EXPECT_NE(rates.find("<title>conv.tile: 1 of 3 graded submissions failed or error (33%)</title>"), std::string::npos);
  // The score distribution charts stay: the total and one per task.
  const std::string distribution = section(html, "distribution");
  EXPECT_EQ(occurrences(distribution, "<svg"), 3u);
}

TEST(SummaryGlance, CommonFirstFailuresGroupMessagesThatDifferOnlyInNumbers) {
  const std::string html = summaryHtml(summaryClass());
  const std::string common = section(html, "common-failures");
  ASSERT_FALSE(common.empty()) << "no section common-failures";
  EXPECT_NE(common.find("<h2>Most common first failures</h2>"), std::string::npos);
  // alice's "719 of 920320" and bob's "12 of 100" (with a double space) are one kind, counted twice.
  EXPECT_EQ(occurrences(common, "output: case edge: N of N values wrong"), 1u) << common;
  const std::string row = rowWith(common, "output: case edge: N of N values wrong");
  EXPECT_NE(row.find("<code>conv.output</code>"), std::string::npos) << row;
  EXPECT_NE(row.find("<td class=\"num\">2</td>"), std::string::npos) << row;
  EXPECT_NE(row.find("<a href=\"alice/report.html\">alice</a>"), std::string::npos) << row;
  EXPECT_NE(row.find("<a href=\"bob%20%3Cb%3Ex%3C/b%3E/report.html\">bob &lt;b&gt;x&lt;/b&gt;</a>"), std::string::npos)
      << row;
  EXPECT_EQ(common.find("719"), std::string::npos);
  // Only the first failure of each: bob's later ones are not listed; carol failed nothing.
  EXPECT_EQ(common.find("bank conflicts"), std::string::npos);
  EXPECT_EQ(common.find("carol"), std::string::npos);
  EXPECT_NE(common.find("2 of 3 graded submissions failed at least one criterion."), std::string::npos) << common;
}

TEST(SummaryGlance, SubmissionNamesAndMessagesAreEscaped) {
  std::vector<ClassEntry> entries = summaryClass();
  setCriterion(&entries[2].report, 1, 0, Status::Failed, 0,
               "bins <script>alert(1)</script> & \"q\" " + std::string(300, 'z'));
  const std::string html = summaryHtml(entries);
  EXPECT_EQ(joinLines(checkHtml(html).problems), "");
  EXPECT_EQ(html.find("<b>x</b>"), std::string::npos);
  EXPECT_NE(html.find("bob &lt;b&gt;x&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  const std::string common = section(html, "common-failures");
  EXPECT_NE(common.find("bins &lt;script&gt;alert(N)&lt;/script&gt; &amp; &quot;q&quot; zzz"), std::string::npos)
      << common;
  // Clipped to 200 characters.
  EXPECT_EQ(common.find(std::string(250, 'z')), std::string::npos);
  EXPECT_NE(common.find(std::string(150, 'z') + "\u2026"), std::string::npos);
}

TEST(SummaryGlance, TopTenKindsAndEightNamesEach) {
  std::vector<ClassEntry> entries;
  // Ten submissions failing conv.output with messages that differ in numbers only ...
  for (int i = 0; i < 10; ++i) {
    ClassEntry e{"s" + std::to_string(i), true, passingReport("NVIDIA H100", "550.1", "0.3.0", "2025-05-01T10:00:00Z"),
                 "", "", {}, {}};
    setCriterion(&e.report, 0, 0, Status::Failed, 0, std::to_string(i * 37 + 1) + " values wrong");
    entries.push_back(e);
  }
  // ... and eleven more, each with a kind of its own (one submission each).
  for (int i = 0; i < 11; ++i) {
    ClassEntry e{"k" + std::string(1, static_cast<char>('a' + i)), true,
                 passingReport("NVIDIA H100", "550.1", "0.3.0", "2025-05-01T10:00:00Z"), "", "", {}, {}};
    setCriterion(&e.report, 0, 1, Status::Failed, 0, std::string("conflict kind ") + static_cast<char>('a' + i));
    entries.push_back(e);
  }
  const std::string common = section(summaryHtml(entries), "common-failures");
  ASSERT_FALSE(common.empty());
  const std::string big = rowWith(common, "N values wrong");
  EXPECT_NE(big.find("<td class=\"num\">10</td>"), std::string::npos) << big;
  EXPECT_NE(big.find("s7 and 2 more"), std::string::npos) << big;  // eight names, then the rest counted
  EXPECT_EQ(big.find("s8"), std::string::npos) << big;
  // The largest group first, then ten in all: twelve kinds, two not listed.
  EXPECT_LT(common.find("N values wrong"), common.find("conflict kind a"));
  EXPECT_NE(common.find("conflict kind i"), std::string::npos);
  EXPECT_EQ(common.find("conflict kind j"), std::string::npos);
  EXPECT_NE(common.find("2 more kinds of first failure (2 submissions) not listed."), std::string::npos) << common;
  EXPECT_EQ(occurrences(common, "<tr class="), 10u);
}

}  // namespace
}  // namespace clgrade
