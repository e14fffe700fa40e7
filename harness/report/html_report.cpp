#include "report/html_report.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "report/findings.h"
#include "report/html_page.h"
#include "report/text.h"
#include "util/files.h"

namespace clgrade {
namespace {

// Each section of the page is one function appending to `out`: a new section (say a task's new
// block of the model) is one more function and one more call in htmlReport.

std::string esc(const std::string& s) { return htmlEscape(s); }

std::string number(double v, const char* format = "%.3g") {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, v);
  return buffer;
}

/// The first line of s, at most `limit` bytes (cut at a character boundary, "..." added).
std::string clipped(const std::string& s, size_t limit) {
  std::string one = s.substr(0, s.find('\n'));
  if (one.size() <= limit) return one;
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(one[cut]) & 0xC0) == 0x80) --cut;
  return one.substr(0, cut) + "...";
}

/// The submission's name from its kernels folder: its last component, or the one before a "kernels"
/// (a batch submission's folder holds kernels/ or the .cl files directly).
std::string submissionName(std::string path) {
  auto last = [](std::string& p) {
    while (!p.empty() && p.back() == '/') p.pop_back();
    const size_t slash = p.rfind('/');
    std::string name = slash == std::string::npos ? p : p.substr(slash + 1);
    p.resize(slash == std::string::npos ? 0 : slash);
    return name;
  };
  std::string name = last(path);
  if (name == "kernels" && !path.empty()) name = last(path);
  return name;
}

/// A link to a file of the report folder (the text escaped); plain text for a path that leaves it.
std::string fileLink(const std::string& path, const std::string& text) {
  if (!isSafeRelativePath(path)) return "<code>" + esc(path) + "</code>";
  return "<a href=\"" + esc(urlPath(path)) + "\">" + esc(text) + "</a>";
}

/// An <img> of a PNG of the report folder: a relative link, or the file itself as a data: URI.
std::string picture(const Evidence& e, const std::string& caption, const HtmlOptions& options,
                    const std::string& cssClass = "") {
  const std::string figure = cssClass.empty() ? "<figure>" : "<figure class=\"" + cssClass + "\">";
  std::string src;
  if (options.embedImages) {
    std::string err;
    src = pngDataUri(options.reportDir, e.path, size_t(32) << 20, &err);
    if (src.empty()) return figure + "<p class=\"missing\">" + esc(caption) + ": " + esc(err) + "</p></figure>";
  } else if (isSafeRelativePath(e.path)) {
    src = urlPath(e.path);
  } else {
    return figure + "<p class=\"missing\">" + esc(caption) + ": not in the report folder: " + esc(e.path) +
           "</p></figure>";
  }
  // Linked pictures open at full size; an embedded one is not linked (that would hold its bytes twice).
  const std::string img = "<img src=\"" + esc(src) + "\" alt=\"" + esc(caption + ": " + e.path) + "\">";
  return figure + (options.embedImages ? img : "<a href=\"" + esc(src) + "\">" + img + "</a>") + "<figcaption>" +
         esc(caption) + "<br><small>" + esc(e.label) + "</small></figcaption></figure>";
}

std::string overrideHtml(const CriterionResult& c, bool named = false) {
  if (!c.overridden) return "";
  std::string s = "<div class=\"override-note\"><span class=\"badge override\">overridden</span> " +
                  (named ? "<strong>" + esc(c.id) + "</strong>: " : std::string()) + esc(formatPoints(c.points)) +
                  " of " + esc(formatPoints(c.max)) + " points by the instructor (measured " +
                  esc(formatPoints(c.originalPoints)) + ")";
  if (!c.overrideAuthor.empty()) s += ", " + esc(c.overrideAuthor);
  if (!c.overrideComment.empty()) s += ": " + esc(c.overrideComment);
  return s + "</div>";
}

void header(const GradeReport& r, const HtmlOptions& options, std::string& out) {
  const std::string name = options.submission.empty() ? submissionName(r.kernelsDir) : options.submission;
  const std::string total = formatPoints(r.total) + " / " + formatPoints(r.max);
  out += "<header>\n<h1>" + esc(name.empty() ? "Submission" : name) + " <span class=\"total\">" + esc(total) +
         " points</span></h1>\n<p class=\"meta-line\">";
  // One line of facts: the failures below must stay near the top of the page.
  std::vector<std::string> facts;
  facts.push_back("rubric " + esc(r.rubricTitle) + " <small>(" + esc(r.rubricId) + ")</small>");
  std::string device = esc(r.device.name);
  if (!r.device.driver.empty()) device += " <small>driver " + esc(r.device.driver) + "</small>";
  if (!r.device.type.empty()) device += " <small>(" + esc(r.device.type) + ")</small>";
  facts.push_back(device);
  facts.push_back(esc(r.startedAt) +
                  (r.seconds > 0 ? " <small>(" + esc(number(r.seconds, "%.1f")) + " s)</small>" : ""));
  facts.push_back(esc(r.mode) + (r.mode == "check" ? " <small>(visible cases only)</small>" : ""));
  if (options.audience == Audience::Student)
    facts.push_back("<small>student report: hidden cases say only how they failed</small>");
  for (size_t i = 0; i < facts.size(); ++i) out += (i ? " &middot; " : "") + facts[i];
  out += "</p>\n";
  if (!r.sandbox.empty())
    out += "<p class=\"meta-line\"><small>student code ran in " + esc(r.sandbox) + "</small></p>\n";
  // How the submission was taken in (files left out of its archive, .cl files not graded): no points,
  // but what a student wonders about first when a file seems ignored.
  if (!r.notices.empty()) {
    out += "<ul class=\"notices\">\n";
    for (const std::string& notice : r.notices) out += "<li>" + esc(notice) + "</li>\n";
    out += "</ul>\n";
  }
  out += "</header>\n";
}

bool failing(Status s) { return s == Status::Failed || s == Status::Error; }

bool taskFails(const TaskReport& t) {
  if (!t.problem.empty()) return true;
  for (const CriterionResult& c : t.criteria)
    if (failing(c.status)) return true;
  for (const CheckResult& c : t.checks)
    if (failing(c.status)) return true;
  return false;
}

std::string taskAnchor(size_t index, const TaskReport& t) {
  return htmlId("task-" + std::to_string(index) + "-", t.id);
}
std::string checkAnchor(size_t index, const std::string& check) {
  return htmlId("fail-" + std::to_string(index) + "-", check);
}

/// One row per criterion of a task that lost something; a task whose criteria all passed is one row.
void pointsTable(const GradeReport& r, std::string& out) {
  out +=
      "<section id=\"points\">\n<table class=\"points\">\n<thead><tr><th>Task</th><th>Criterion</th>"
      "<th class=\"num\">Points</th><th>Status</th><th>Reason</th></tr></thead>\n<tbody>\n";
  for (size_t i = 0; i < r.tasks.size(); ++i) {
    const TaskReport& t = r.tasks[i];
    bool allPassed = t.problem.empty() && !t.criteria.empty();
    for (const CriterionResult& c : t.criteria) allPassed = allPassed && c.status == Status::Passed && !c.overridden;
    out += "<tr class=\"task-row\"><th colspan=\"2\"><a href=\"#" + taskAnchor(i, t) + "\">" + esc(t.id) + "</a> " +
           esc(t.title) + "</th><td class=\"num\">" + esc(formatPoints(t.points)) + "/" + esc(formatPoints(t.max)) +
           "</td><td colspan=\"2\">" +
           (t.problem.empty() ? "" : "<span class=\"problem\">" + esc(t.problem) + "</span>") +
           (allPassed ? statusBadge(Status::Passed) + " all " + std::to_string(t.criteria.size()) + " criteria passed"
                      : "") +
           "</td></tr>\n";
    if (allPassed) continue;
    for (const CriterionResult& c : t.criteria) {
      out += "<tr class=\"" + statusClass(c.status) + "\"><td>" + esc(t.id) + "</td><td title=\"" + esc(c.title) +
             "\">" + esc(c.id) + "</td><td class=\"num\">" + esc(formatPoints(c.points)) + "/" +
             esc(formatPoints(c.max)) + "</td><td>" + statusBadge(c.status) +
             (c.overridden ? " <span class=\"badge override\">overridden</span>" : "") + "</td><td>" +
             esc(clipped(c.message, 220)) + overrideHtml(c) + "</td></tr>\n";
    }
  }
  out += "</tbody>\n<tfoot><tr><th colspan=\"2\">Total</th><td class=\"num\">" + esc(formatPoints(r.total)) + "/" +
         esc(formatPoints(r.max)) + "</td><td colspan=\"2\"></td></tr></tfoot>\n</table>\n</section>\n";
}

/// "What to fix": each failing criterion with its reason and a link to where the report shows why.
void toFix(const GradeReport& r, std::string& out) {
  std::string items;
  bool first = true;
  for (size_t i = 0; i < r.tasks.size(); ++i) {
    const TaskReport& t = r.tasks[i];
    for (const CriterionResult& c : t.criteria) {
      if (!failing(c.status)) continue;
      std::string target = taskAnchor(i, t);
      for (const std::string& id : c.checks)
        for (const CheckResult& k : t.checks)
          if (k.id == id && target == taskAnchor(i, t) &&
              std::any_of(k.cases.begin(), k.cases.end(), [](const CaseOutcome& o) { return failing(o.status); }))
            target = checkAnchor(i, k.id);  // whatFailed anchors the checks with failing cases
      items += std::string("<li") + (first ? " id=\"first-failure\"" : "") + " class=\"" + statusClass(c.status) +
               "\"><a href=\"#" + target + "\"><strong>" + esc(t.id + "." + c.id) + "</strong></a> " +
               statusBadge(c.status) + " <span class=\"num\">" + esc(formatPoints(c.points)) + "/" +
               esc(formatPoints(c.max)) + "</span> " + esc(clipped(c.message, 300)) + "</li>\n";
      first = false;
    }
    if (!t.problem.empty() && t.criteria.empty()) {
      items += std::string("<li") + (first ? " id=\"first-failure\"" : "") + "><a href=\"#" + taskAnchor(i, t) +
               "\"><strong>" + esc(t.id) + "</strong></a> " + esc(t.problem) + "</li>\n";
      first = false;
    }
  }
  out += "<section id=\"to-fix\">\n<h2>What to fix</h2>\n";
  out += items.empty() ? "<p>Every criterion that was measured passed.</p>\n"
                       : "<ol class=\"to-fix\">\n" + items + "</ol>\n";
  out += "</section>\n";
}

void pictures(const std::vector<Evidence>& evidence, const HtmlOptions& options, std::string& out) {
  std::vector<const Evidence*> others;
  for (const ImageSet& set : imageSets(evidence, &others)) {
    if (set.crop)
      out += "<div class=\"images\">" + picture(*set.crop, "the first wrong pixels up close", options, "crop") +
             "</div>\n";
    out += "<div class=\"images\">\n";
    if (set.difference)
      out += picture(*set.difference, "difference (red fails, yellow the worst, blue rounding, magenta NaN)", options,
                     "map") +
             "\n";
    if (set.expected) out += picture(*set.expected, "expected", options) + "\n";
    if (set.actual) out += picture(*set.actual, "actual", options) + "\n";
    out += "</div>\n";
  }
  if (!others.empty()) {
    out += "<ul class=\"evidence\">\n";
    for (const Evidence* e : others)
      out += "<li>" + fileLink(e->path, e->label.empty() ? e->path : e->label) + " <small><code>" + esc(e->path) +
             "</code></small></li>\n";
    out += "</ul>\n";
  }
}

void shownCase(const FindingPlace& p, const HtmlOptions& options, std::string& out) {
  const CaseOutcome& o = *p.outcome;
  out += "<div class=\"case\">\n<h5>" + esc(p.check->id) + " on case " + esc(o.caseId) +
         (o.visible ? "" : " <small>(hidden)</small>") + "</h5>\n<p>" + esc(o.message) + "</p>\n";
  if (!o.details.empty()) {
    out += "<pre class=\"details\">";
    for (size_t i = 0; i < o.details.size() && i < options.detailLines; ++i) out += esc(o.details[i]) + "\n";
    if (o.details.size() > options.detailLines)
      out += "(" + std::to_string(o.details.size() - options.detailLines) + " more lines not shown)\n";
    out += "</pre>\n";
  }
  pictures(o.evidence, options, out);
  out += "</div>\n";
}

/// Each finding once: what went wrong, the checks and cases it recurs in, then one case of each
/// check in full (its message, details and pictures).
void whatFailed(const TaskReport& t, size_t index, const HtmlOptions& options, std::string& out) {
  const std::vector<Finding> findings = taskFindings(t);
  if (findings.empty()) return;
  out += "<h3>What failed</h3>\n";
  std::set<std::string> anchored;
  for (const Finding& f : findings) {
    out += "<article class=\"check " + statusClass(f.status) + "\">\n";
    for (const FindingPlace& p : f.places)
      if (anchored.insert(p.check->id).second) out += "<span id=\"" + checkAnchor(index, p.check->id) + "\"></span>";
    out += "<h4>" + esc(f.text) + " " + statusBadge(f.status) + "</h4>\n";
    out += "<p class=\"muted\">" +
           std::string(f.places.size() > 1 ? "the same in " + std::to_string(f.places.size()) + " places: " : "in ") +
           esc(recurrence(f)) + "</p>\n";
    size_t shown = 0;
    for (const FindingPlace& p : f.shown())
      if (shown++ < options.casesPerCheck) shownCase(p, options, out);
    out += "</article>\n";
  }
}

/// The kernel lines the findings point at, numbered, the line itself marked.
void sourceQuotes(const TaskReport& t, std::string& out) {
  if (t.sourceQuotes.empty()) return;
  out += "<h3>Where in the source</h3>\n";
  for (const SourceQuote& q : t.sourceQuotes) {
    out += "<figure class=\"source\"><figcaption><code>" + esc(q.file + ":" + std::to_string(q.line)) + "</code> " +
           esc(q.why) + "</figcaption>\n<pre>";
    for (size_t i = 0; i < q.lines.size(); ++i) {
      const int n = q.firstLine + int(i);
      char number[16];
      std::snprintf(number, sizeof number, "%5d  ", n);
      const std::string line = esc(std::string(number) + q.lines[i]);
      out += n == q.line ? "<mark>" + line + "</mark>\n" : line + "\n";
    }
    out += "</pre></figure>\n";
  }
}

void checksTable(const TaskReport& t, std::string& out) {
  if (t.checks.empty()) return;
  out +=
      "<h3>Checks</h3>\n<table>\n<thead><tr><th>Check</th><th>Status</th><th>Cases</th><th>Message</th></tr></"
      "thead>\n<tbody>\n";
  for (const CheckResult& c : t.checks) {
    size_t passed = 0;
    for (const CaseOutcome& o : c.cases) passed += o.status == Status::Passed;
    out += "<tr class=\"" + statusClass(c.status) + "\"><td>" + esc(c.id) +
           (c.title.empty() ? "" : "<br><small>" + esc(c.title) + "</small>") + "</td><td>" + statusBadge(c.status) +
           "</td><td class=\"num\">" + std::to_string(passed) + "/" + std::to_string(c.cases.size()) +
           " passed</td><td>" + esc(c.message) + "</td></tr>\n";
  }
  out += "</tbody>\n</table>\n";
}

/// The builds with their compiler logs; `failedOnly`: the failed ones, open, each log once.
void builds(const TaskReport& t, const HtmlOptions& options, std::string& out, bool failedOnly = false) {
  bool any = false;
  for (const BuildRecord& b : t.builds) any = any || !failedOnly || !b.ok;
  if (!any) return;
  out += failedOnly ? "<h3>Compiler output</h3>\n" : "<h3>Builds</h3>\n";
  std::set<std::string> logsShown;
  for (size_t i = 0; i < t.builds.size(); ++i) {
    const BuildRecord& b = t.builds[i];
    if (failedOnly && b.ok) continue;
    std::string log = b.log, note;
    if (log.empty() && !b.logPath.empty()) {
      std::string err;
      if (!isSafeRelativePath(b.logPath))
        note = "the log is not in the report folder";
      else if (!readFile((options.reportDir.empty() ? std::string(".") : options.reportDir) + "/" + b.logPath, &log,
                         &err, size_t(64) << 20))
        note = "the log could not be read: " + err;
    }
    if (log.size() > options.logLimitBytes) {
      note = "cut after " + std::to_string(options.logLimitBytes) + " of " + std::to_string(log.size()) + " bytes";
      log.resize(options.logLimitBytes);
    }
    // The same error from the same source under other options is said once.
    if (failedOnly && !log.empty() && !logsShown.insert(log).second) {
      out += "<p class=\"muted\">build " + std::to_string(i + 1) + " <code>" + esc(b.options) +
             "</code>: the same compiler output</p>\n";
      continue;
    }
    out += std::string("<details") + (b.ok || !failedOnly ? "" : " open") + "><summary>build " + std::to_string(i + 1) +
           ": " + (b.ok ? statusBadge(Status::Passed) : statusBadge(Status::Failed)) + " <code>" +
           esc(b.options.empty() ? "(no options)" : b.options) + "</code>" +
           (b.error.empty() ? "" : " " + esc(b.error)) + "</summary>\n";
    if (!b.logPath.empty())
      out += "<p>" + fileLink(b.logPath, "build log") + (note.empty() ? "" : " <small>(" + esc(note) + ")</small>") +
             "</p>\n";
    out += "<pre>" + (log.empty() ? std::string("(empty log)") : esc(log)) + "</pre>\n</details>\n";
  }
}

void counters(const TaskReport& t, std::string& out) {
  if (t.counters.empty()) return;
  // Counters as rows, kernels (and providers) as columns: a handful of kernels, a dozen counters.
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const CounterRow& row : t.counters)
    for (const auto& value : row.values)
      if (seen.insert(value.first).second) names.push_back(value.first);
  out += "<h3>Counters</h3>\n<table>\n<thead><tr><th>Counter</th>";
  for (const CounterRow& row : t.counters)
    out += "<th>" + esc(row.kernel) + "<br><small>" + esc(row.provider) + "</small></th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const std::string& name : names) {
    out += "<tr><td>" + esc(name) + "</td>";
    for (const CounterRow& row : t.counters) {
      std::string cell;
      for (const auto& value : row.values)
        if (value.first == name) cell = number(value.second, "%.10g");
      out += "<td class=\"num\">" + esc(cell) + "</td>";
    }
    out += "</tr>\n";
  }
  out += "</tbody>\n</table>\n";
}

void timings(const TaskReport& t, std::string& out) {
  size_t count = 0;
  for (const CheckResult& c : t.checks)
    for (const CaseOutcome& o : c.cases) count += o.timings.size();
  if (!count) return;
  out += "<h3>Timings</h3>\n<details><summary>" + std::to_string(count) +
         " kernel launches timed by profiling "
         "events</summary>\n<table>\n<thead><tr><th>Check</th><th>Case</th><th>Launch</th></tr></thead>\n<tbody>\n";
  for (const CheckResult& c : t.checks)
    for (const CaseOutcome& o : c.cases)
      for (const std::string& line : o.timings)
        out += "<tr><td>" + esc(c.id) + "</td><td>" + esc(o.caseId) + "</td><td><code>" + esc(line) +
               "</code></td></tr>\n";
  out += "</tbody>\n</table>\n</details>\n";
}

/// `shared`: the untrusted note every row has, said once above the table instead of in each row.
void figureRow(const std::string& role, const KernelFigure& f, std::string& out, const std::string& shared = "") {
  auto cell = [](double v, const char* format) { return v > 0 ? number(v, format) : std::string(); };
  std::string note = f.error.empty() ? (f.untrusted == shared ? std::string() : f.untrusted) : "error: " + f.error;
  if (f.error.empty() && atLaunchFloor(f))
    note += std::string(note.empty() ? "" : "; ") + "within 10% of the empty launch: the launch sets this time";
  out += "<tr><td>" + esc(role) + "</td><td>" + esc(f.kernel) +
         (f.what.empty() ? "" : " <small>" + esc(f.what) + "</small>") + "</td><td><small>" + esc(f.geometry) +
         "</small></td><td class=\"num\">" + esc(cell(f.time.medianMs, "%.4g")) + "</td><td class=\"num\">" +
         esc(cell(f.launchFloorMs, "%.4g")) + "</td><td class=\"num\">" + esc(cell(f.time.cv * 100, "%.2g")) +
         "</td><td class=\"num\">" + esc(cell(f.gbPerS, "%.4g")) + "</td><td class=\"num\">" +
         esc(cell(f.ofRoofline * 100, "%.3g")) + "</td><td class=\"num\">" + esc(cell(f.vsReference, "%.3g")) +
         "</td><td class=\"num\">" + esc(cell(f.vsNaive, "%.3g")) + "</td><td>" + esc(note) + "</td></tr>\n";
}

const char kFigureHead[] =
    "<thead><tr><th></th><th>Kernel</th><th>Launch</th><th class=\"num\">median ms</th>"
    "<th class=\"num\" title=\"an empty kernel launched the same way: what the launch alone costs\">empty launch "
    "ms</th>"
    "<th class=\"num\">spread %</th>"
    "<th class=\"num\">GB/s</th><th class=\"num\">% of copy</th><th class=\"num\">vs reference</th>"
    "<th class=\"num\" title=\"the naive kernel's time (every tap from global memory) / this one's: the speed-up of "
    "tiling\">vs naive</th><th>Note</th></tr></thead>\n";

void performance(const TaskReport& t, std::string& out) {
  const PerformanceReport& p = t.performance;
  if (!p.measured && p.problem.empty()) return;
  out += "<h4>Timed kernels</h4>\n<p>case " + esc(p.caseId) + " at " + std::to_string(p.width) + "&times;" +
         std::to_string(p.height) + (p.device.empty() ? "" : ", " + esc(p.device)) + "</p>\n";
  if (!p.problem.empty()) out += "<p class=\"problem\">" + esc(p.problem) + "</p>\n";
  if (!p.note.empty()) out += "<p class=\"muted\">" + esc(p.note) + "</p>\n";
  if (!p.measured) return;
  // On a CPU every figure carries the same "indicative only" note: once, above the table.
  std::string shared = p.kernels.empty() ? std::string() : p.kernels.front().untrusted;
  for (const std::vector<KernelFigure>* list : {&p.kernels, &p.reference, &p.naive})
    for (const KernelFigure& f : *list)
      if (f.untrusted != shared) shared.clear();
  if (!p.copy.kernel.empty() && p.copy.untrusted != shared) shared.clear();
  if (!shared.empty()) out += "<p class=\"muted\">every figure: " + esc(shared) + "</p>\n";
  out += "<table>\n" + std::string(kFigureHead) + "<tbody>\n";
  if (!p.copy.kernel.empty()) figureRow("roofline", p.copy, out, shared);
  for (const KernelFigure& f : p.kernels) figureRow("submission", f, out, shared);
  for (const KernelFigure& f : p.reference) figureRow("reference", f, out, shared);
  for (const KernelFigure& f : p.naive) figureRow("naive (no local memory)", f, out, shared);
  out += "</tbody>\n</table>\n";
}

void sweep(const TaskReport& t, const HtmlOptions& options, std::string& out) {
  const SweepReport& s = t.sweep;
  if (!s.ran) return;
  out += "<h4>RESULT_STEPS sweep</h4>\n<p>case " + esc(s.caseId) + " timed at " + std::to_string(s.width) + "&times;" +
         std::to_string(s.height) + (s.device.empty() ? "" : ", " + esc(s.device)) + "</p>\n";
  if (!s.note.empty()) out += "<p class=\"muted\">" + esc(s.note) + "</p>\n";
  if (!s.chartPng.empty() || !s.chartSvg.empty()) {
    // An SVG is only linked: embedded it would be the one resource the page does not check.
    out += "<div class=\"images\">";
    if (!s.chartPng.empty())
      out += picture({"sweep chart (PNG)", s.chartPng}, "bandwidth and time against RESULT_STEPS", options);
    if (!s.chartSvg.empty()) out += "<p>" + fileLink(s.chartSvg, "chart as SVG") + "</p>";
    out += "</div>\n";
  }
  // The problems of the incorrect points, each said once (the same off-by-one fails all 16 points).
  std::vector<std::pair<std::string, std::vector<std::string>>> problems;  // problem -> points
  for (const SweepPoint& p : s.points) {
    if (p.correct) continue;
    const std::string k = numbersAsN(p.problem);
    auto it = std::find_if(problems.begin(), problems.end(), [&](const auto& e) { return e.first == k; });
    if (it == problems.end())
      problems.push_back({k, {p.caseId + ": " + p.problem}});
    else
      it->second.push_back(p.caseId);
  }
  if (!problems.empty()) {
    out += "<ul class=\"sweep-problems\">\n";
    for (const auto& [key, points] : problems) {
      out += "<li>" + statusBadge(Status::Failed) + " " + esc(points.front());
      if (points.size() > 1) {
        out += " <small>(the same at " + std::to_string(points.size() - 1) + " more point" +
               (points.size() > 2 ? "s" : "") + ":";
        for (size_t i = 1; i < points.size(); ++i) out += " " + esc(points[i]);
        out += ")</small>";
      }
      out += "</li>\n";
    }
    out += "</ul>\n";
  }
  out +=
      "<table>\n<thead><tr><th>Point</th><th>RESULT_STEPS</th><th>Group</th><th>Correct</th><th>Kernel</th>"
      "<th class=\"num\">median ms</th><th class=\"num\">GB/s</th><th>Note</th></tr></thead>\n<tbody>\n";
  for (const SweepPoint& p : s.points) {
    const std::string head = "<td>" + esc(p.caseId) + "</td><td class=\"num\">" + std::to_string(p.steps) +
                             "</td><td>" + std::to_string(p.group[0]) + "&times;" + std::to_string(p.group[1]) +
                             "</td><td>" + (p.correct ? statusBadge(Status::Passed) : statusBadge(Status::Failed)) +
                             "</td>";
    if (p.figures.empty()) out += "<tr>" + head + "<td></td><td></td><td></td><td></td></tr>\n";
    for (const KernelFigure& f : p.figures)
      out += "<tr>" + head + "<td>" + esc(f.kernel) + "</td><td class=\"num\">" +
             (f.time.medianMs > 0 ? esc(number(f.time.medianMs, "%.4g")) : "") + "</td><td class=\"num\">" +
             (f.gbPerS > 0 ? esc(number(f.gbPerS, "%.4g")) : "") + "</td><td>" +
             esc(f.error.empty() ? f.untrusted : "error: " + f.error) + "</td></tr>\n";
  }
  out += "</tbody>\n</table>\n";
}

void taskHeading(const TaskReport& t, std::string& out) {
  out += "<h2>" + esc(t.title.empty() ? t.id : t.title) + " <small>(" + esc(t.id) + ")</small> <span class=\"total\">" +
         esc(formatPoints(t.points)) + " / " + esc(formatPoints(t.max)) + "</span></h2>\n";
}

void fileFacts(const TaskReport& t, std::string& out) {
  out += "<p>file <code>" + esc(t.file) + "</code>" +
         (t.present ? " <small>sha256 <code>" + esc(t.sha256) + "</code></small>"
                    : std::string(" <strong>not found</strong>")) +
         "</p>\n";
  for (const auto& [file, sha] : t.includedFiles)
    out += "<p class=\"muted\">includes <code>" + esc(file) + "</code> <small>sha256 <code>" + esc(sha) +
           "</code></small></p>\n";
}

/// A task that lost points: why, first. Passing tasks have no such section.
void failures(const TaskReport& t, size_t index, const HtmlOptions& options, std::string& out) {
  out += "<section class=\"task\" id=\"" + taskAnchor(index, t) + "\">\n";
  taskHeading(t, out);
  fileFacts(t, out);
  if (!t.problem.empty()) out += "<p class=\"problem\">" + esc(t.problem) + "</p>\n";
  for (const std::string& note : processNotes(t)) {
    const std::string& file = t.process.kernelOutput;
    const bool linkable = note.find(file) != std::string::npos && !file.empty() && isSafeRelativePath(file);
    out += "<p class=\"muted\">" + esc(note) +
           (linkable ? " <a href=\"" + esc(urlPath(file)) + "\">open</a>" : std::string()) + "</p>\n";
  }
  for (const CriterionResult& c : t.criteria)
    if (c.overridden) out += overrideHtml(c, true) + "\n";
  whatFailed(t, index, options, out);
  sourceQuotes(t, out);
  builds(t, options, out, true);
  out += "</section>\n";
}

/// Everything else a task measured, folded: a person opens what they want to see.
void measured(const TaskReport& t, size_t index, bool anchored, const HtmlOptions& options, std::string& out) {
  out += "<details class=\"task-details\"" + (anchored ? " id=\"" + taskAnchor(index, t) + "\"" : std::string()) +
         "><summary><strong>" + esc(t.title.empty() ? t.id : t.title) + "</strong> <small>(" + esc(t.id) +
         ")</small> " + esc(formatPoints(t.points)) + " / " + esc(formatPoints(t.max)) + "</summary>\n";
  fileFacts(t, out);
  if (anchored)
    for (const std::string& note : processNotes(t)) out += "<p class=\"muted\">" + esc(note) + "</p>\n";
  out +=
      "<h3>Criteria</h3>\n<table>\n<thead><tr><th>Criterion</th><th "
      "class=\"num\">Points</th><th>Status</th><th>Reason</th>"
      "</tr></thead>\n<tbody>\n";
  for (const CriterionResult& c : t.criteria)
    out += "<tr class=\"" + statusClass(c.status) + "\"><td>" + esc(c.id) +
           (c.title.empty() ? "" : "<br><small>" + esc(c.title) + "</small>") + "</td><td class=\"num\">" +
           esc(formatPoints(c.points)) + "/" + esc(formatPoints(c.max)) + "</td><td>" + statusBadge(c.status) +
           "</td><td>" + esc(c.message) + "</td></tr>\n";
  out += "</tbody>\n</table>\n";
  checksTable(t, out);
  builds(t, options, out);
  counters(t, out);
  timings(t, out);
  out += "</details>\n";
}

void reproducibility(const GradeReport& r, std::string& out) {
  out += "<footer>\n<h2>Reproducibility</h2>\n<dl class=\"meta\">\n";
  out += "<dt>clgrade</dt><dd>" + esc(r.version) + "</dd>\n";
  out += "<dt>Rubric file</dt><dd><code>" + esc(r.rubricPath) + "</code> <small>sha256 <code>" + esc(r.rubricSha256) +
         "</code></small></dd>\n";
  out += "<dt>Kernels</dt><dd><code>" + esc(r.kernelsDir) + "</code></dd>\n";
  out += "<dt>Device</dt><dd>" + esc(r.device.platform + " " + r.device.platformVersion) + "; " +
         esc(r.device.name + ", " + r.device.version + ", driver " + r.device.driver) + "</dd>\n";
  out += "<dt>Rule</dt><dd>max squared error &lt; " + esc(number(r.settings.rule.maxSquaredError, "%g")) +
         ", mean squared error &lt; " + esc(number(r.settings.rule.meanSquaredError, "%g")) +
         (r.settings.rule.skipLastRow ? ", last row not graded" : "") + "</dd>\n</dl>\n";
  if (!r.inputs.empty()) {
    out += "<details><summary>" + std::to_string(r.inputs.size()) +
           " generated inputs</summary>\n<table>\n"
           "<thead><tr><th>Input</th><th class=\"num\">Size</th><th "
           "class=\"num\">Channels</th><th>SHA-256</th></tr></thead>\n<tbody>\n";
    for (const InputRecord& i : r.inputs)
      out += "<tr><td>" + esc(i.name) + "</td><td class=\"num\">" + std::to_string(i.width) + "&times;" +
             std::to_string(i.height) + "</td><td class=\"num\">" + std::to_string(i.channels) + "</td><td><code>" +
             esc(i.sha256) + "</code></td></tr>\n";
    out += "</tbody>\n</table>\n</details>\n";
  }
  out += "</footer>\n";
}

}  // namespace

std::string htmlReport(const GradeReport& r, const HtmlOptions& options) {
  const std::string name = options.submission.empty() ? submissionName(r.kernelsDir) : options.submission;
  std::string out = htmlPageStart("clgrade: " + (name.empty() ? std::string("report") : name) + " " +
                                  formatPoints(r.total) + "/" + formatPoints(r.max));
  header(r, options, out);
  out += "<main>\n";
  // Failures first: the points, what to fix with links, why each failing task lost points; then
  // the performance figures, then everything else folded.
  pointsTable(r, out);
  toFix(r, out);
  for (size_t i = 0; i < r.tasks.size(); ++i)
    if (taskFails(r.tasks[i])) failures(r.tasks[i], i, options, out);
  std::string perf;
  for (const TaskReport& t : r.tasks) {
    if ((!t.performance.measured && t.performance.problem.empty()) && !t.sweep.ran) continue;
    perf += "<h3>" + esc(t.title.empty() ? t.id : t.title) + " <small>(" + esc(t.id) + ")</small></h3>\n";
    performance(t, perf);
    sweep(t, options, perf);
  }
  if (!perf.empty()) out += "<section id=\"performance\">\n<h2>Performance</h2>\n" + perf + "</section>\n";
  out += "<section id=\"details\">\n<h2>Everything measured</h2>\n";
  for (size_t i = 0; i < r.tasks.size(); ++i) measured(r.tasks[i], i, !taskFails(r.tasks[i]), options, out);
  out += "</section>\n</main>\n";
  reproducibility(r, out);
  return out + htmlPageEnd();
}

}  // namespace clgrade
