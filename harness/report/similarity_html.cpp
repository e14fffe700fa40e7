#include "report/similarity_html.h"

#include <cstdio>

#include "similarity/template_lines.h"
#include "util/markup.h"

namespace clgrade {
namespace {

std::string similarityEsc(const std::string& s) { return htmlEscape(s); }

std::string oneDecimal(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  std::string s = buffer;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

/// Lines shown of one source at most (a hostile file of 1 MiB must not make the page huge).
constexpr size_t kShownLines = 400;
constexpr size_t kShownLineBytes = 300;

std::string sourceColumn(const std::string& name, const std::string& text, const std::vector<bool>& mask) {
  std::string out = "<td style=\"vertical-align:top;width:50%\"><div><strong>" + similarityEsc(name) +
                    "</strong></div><pre style=\"font-size:12px;margin:2px 0\">";
  const std::vector<std::string> lines = splitLines(text);
  for (size_t i = 0; i < lines.size() && i < kShownLines; ++i) {
    std::string line = lines[i].size() > kShownLineBytes ? lines[i].substr(0, kShownLineBytes) + "\u2026" : lines[i];
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const bool skeleton = i < mask.size() && mask[i];
    out += skeleton ? "<span style=\"color:#8c959f\">" + similarityEsc(line) + "</span>\n" : similarityEsc(line) + "\n";
  }
  if (lines.size() > kShownLines)
    out += "<span style=\"color:#8c959f\">" +
           similarityEsc("(" + std::to_string(lines.size() - kShownLines) + " more lines)") + "</span>\n";
  return out + "</pre></td>";
}

std::string taskPart(const TaskSimilarity& t) {
  std::string out = "<h3><code>" + similarityEsc(t.task) + "</code> " + similarityEsc(t.file) + "</h3>\n";
  if (!t.problem.empty())
    return out + "<div class=\"problem\">" +
           similarityEsc(std::to_string(t.compared) + " submissions with the file; " + t.problem) + "</div>\n";
  if (t.compared < 2)
    return out + "<div class=\"muted\">" +
           similarityEsc(std::to_string(t.compared) + (t.compared == 1 ? " submission" : " submissions") +
                         " with the file: nothing to compare.") +
           "</div>\n";
  out += "<div>" +
         similarityEsc(std::to_string(t.compared) + " submissions, " + std::to_string(t.pairs) + " pairs: median " +
                       oneDecimal(t.median) + " %, quartiles " + oneDecimal(t.q1) + " to " + oneDecimal(t.q3) +
                       " %, MAD " + oneDecimal(t.mad) + ", highest " + oneDecimal(t.highest) + " %; " +
                       std::to_string(t.flagged) + (t.flagged == 1 ? " pair" : " pairs") + " flagged.") +
         "</div>\n";
  if (!t.note.empty()) out += "<div class=\"muted\">" + similarityEsc(t.note) + ".</div>\n";
  out +=
      "<table>\n<thead><tr><th>pair</th><th class=\"num\">first in second</th><th class=\"num\">second in "
      "first</th><th class=\"num\">score</th><th class=\"num\">robust z</th><th>flag</th></tr></thead>\n<tbody>\n";
  for (const SimilarPair& p : t.top)
    out += std::string("<tr") + (p.flagged ? " class=\"st-failed\"" : "") + "><td>" + similarityEsc(p.first) + " / " +
           similarityEsc(p.second) + "</td><td class=\"num\">" + std::to_string(p.firstInSecond) +
           " %</td><td class=\"num\">" + std::to_string(p.secondInFirst) + " %</td><td class=\"num\">" +
           oneDecimal(p.score) + " %</td><td class=\"num\">" + oneDecimal(p.z) + "</td><td>" +
           (p.flagged ? "<span class=\"badge st-failed\">far above the class</span>" : "") + "</td></tr>\n";
  out += "</tbody>\n</table>\n";
  for (const PairSources& s : t.sideBySide)
    out += "<details><summary>" + similarityEsc(s.first + " and " + s.second + ": " + t.file + " side by side") +
           "</summary>\n<div class=\"muted\">Grey lines are the template's (not compared).</div>\n"
           "<table style=\"table-layout:fixed;width:100%\"><tr>" +
           sourceColumn(s.first, s.firstText, s.firstTemplate) +
           sourceColumn(s.second, s.secondText, s.secondTemplate) + "</tr></table>\n</details>\n";
  return out;
}

}  // namespace

std::string similaritySection(const ClassSimilarity& s) {
  std::string out =
      "<section id=\"similarity\">\n<h2>Similar kernels</h2>\n<div class=\"muted\">" +
      similarityEsc(
          "How alike each pair of submissions' kernels are (sim_c of similarity-tester, each file without comments "
          "and without the template's lines; a pair's score is the larger of \"first in second\" and \"second in "
          "first\"). Similarity never changes a grade. Independent solutions of this short assignment are alike, so "
          "a pair is flagged only when far above its own class's pairs (robust z-score at least 3.5 and a score of "
          "at least 50 %); a flag is a reason to look, not a finding.") +
      "</div>\n";
  if (!s.measured) return out + "<div class=\"problem\">" + similarityEsc(s.problem) + "</div>\n</section>\n";
  if (s.tasks.empty()) out += "<div>No graded submission.</div>\n";
  for (const TaskSimilarity& t : s.tasks) out += taskPart(t);
  return out + "</section>\n";
}

}  // namespace clgrade
