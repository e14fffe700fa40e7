#include "report/terminal_table.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "report/findings.h"
#include "report/text.h"
#include "util/markup.h"

namespace clgrade {
namespace {

std::string points(double p) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", p);
  return buffer;
}

/// The width of "no terminal": every reason on one line, whole.
constexpr size_t kUnbounded = size_t(1) << 20;

/// `s` padded to `n` columns; an id longer than its column is never cut: it takes what it needs and
/// one space.
std::string pad(const std::string& s, size_t n) {
  return s.size() >= n ? s + " " : s + std::string(n - s.size(), ' ');
}

/// The first line of `s`, wrapped at spaces to lines of at most `n` columns, each after the first
/// indented by `indent` columns (a word longer than a line is cut only then): a reason is read whole.
std::string wrap(const std::string& s, size_t n, size_t indent) {
  const std::string one = s.substr(0, s.find('\n'));
  n = std::max<size_t>(n, 20);
  std::string out, line;
  std::istringstream words(one);
  for (std::string word; words >> word;) {
    while (word.size() > n) {  // a path or number longer than the line
      if (!line.empty()) out += line + "\n" + std::string(indent, ' '), line.clear();
      out += word.substr(0, n) + "\n" + std::string(indent, ' ');
      word.erase(0, n);
    }
    if (!line.empty() && line.size() + 1 + word.size() > n) {
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return out + line;
}

std::string figureRow(const std::string& task, const KernelFigure& f) {
  char line[240];
  if (!f.error.empty()) {
    std::snprintf(line, sizeof line, "%-11s %-31s %s\n", task.c_str(), f.kernel.c_str(), f.error.c_str());
    return line;
  }
  char ratio[16] = "", floor[16] = "", tiling[16] = "";
  if (f.vsReference > 0) std::snprintf(ratio, sizeof ratio, "%.2fx", f.vsReference);
  if (f.vsNaive > 0) std::snprintf(tiling, sizeof tiling, "%.2fx", f.vsNaive);
  if (f.launchFloorMs > 0) std::snprintf(floor, sizeof floor, "%.1f", f.launchFloorMs * 1e3);
  std::snprintf(line, sizeof line, "%-11s %-31s %10.1f %9s %6.1f%% %9.1f %7.0f%% %8s %8s%s\n", task.c_str(),
                f.kernel.c_str(), f.time.medianMs * 1e3, floor, 100 * f.time.robustCv, f.gbPerS, 100 * f.ofRoofline,
                ratio, tiling, f.untrusted.empty() ? "" : "  *");
  return line;
}

/// Kernel times of every task's performance case, with the copy roofline and the reference.
std::string performanceSection(const GradeReport& r) {
  std::ostringstream out;
  bool any = false, untrusted = false;
  for (const TaskReport& t : r.tasks) {
    const PerformanceReport& p = t.performance;
    if (!p.measured && p.problem.empty()) continue;
    if (!any) {
      out << "\nperformance (median of the timed launches; floor = an empty kernel on the same launch; of copy = "
             "share of a plain copy's GB/s in the same run; vs reference = the reference kernel's time / this one's; "
             "vs "
             "naive = the time of the naive kernel, every tap read from global memory (reference/naive) / this "
             "one's: the speed-up of tiling)\n";
      char head[200];
      std::snprintf(head, sizeof head, "%-11s %-31s %10s %9s %7s %9s %8s %8s %8s\n", "task", "kernel", "median us",
                    "floor us", "rCV", "GB/s", "of copy", "vs ref", "vs naive");
      out << head;
      any = true;
    }
    if (!p.problem.empty()) {
      out << pad(t.id, 12) << p.problem << "\n";
      continue;
    }
    for (const KernelFigure& f : p.kernels) {
      out << figureRow(t.id, f);
      untrusted = untrusted || !f.untrusted.empty();
    }
    out << figureRow(t.id, p.copy);
    if (!p.note.empty()) out << pad("", 12) << "(" << p.width << "x" << p.height << "; " << p.note << ")\n";
  }
  if (untrusted)
    out << "* not trusted for grading (see report.json: a CPU device, a wide spread, or too short to time)\n";
  for (const TaskReport& t : r.tasks)
    if (t.sweep.ran)
      out << t.id << " sweep: " << t.sweep.points.size() << " points, " << t.sweep.incorrect() << " incorrect"
          << (t.sweep.chartSvg.empty() ? "" : "; chart " + t.sweep.chartSvg + " and .png") << "\n";
  return out.str();
}

}  // namespace

std::string terminalTable(const GradeReport& r, size_t width, bool performance) {
  if (width == 0) width = kUnbounded;
  std::ostringstream out;
  out << "clgrade " << r.version << " (" << r.mode << ")  rubric: " << r.rubricTitle << "\n";
  out << "device: " << r.device.platform << " / " << r.device.name << " (driver " << r.device.driver << ")\n\n";
  const size_t fixed = 12 + 30 + 8 + 14;
  // A terminal too narrow for a reason column beside the others gets each reason on lines of its own.
  const bool beside = width >= fixed + 30;
  const size_t reasonWidth = beside ? width - fixed : width - 4;
  out << pad("task", 12) << pad("criterion", 30) << pad("points", 8) << pad("status", 14) << "reason\n";
  out << std::string(beside ? std::min(width, fixed + 56) : fixed, '-') << "\n";
  for (const TaskReport& t : r.tasks) {
    for (const CriterionResult& c : t.criteria) {
      // Escaped before padding, so a control character shown as \x1b keeps the columns straight.
      out << pad(terminalText(t.id), 12) << pad(terminalText(c.id), 30)
          << pad(points(c.points) + "/" + points(c.max), 8) << pad(statusName(c.status), 14)
          << (beside ? "" : "\n    ") << wrap(terminalText(c.message), reasonWidth, beside ? fixed : 4) << "\n";
    }
  }
  out << std::string(beside ? std::min(width, fixed + 56) : fixed, '-') << "\n";
  out << pad("total", 42) << points(r.total) << "/" << points(r.max) << "\n";
  if (performance) out << performanceSection(r);
  // Messages quote student text (an #include's file name, a kernel's name, a compiler log): nothing
  // of it may drive the instructor's terminal.
  return terminalText(out.str());
}

std::string whatToFix(const GradeReport& r, size_t width) {
  if (width == 0) width = kUnbounded;
  std::ostringstream out;
  for (const TaskReport& t : r.tasks) {
    if (!t.problem.empty() && t.criteria.empty()) out << "  " << wrap(t.id + ": " + t.problem, width - 2, 4) << "\n";
    const std::vector<Finding> findings = taskFindings(t);
    for (const CriterionResult& c : t.criteria) {
      if (c.status != Status::Failed && c.status != Status::Error) continue;
      // The first finding of the criterion's checks says it shortest; else the criterion's message.
      std::string reason = c.message;
      for (const Finding& f : findings) {
        size_t places = 0;
        for (const FindingPlace& p : f.places)
          places += std::find(c.checks.begin(), c.checks.end(), p.check->id) != c.checks.end();
        if (!places) continue;
        reason = f.text + (f.places.size() > 1 ? " (" + std::to_string(f.places.size()) + " places)" : "");
        break;
      }
      if (!t.problem.empty()) reason = t.problem;
      const std::string head =
          "  " + pad(t.id + "." + c.id, 32) + " " + pad(points(c.points) + "/" + points(c.max), 6) + " ";
      out << head << wrap(reason, width > head.size() + 20 ? width - head.size() : 40, head.size()) << "\n";
    }
  }
  const std::string lines = out.str();
  return terminalText(lines.empty() ? "" : "What to fix:\n" + lines);
}

std::string failureDetails(const GradeReport& r, const std::string& reportDir, size_t detailLines) {
  std::ostringstream out;
  for (const TaskReport& t : r.tasks) {
    for (const std::string& note : processNotes(t)) out << t.id << ": " << note << "\n\n";
    if (!t.problem.empty()) {
      out << t.id << ": " << t.problem << "\n\n";
      continue;
    }
    for (const Finding& f : taskFindings(t)) {
      out << t.id << ": " << f.text << " [" << statusName(f.status) << "]\n";
      if (f.places.size() > 1) out << "  the same in " << f.places.size() << " places: " << recurrence(f) << "\n";
      for (const FindingPlace& p : f.shown()) {
        const CaseOutcome& o = *p.outcome;
        out << "  " << p.check->id << " on case " << o.caseId << (o.visible ? "" : " (hidden)") << ": " << o.message
            << "\n";
        for (size_t i = 0; i < o.details.size() && i < detailLines; ++i) out << "    " << o.details[i] << "\n";
        if (o.details.size() > detailLines)
          out << "    (" << o.details.size() - detailLines << " more lines in report.html)\n";
        // The crop of the first wrong pixels, a build log or a bins listing: the one file to open first.
        bool crop = false;
        for (const Evidence& e : o.evidence) crop = crop || e.path.find("_crop.png") != std::string::npos;
        for (const Evidence& e : o.evidence) {
          const std::string& p = e.path;
          if ((crop ? p.find("_crop.png") : p.find("_diff.png")) != std::string::npos ||
              p.find(".log") != std::string::npos || p.find(".txt") != std::string::npos)
            out << "    see " << reportDir << "/" << p << "\n";
        }
      }
      out << "\n";
    }
  }
  return terminalText(out.str());
}

}  // namespace clgrade
