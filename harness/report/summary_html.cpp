#include "report/summary_html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

#include "report/findings.h"
#include "report/html_page.h"
#include "report/similarity_html.h"
#include "report/text.h"

namespace clgrade {
namespace {

std::string summaryEsc(const std::string& s) { return htmlEscape(s); }

std::string fixed(double v, int decimals = 1) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
  return buffer;
}

/// The score distribution of one column as bars: one per whole point when the maximum is at most 20
/// (points k to below k+1; the last bar also holds the maximum), else ten equal ranges.
struct Histogram {
  std::vector<std::string> labels;
  std::vector<size_t> counts;
};

Histogram histogram(const std::vector<double>& scores, double max) {
  Histogram h;
  const bool whole = max > 0 && max <= 20;
  const size_t bins = max <= 0 ? 1 : whole ? static_cast<size_t>(std::floor(max)) + 1 : 10;
  const double width = whole ? 1.0 : (max > 0 ? max / 10 : 1.0);
  h.counts.assign(bins, 0);
  for (size_t i = 0; i < bins; ++i)
    h.labels.push_back(whole || max <= 0 ? formatPoints(double(i))
                                         : formatPoints(i * width) + "-" + formatPoints((i + 1) * width));
  for (double s : scores) {
    double bin = std::floor(std::max(0.0, s) / width + 1e-9);
    h.counts[std::min(bins - 1, static_cast<size_t>(bin))]++;
  }
  return h;
}

std::string chart(const std::string& title, const std::vector<double>& scores, double max) {
  const Histogram h = histogram(scores, max);
  const size_t peak = std::max<size_t>(1, *std::max_element(h.counts.begin(), h.counts.end()));
  const int left = 30, top = 18, plotH = 120, bottom = 34;
  const int barW = std::max(10, std::min(36, 560 / static_cast<int>(h.counts.size())));
  const int width = left + barW * static_cast<int>(h.counts.size()) + 10, height = top + plotH + bottom;
  std::string svg = "<svg viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(height) + "\" width=\"" +
                    std::to_string(width) + "\" height=\"" + std::to_string(height) + "\" role=\"img\" aria-label=\"" +
                    summaryEsc("score distribution of " + title) + "\">\n<title>" +
                    summaryEsc("score distribution of " + title) + "</title>\n";
  svg += "<line x1=\"" + std::to_string(left) + "\" y1=\"" + std::to_string(top + plotH) + "\" x2=\"" +
         std::to_string(width - 5) + "\" y2=\"" + std::to_string(top + plotH) + "\" stroke=\"#57606a\"/>\n";
  svg += "<text x=\"2\" y=\"" + std::to_string(top + 4) + "\">" + std::to_string(peak) + "</text>\n";
  svg += "<text x=\"2\" y=\"" + std::to_string(top + plotH) + "\">0</text>\n";
  for (size_t i = 0; i < h.counts.size(); ++i) {
    const int x = left + static_cast<int>(i) * barW;
    const int barH = static_cast<int>(std::lround(double(h.counts[i]) / peak * plotH));
    svg += "<rect class=\"bar\" x=\"" + std::to_string(x + 1) + "\" y=\"" + std::to_string(top + plotH - barH) +
           "\" width=\"" + std::to_string(barW - 2) + "\" height=\"" + std::to_string(barH) + "\"><title>" +
           summaryEsc(h.labels[i] + " points: " + std::to_string(h.counts[i]) + " submissions") + "</title></rect>\n";
    if (h.counts[i])
      svg += "<text x=\"" + std::to_string(x + barW / 2) + "\" y=\"" + std::to_string(top + plotH - barH - 3) +
             "\" text-anchor=\"middle\">" + std::to_string(h.counts[i]) + "</text>\n";
    const bool label = h.counts.size() <= 12 || i % 2 == 0 || i + 1 == h.counts.size();
    if (label)
      svg += "<text x=\"" + std::to_string(x + barW / 2) + "\" y=\"" + std::to_string(top + plotH + 14) +
             "\" text-anchor=\"middle\">" + summaryEsc(h.labels[i]) + "</text>\n";
  }
  svg += "<text x=\"" + std::to_string(width / 2) + "\" y=\"" + std::to_string(height - 4) +
         "\" text-anchor=\"middle\">points (of " + summaryEsc(formatPoints(max)) + ")</text>\n</svg>";
  return "<figure class=\"chart\">" + svg + "<figcaption>" + summaryEsc(title) + "</figcaption></figure>\n";
}

std::string statsRow(const std::string& name, std::vector<double> scores, double max) {
  std::string row = "<tr><td>" + summaryEsc(name) + "</td><td class=\"num\">" + summaryEsc(formatPoints(max)) +
                    "</td><td class=\"num\">" + std::to_string(scores.size()) + "</td>";
  if (scores.empty()) return row + "<td></td><td></td><td></td><td></td><td></td></tr>\n";
  std::sort(scores.begin(), scores.end());
  double sum = 0;
  size_t full = 0;
  for (double s : scores) {
    sum += s;
    full += s >= max - 1e-9;
  }
  const size_t n = scores.size();
  const double median = n % 2 ? scores[n / 2] : (scores[n / 2 - 1] + scores[n / 2]) / 2;
  return row + "<td class=\"num\">" + fixed(sum / n, 2) + "</td><td class=\"num\">" + summaryEsc(formatPoints(median)) +
         "</td><td class=\"num\">" + summaryEsc(formatPoints(scores.front())) + "</td><td class=\"num\">" +
         summaryEsc(formatPoints(scores.back())) + "</td><td class=\"num\">" + std::to_string(full) + "</td></tr>\n";
}

/// At most `limit` characters (UTF-8 code points) of `s`, then "…" when something was cut.
std::string clipText(const std::string& s, size_t limit) {
  size_t chars = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && chars++ == limit) return s.substr(0, i) + "\u2026";
  return s;
}

/// "1 submission", "3 submissions".
std::string submissions(size_t n) { return std::to_string(n) + (n == 1 ? " submission" : " submissions"); }

/// One value when every graded report agrees, else "mixed: a (2 submissions); b (1 submission)" in
/// order of first appearance. "unknown" stands for an empty value; "" when there is none at all.
std::string agreed(const std::vector<std::string>& values) {
  std::vector<std::pair<std::string, size_t>> distinct;
  for (const std::string& v0 : values) {
    const std::string v = v0.empty() ? std::string("unknown") : v0;
    auto it = std::find_if(distinct.begin(), distinct.end(), [&](const auto& d) { return d.first == v; });
    if (it == distinct.end())
      distinct.push_back({v, 1});
    else
      ++it->second;
  }
  if (distinct.empty()) return "";
  if (distinct.size() == 1) return distinct[0].first;
  std::string out = "mixed: ";
  for (size_t i = 0; i < distinct.size(); ++i)
    out += (i ? "; " : "") + distinct[i].first + " (" + submissions(distinct[i].second) + ")";
  return out;
}

/// A submission's name, a link to its report.html when it has a safe one.
std::string submissionLink(const ClassEntry& e) {
  const std::string name = e.submission.empty() ? std::string("(unnamed)") : e.submission;
  if (e.reportHtml.empty() || !isSafeRelativePath(e.reportHtml)) return summaryEsc(name);
  return "<a href=\"" + summaryEsc(urlPath(e.reportHtml)) + "\">" + summaryEsc(name) + "</a>";
}

bool failedOrError(Status s) { return s == Status::Failed || s == Status::Error; }

/// "67%"; "<1%" and ">99%" where rounding would hide that some (or not all) failed.
std::string percent(size_t k, size_t n) {
  if (!n) return "";
  if (k && k < n && 100.0 * k / n < 0.5) return "<1%";
  if (k < n && 100.0 * k / n >= 99.5) return ">99%";
  return std::to_string(std::lround(100.0 * k / n)) + "%";
}

const char kWorst[] = "#cf222e";  // the --failed colour: the criteria with the highest failure rates

/// One criterion over the class (graded submissions whose report has it).
struct CriterionStats {
  std::string task, criterion, title;
  double max = 0, min = 0;
  size_t graded = 0, failedOrError = 0, errors = 0, notMeasured = 0;
  double pointsLost = 0;  ///< summed: max - points (what a deduction took), never below 0
  size_t rank = 0;        ///< 1 + the criteria with a strictly higher rate; 0 when none failed it
  double rate() const { return graded ? double(failedOrError) / graded : 0; }
  std::string name() const { return task + "." + criterion; }
};

std::vector<CriterionStats> criterionStats(const std::vector<ClassEntry>& entries,
                                           const std::vector<ClassColumn>& columns) {
  std::vector<CriterionStats> stats;
  for (const ClassColumn& col : columns)
    for (size_t k = 0; k < col.criteria.size(); ++k) {
      CriterionStats s;
      s.task = col.task;
      s.criterion = col.criteria[k];
      s.max = col.criterionMax[k];
      bool first = true;
      for (const ClassEntry& e : entries) {
        if (!e.graded) continue;
        for (const TaskReport& t : e.report.tasks) {
          if (t.id != col.task) continue;
          for (const CriterionResult& c : t.criteria) {
            if (c.id != s.criterion) continue;
            if (first) s.min = c.min, s.max = c.max, first = false;
            if (s.title.empty()) s.title = c.title;
            ++s.graded;
            if (failedOrError(c.status)) ++s.failedOrError;
            if (c.status == Status::Error) ++s.errors;
            if (c.status == Status::NotMeasured) ++s.notMeasured;
            s.pointsLost += std::max(0.0, c.max - c.points);
          }
        }
      }
      stats.push_back(s);
    }
  for (CriterionStats& s : stats) {
    if (!s.failedOrError) continue;
    s.rank = 1;
    for (const CriterionStats& o : stats) s.rank += o.rate() > s.rate() + 1e-12;
  }
  return stats;
}

bool marked(const CriterionStats& s) { return s.rank >= 1 && s.rank <= 3; }

std::string rankLabel(size_t rank) { return rank == 1 ? "highest" : rank == 2 ? "2nd highest" : "3rd highest"; }

/// A bar of `width` pixels for a rate in a table cell.
std::string rateBar(const CriterionStats& s) {
  const int width = 100, height = 10;
  const int w = static_cast<int>(std::lround(s.rate() * width));
  return "<svg viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(height) + "\" width=\"" +
         std::to_string(width) + "\" height=\"" + std::to_string(height) + "\" role=\"img\" aria-label=\"" +
         summaryEsc("failure rate " + percent(s.failedOrError, s.graded)) + "\"><rect x=\"0\" y=\"0\" width=\"" +
         std::to_string(width) + "\" height=\"" + std::to_string(height) + "\" fill=\"#eaeef2\"/><rect " +
         (marked(s) ? std::string("fill=\"") + kWorst + "\"" : std::string("class=\"bar\"")) +
         " x=\"0\" y=\"0\" width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(height) + "\"/></svg>";
}

/// The failure rates as horizontal bars, one per criterion in rubric order (the highest in red).
std::string rateChart(const std::vector<CriterionStats>& stats) {
  size_t longest = 0;
  std::vector<std::string> labels;
  for (const CriterionStats& s : stats) {
    labels.push_back(clipText(s.name(), 40));
    size_t chars = 0;
    for (char c : labels.back()) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    longest = std::max(longest, chars);
  }
  const int labelW = std::min(260, 12 + static_cast<int>(longest) * 7), plotW = 300, rowH = 18, top = 6, bottom = 34;
  const int width = labelW + plotW + 48, height = top + rowH * static_cast<int>(stats.size()) + bottom;
  const std::string title = "failure rate per criterion";
  std::string svg = "<svg viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(height) + "\" width=\"" +
                    std::to_string(width) + "\" height=\"" + std::to_string(height) + "\" role=\"img\" aria-label=\"" +
                    summaryEsc(title) + "\">\n<title>" + summaryEsc(title) + "</title>\n";
  const int axisY = top + rowH * static_cast<int>(stats.size());
  for (int pct : {0, 50, 100}) {
    const int x = labelW + plotW * pct / 100;
    svg += "<line x1=\"" + std::to_string(x) + "\" y1=\"" + std::to_string(top) + "\" x2=\"" + std::to_string(x) +
           "\" y2=\"" + std::to_string(axisY) + "\" stroke=\"" + (pct ? "#d0d7de" : "#57606a") + "\"/>\n";
    svg += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(axisY + 14) + "\" text-anchor=\"middle\">" +
           std::to_string(pct) + "%</text>\n";
  }
  for (size_t i = 0; i < stats.size(); ++i) {
    const CriterionStats& s = stats[i];
    const int y = top + static_cast<int>(i) * rowH;
    const int w = static_cast<int>(std::lround(s.rate() * plotW));
    svg += "<text x=\"" + std::to_string(labelW - 6) + "\" y=\"" + std::to_string(y + rowH - 5) +
           "\" text-anchor=\"end\">" + summaryEsc(labels[i]) + "</text>\n";
    svg += "<rect " + (marked(s) ? std::string("fill=\"") + kWorst + "\"" : std::string("class=\"bar\"")) + " x=\"" +
           std::to_string(labelW) + "\" y=\"" + std::to_string(y + 3) + "\" width=\"" + std::to_string(w) +
           "\" height=\"" + std::to_string(rowH - 6) + "\"><title>" +
           summaryEsc(s.name() + ": " + std::to_string(s.failedOrError) + " of " + std::to_string(s.graded) +
                      " graded submissions failed or error (" + percent(s.failedOrError, s.graded) + ")") +
           "</title></rect>\n";
    svg += "<text x=\"" + std::to_string(labelW + w + 4) + "\" y=\"" + std::to_string(y + rowH - 5) + "\">" +
           summaryEsc(percent(s.failedOrError, s.graded)) + "</text>\n";
  }
  svg += "<text x=\"" + std::to_string(labelW + plotW / 2) + "\" y=\"" + std::to_string(height - 4) +
         "\" text-anchor=\"middle\">failed or error, of the graded submissions</text>\n</svg>";
  return "<figure class=\"chart\">" + svg + "<figcaption>" + summaryEsc(title) + "</figcaption></figure>\n";
}

std::string failureRateSection(const std::vector<CriterionStats>& stats) {
  std::string out =
      "<section id=\"failure-rates\">\n<h2>Failure rate per criterion</h2>\n"
      "<div class=\"muted\">A criterion's failure rate: the graded submissions where it failed or could not run "
      "(error), of "
      "those whose report has it; a deduction counts when it applied. Not measured (neither passed nor failed) is "
      "counted "
      "apart. The three highest rates are marked.</div>\n";
  if (stats.empty()) return out + "<div>No graded submission.</div>\n</section>\n";
  out += "<div class=\"charts\">\n" + rateChart(stats) + "</div>\n";
  out +=
      "<table>\n<thead><tr><th>criterion</th><th class=\"num\">points</th><th class=\"num\">graded</th>"
      "<th class=\"num\">failed or error</th><th>failure rate</th><th class=\"num\">not measured</th>"
      "<th class=\"num\">points lost (mean)</th></tr></thead>\n<tbody>\n";
  for (const CriterionStats& s : stats) {
    const bool deduction = s.max == 0 && s.min < 0;
    out +=
        std::string("<tr") + (marked(s) ? " class=\"st-failed\"" : "") + "><td><code>" + summaryEsc(s.name()) +
        "</code>" +
        (marked(s) ? " <span class=\"badge st-failed\">" + summaryEsc(rankLabel(s.rank)) + "</span>" : std::string()) +
        (s.title.empty() ? std::string() : "<div><small>" + summaryEsc(s.title) + "</small></div>") + "</td>";
    out += "<td class=\"num\">" +
           summaryEsc(deduction ? "deduction up to " + formatPoints(-s.min) : formatPoints(s.max)) + "</td>";
    out += "<td class=\"num\">" + std::to_string(s.graded) + "</td>";
    out += "<td class=\"num\">" + std::to_string(s.failedOrError) + " / " + std::to_string(s.graded) +
           (s.errors ? " <small>(" + std::to_string(s.errors) + (s.errors == 1 ? " error" : " errors") + ")</small>"
                     : std::string()) +
           "</td>";
    out += "<td class=\"num\">" + summaryEsc(percent(s.failedOrError, s.graded)) + " " + rateBar(s) + "</td>";
    out += "<td class=\"num\">" + std::to_string(s.notMeasured) + "</td>";
    out += "<td class=\"num\">" + (s.graded ? fixed(s.pointsLost / s.graded, 2) : std::string()) + "</td></tr>\n";
  }
  return out + "</tbody>\n</table>\n</section>\n";
}

std::string commonFailureSection(const std::vector<ClassEntry>& entries) {
  struct Group {
    std::string criterion, message;
    Status status = Status::Failed;
    std::vector<const ClassEntry*> members;
  };
  std::vector<Group> groups;
  std::map<std::string, size_t> index;
  size_t graded = 0, clean = 0;
  for (const ClassEntry& e : entries) {
    if (!e.graded) continue;
    ++graded;
    const TaskReport* task = nullptr;
    const CriterionResult* first = nullptr;
    for (const TaskReport& t : e.report.tasks) {
      for (const CriterionResult& c : t.criteria)
        if (failedOrError(c.status)) {
          task = &t, first = &c;
          break;
        }
      if (first) break;
    }
    if (!first) {
      ++clean;
      continue;
    }
    const std::string criterion = task->id + "." + first->id;
    const std::string message = numbersAsN(first->message);
    const std::string key = criterion + '\n' + statusName(first->status) + '\n' + message;
    auto it = index.find(key);
    if (it == index.end()) {
      it = index.emplace(key, groups.size()).first;
      groups.push_back({criterion, message, first->status, {}});
    }
    groups[it->second].members.push_back(&e);
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const Group& a, const Group& b) { return a.members.size() > b.members.size(); });

  std::string out =
      "<section id=\"common-failures\">\n<h2>Most common first failures</h2>\n<div class=\"muted\">" +
      summaryEsc(
          "Each graded submission's first failing criterion (tasks and criteria in rubric order, failed or "
          "error) with its message; messages that differ only in numbers (shown as N) are one kind.") +
      "</div>\n<div>" +
      (graded ? summaryEsc(std::to_string(graded - clean) + " of " + std::to_string(graded) +
                           " graded submissions failed at least one criterion.")
              : std::string("No graded submission.")) +
      "</div>\n";
  if (groups.empty()) return out + "</section>\n";
  const size_t shown = std::min<size_t>(groups.size(), 10), namesShown = 8;
  out +=
      "<table>\n<thead><tr><th>criterion</th><th>first failure</th><th "
      "class=\"num\">submissions</th><th>who</th></tr></thead>\n<tbody>\n";
  for (size_t g = 0; g < shown; ++g) {
    const Group& group = groups[g];
    out += "<tr class=\"" + statusClass(group.status) + "\"><td><code>" + summaryEsc(group.criterion) + "</code> " +
           statusBadge(group.status) + "</td><td><code>" +
           summaryEsc(group.message.empty() ? std::string("(no message)") : clipText(group.message, 200)) +
           "</code></td><td class=\"num\">" + std::to_string(group.members.size()) + "</td><td>";
    for (size_t m = 0; m < group.members.size() && m < namesShown; ++m)
      out += (m ? ", " : "") + submissionLink(*group.members[m]);
    if (group.members.size() > namesShown) out += " and " + std::to_string(group.members.size() - namesShown) + " more";
    out += "</td></tr>\n";
  }
  out += "</tbody>\n</table>\n";
  if (groups.size() > shown) {
    size_t rest = 0;
    for (size_t g = shown; g < groups.size(); ++g) rest += groups[g].members.size();
    out += "<div class=\"muted\">" +
           summaryEsc(std::to_string(groups.size() - shown) + " more kinds of first failure (" + submissions(rest) +
                      ") not listed.") +
           "</div>\n";
  }
  return out + "</section>\n";
}
}  // namespace

std::string summaryHtml(const std::vector<ClassEntry>& all, const SummaryOptions& options) {
  // The statistics are of what was handed in; students of the roster who handed in nothing are rows
  // of the submissions table (and a note), not "not graded" submissions.
  std::vector<ClassEntry> entries;
  bool roster = false;
  for (const ClassEntry& e : all) {
    if (e.handedIn) entries.push_back(e);
    roster = roster || e.student || !e.handedIn;
  }
  const std::vector<ClassColumn> columns = classColumns(entries);
  size_t graded = 0;
  double max = 0;
  std::vector<std::string> devices, versions, rubrics;
  std::string earliest, latest;
  for (const ClassEntry& e : entries)
    if (e.graded) {
      if (!graded) max = e.report.max;
      ++graded;
      const DeviceInfo& d = e.report.device;
      devices.push_back(d.name.empty() && d.driver.empty()
                            ? std::string()
                            : (d.name.empty() ? std::string("unnamed device") : d.name) +
                                  (d.driver.empty() ? std::string() : ", driver " + d.driver));
      versions.push_back(e.report.version);
      rubrics.push_back(e.report.rubricTitle.empty() && e.report.rubricId.empty()
                            ? std::string()
                            : e.report.rubricTitle + " (" + e.report.rubricId + ")");
      const std::string& at = e.report.startedAt;  // ISO 8601 UTC: the text orders like the time
      if (!at.empty()) {
        if (earliest.empty() || at < earliest) earliest = at;
        if (latest.empty() || at > latest) latest = at;
      }
    }
  const std::string dates = earliest.empty()     ? (graded ? "unknown" : "")
                            : earliest == latest ? earliest
                                                 : earliest + " to " + latest;
  std::string out = htmlPageStart(options.title);
  out += "<header>\n<h1>" + summaryEsc(options.title) + "</h1>\n<dl class=\"meta\">\n<dt>Submissions</dt><dd>" +
         std::to_string(entries.size()) + " (" + std::to_string(graded) + " graded" +
         (graded < entries.size()
              ? ", <span class=\"problem\">" + std::to_string(entries.size() - graded) + " not graded</span>"
              : "") +
         ")</dd>\n<dt>Rubric</dt><dd>" + summaryEsc(agreed(rubrics)) + "</dd>\n<dt>Device</dt><dd>" +
         summaryEsc(agreed(devices)) + "</dd>\n<dt>clgrade</dt><dd>" + summaryEsc(agreed(versions)) +
         "</dd>\n<dt>Graded</dt><dd>" + summaryEsc(dates) + "</dd>\n";
  if (!options.gradebook.empty() && isSafeRelativePath(options.gradebook))
    out += "<dt>Gradebook</dt><dd><a href=\"" + summaryEsc(urlPath(options.gradebook)) + "\">" +
           summaryEsc(options.gradebook) + "</a></dd>\n";
  out += "</dl>\n</header>\n<main>\n";
  if (!options.notes.empty()) {
    out += "<section id=\"notes\">\n<h2>Notes</h2>\n<ul>\n";
    for (const std::string& n : options.notes) out += "<li class=\"problem\">" + summaryEsc(n) + "</li>\n";
    out += "</ul>\n</section>\n";
  }

  // Scores per column, graded submissions only (a task a report lacks counts as missing, not 0).
  std::vector<std::vector<double>> taskScores(columns.size());
  std::vector<double> totals;
  for (const ClassEntry& e : entries) {
    if (!e.graded) continue;
    totals.push_back(e.report.total);
    for (size_t i = 0; i < columns.size(); ++i)
      for (const TaskReport& t : e.report.tasks)
        if (t.id == columns[i].task) taskScores[i].push_back(t.points);
  }
  out +=
      "<section id=\"distribution\">\n<h2>Score distribution</h2>\n<table>\n<thead><tr><th></th><th "
      "class=\"num\">max</th>"
      "<th class=\"num\">graded</th><th class=\"num\">mean</th><th class=\"num\">median</th><th "
      "class=\"num\">lowest</th>"
      "<th class=\"num\">highest</th><th class=\"num\">full marks</th></tr></thead>\n<tbody>\n";
  for (size_t i = 0; i < columns.size(); ++i) out += statsRow(columns[i].task, taskScores[i], columns[i].max);
  out += statsRow("total", totals, max);
  out += "</tbody>\n</table>\n<div class=\"charts\">\n";
  out += chart("total", totals, max);
  for (size_t i = 0; i < columns.size(); ++i)
    out += chart(columns[i].task + (columns[i].taskTitle.empty() ? "" : ": " + columns[i].taskTitle), taskScores[i],
                 columns[i].max);
  out += "</div>\n</section>\n";

  out += failureRateSection(criterionStats(entries, columns));
  out += commonFailureSection(entries);

  out += "<section id=\"submissions\">\n<h2>Submissions</h2>\n<table>\n<thead><tr>" +
         std::string(roster ? "<th>Student</th>" : "") + "<th>Submission</th>";
  for (const ClassColumn& c : columns) out += "<th class=\"num\">" + summaryEsc(c.task) + "</th>";
  out += "<th class=\"num\">Total</th><th>Notes</th></tr></thead>\n<tbody>\n";
  for (const ClassEntry& e : all) {
    out += "<tr>";
    if (roster)
      out += "<td>" +
             (e.student ? summaryEsc(e.student->id) + (e.student->name.empty() ? "" : " " + summaryEsc(e.student->name))
                        : "") +
             "</td>";
    out += "<td>" + (e.handedIn && !e.submission.empty() ? submissionLink(e) : std::string()) + "</td>";
    std::string notes;
    for (const ClassColumn& c : columns) {
      const TaskReport* task = nullptr;
      if (e.graded)
        for (const TaskReport& t : e.report.tasks)
          if (t.id == c.task) task = &t;
      out += "<td class=\"num\">" + (task ? summaryEsc(formatPoints(task->points)) : std::string()) + "</td>";
      if (const std::string problem = task ? taskProblem(*task) : ""; !problem.empty())
        notes += "<div><small>" + summaryEsc(task->id + ": " + problem) + "</small></div>";
      if (task)
        for (const CriterionResult& cr : task->criteria)
          if (cr.overridden)
            notes += "<div><span class=\"badge override\">overridden</span> " + summaryEsc(task->id + "." + cr.id) +
                     ": " + summaryEsc(formatPoints(cr.points)) + " (measured " +
                     summaryEsc(formatPoints(cr.originalPoints)) + ")" +
                     (cr.overrideComment.empty() ? "" : " " + summaryEsc(cr.overrideComment)) + "</div>";
    }
    for (const std::string& stale : e.staleOverrides)
      notes += "<div><span class=\"badge stale\">stale override</span> " + summaryEsc(stale) + "</div>";
    if (!e.handedIn)
      notes = "<span class=\"problem\">" + summaryEsc(e.problem) + "</span>";
    else if (!e.graded)
      notes = "<span class=\"problem\">not graded: " + summaryEsc(e.problem) + "</span>" + notes;
    else if (!e.problem.empty())  // graded, but not on the roster
      notes = "<div><span class=\"problem\">" + summaryEsc(e.problem) + "</span></div>" + notes;
    out += "<td class=\"num\"><strong>" +
           (e.graded      ? summaryEsc(formatPoints(e.report.total)) + " / " + summaryEsc(formatPoints(e.report.max))
            : !e.handedIn ? "0 / " + summaryEsc(formatPoints(max))  // handed in nothing: 0, as in the gradebook
                          : std::string()) +
           "</strong></td><td>" + notes + "</td></tr>\n";
  }
  out += "</tbody>\n</table>\n</section>\n";
  if (options.similarity) out += similaritySection(*options.similarity);
  out += "</main>\n";
  return out + htmlPageEnd();
}

}  // namespace clgrade
