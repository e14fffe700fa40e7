#include "report/summary_html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/html_page.h"
#include "report/text.h"

namespace clgrade {
namespace {

std::string esc(const std::string& s) { return htmlEscape(s); }

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
    h.labels.push_back(whole || max <= 0 ? formatPoints(double(i)) : formatPoints(i * width) + "-" + formatPoints((i + 1) * width));
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
                    esc("score distribution of " + title) + "\">\n<title>" + esc("score distribution of " + title) + "</title>\n";
  svg += "<line x1=\"" + std::to_string(left) + "\" y1=\"" + std::to_string(top + plotH) + "\" x2=\"" + std::to_string(width - 5) +
         "\" y2=\"" + std::to_string(top + plotH) + "\" stroke=\"#57606a\"/>\n";
  svg += "<text x=\"2\" y=\"" + std::to_string(top + 4) + "\">" + std::to_string(peak) + "</text>\n";
  svg += "<text x=\"2\" y=\"" + std::to_string(top + plotH) + "\">0</text>\n";
  for (size_t i = 0; i < h.counts.size(); ++i) {
    const int x = left + static_cast<int>(i) * barW;
    const int barH = static_cast<int>(std::lround(double(h.counts[i]) / peak * plotH));
    svg += "<rect class=\"bar\" x=\"" + std::to_string(x + 1) + "\" y=\"" + std::to_string(top + plotH - barH) + "\" width=\"" +
           std::to_string(barW - 2) + "\" height=\"" + std::to_string(barH) + "\"><title>" +
           esc(h.labels[i] + " points: " + std::to_string(h.counts[i]) + " submissions") + "</title></rect>\n";
    if (h.counts[i])
      svg += "<text x=\"" + std::to_string(x + barW / 2) + "\" y=\"" + std::to_string(top + plotH - barH - 3) +
             "\" text-anchor=\"middle\">" + std::to_string(h.counts[i]) + "</text>\n";
    const bool label = h.counts.size() <= 12 || i % 2 == 0 || i + 1 == h.counts.size();
    if (label)
      svg += "<text x=\"" + std::to_string(x + barW / 2) + "\" y=\"" + std::to_string(top + plotH + 14) +
             "\" text-anchor=\"middle\">" + esc(h.labels[i]) + "</text>\n";
  }
  svg += "<text x=\"" + std::to_string(width / 2) + "\" y=\"" + std::to_string(height - 4) + "\" text-anchor=\"middle\">points (of " +
         esc(formatPoints(max)) + ")</text>\n</svg>";
  return "<figure class=\"chart\">" + svg + "<figcaption>" + esc(title) + "</figcaption></figure>\n";
}

std::string statsRow(const std::string& name, std::vector<double> scores, double max) {
  std::string row = "<tr><td>" + esc(name) + "</td><td class=\"num\">" + esc(formatPoints(max)) + "</td><td class=\"num\">" +
                    std::to_string(scores.size()) + "</td>";
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
  return row + "<td class=\"num\">" + fixed(sum / n, 2) + "</td><td class=\"num\">" + esc(formatPoints(median)) +
         "</td><td class=\"num\">" + esc(formatPoints(scores.front())) + "</td><td class=\"num\">" +
         esc(formatPoints(scores.back())) + "</td><td class=\"num\">" + std::to_string(full) + "</td></tr>\n";
}

}  // namespace

std::string summaryHtml(const std::vector<ClassEntry>& entries, const SummaryOptions& options) {
  const std::vector<ClassColumn> columns = classColumns(entries);
  size_t graded = 0;
  double max = 0;
  std::string rubric;
  for (const ClassEntry& e : entries)
    if (e.graded) {
      if (!graded) {
        max = e.report.max;
        rubric = e.report.rubricTitle + " (" + e.report.rubricId + ")";
      }
      ++graded;
    }
  std::string out = htmlPageStart(options.title);
  out += "<header>\n<h1>" + esc(options.title) + "</h1>\n<dl class=\"meta\">\n<dt>Submissions</dt><dd>" +
         std::to_string(entries.size()) + " (" + std::to_string(graded) + " graded" +
         (graded < entries.size() ? ", <span class=\"problem\">" + std::to_string(entries.size() - graded) + " not graded</span>" : "") +
         ")</dd>\n<dt>Rubric</dt><dd>" + esc(rubric) + "</dd>\n</dl>\n</header>\n<main>\n";
  if (!options.notes.empty()) {
    out += "<section id=\"notes\">\n<h2>Notes</h2>\n<ul>\n";
    for (const std::string& n : options.notes) out += "<li class=\"problem\">" + esc(n) + "</li>\n";
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
  out += "<section id=\"distribution\">\n<h2>Score distribution</h2>\n<table>\n<thead><tr><th></th><th class=\"num\">max</th>"
         "<th class=\"num\">graded</th><th class=\"num\">mean</th><th class=\"num\">median</th><th class=\"num\">lowest</th>"
         "<th class=\"num\">highest</th><th class=\"num\">full marks</th></tr></thead>\n<tbody>\n";
  for (size_t i = 0; i < columns.size(); ++i) out += statsRow(columns[i].task, taskScores[i], columns[i].max);
  out += statsRow("total", totals, max);
  out += "</tbody>\n</table>\n<div class=\"charts\">\n";
  out += chart("total", totals, max);
  for (size_t i = 0; i < columns.size(); ++i)
    out += chart(columns[i].task + (columns[i].taskTitle.empty() ? "" : ": " + columns[i].taskTitle), taskScores[i], columns[i].max);
  out += "</div>\n</section>\n";

  out += "<section id=\"submissions\">\n<h2>Submissions</h2>\n<table>\n<thead><tr><th>Submission</th>";
  for (const ClassColumn& c : columns) out += "<th class=\"num\">" + esc(c.task) + "</th>";
  out += "<th class=\"num\">Total</th><th>Notes</th></tr></thead>\n<tbody>\n";
  for (const ClassEntry& e : entries) {
    const std::string name = e.submission.empty() ? std::string("(unnamed)") : e.submission;
    out += "<tr><td>" +
           (e.reportHtml.empty() || !isSafeRelativePath(e.reportHtml)
                ? esc(name)
                : "<a href=\"" + esc(urlPath(e.reportHtml)) + "\">" + esc(name) + "</a>") +
           "</td>";
    std::string notes;
    for (const ClassColumn& c : columns) {
      const TaskReport* task = nullptr;
      if (e.graded)
        for (const TaskReport& t : e.report.tasks)
          if (t.id == c.task) task = &t;
      out += "<td class=\"num\">" + (task ? esc(formatPoints(task->points)) : std::string()) + "</td>";
      if (task && !task->problem.empty()) notes += "<div><small>" + esc(task->id + ": " + task->problem) + "</small></div>";
      if (task)
        for (const CriterionResult& cr : task->criteria)
          if (cr.overridden)
            notes += "<div><span class=\"badge override\">overridden</span> " + esc(task->id + "." + cr.id) + ": " +
                     esc(formatPoints(cr.points)) + " (measured " + esc(formatPoints(cr.originalPoints)) + ")" +
                     (cr.overrideComment.empty() ? "" : " " + esc(cr.overrideComment)) + "</div>";
    }
    if (!e.graded) notes = "<span class=\"problem\">not graded: " + esc(e.problem) + "</span>" + notes;
    out += "<td class=\"num\"><strong>" + (e.graded ? esc(formatPoints(e.report.total)) + " / " + esc(formatPoints(e.report.max)) : std::string()) +
           "</strong></td><td>" + notes + "</td></tr>\n";
  }
  out += "</tbody>\n</table>\n</section>\n</main>\n";
  return out + htmlPageEnd();
}

}  // namespace clgrade
