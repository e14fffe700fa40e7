#include "report/terminal_table.h"

#include <cstdio>
#include <sstream>

namespace clgrade {
namespace {

std::string points(double p) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", p);
  return buffer;
}

std::string pad(const std::string& s, size_t n) { return s.size() >= n ? s.substr(0, n) : s + std::string(n - s.size(), ' '); }

std::string clip(const std::string& s, size_t n) {
  std::string one = s.substr(0, s.find('\n'));
  return one.size() <= n ? one : one.substr(0, n > 3 ? n - 3 : n) + "...";
}

}  // namespace

std::string terminalTable(const GradeReport& r, size_t width) {
  std::ostringstream out;
  out << "clgrade " << r.version << " (" << r.mode << ")  rubric: " << r.rubricTitle << "\n";
  out << "device: " << r.device.platform << " / " << r.device.name << " (driver " << r.device.driver << ")\n\n";
  const size_t fixed = 12 + 30 + 8 + 14;
  const size_t reasonWidth = width > fixed + 20 ? width - fixed : 40;
  out << pad("task", 12) << pad("criterion", 30) << pad("points", 8) << pad("status", 14) << "reason\n";
  out << std::string(std::min(width, fixed + reasonWidth), '-') << "\n";
  for (const TaskReport& t : r.tasks) {
    for (const CriterionResult& c : t.criteria) {
      out << pad(t.id, 12) << pad(c.id, 30) << pad(points(c.points) + "/" + points(c.max), 8)
          << pad(statusName(c.status), 14) << clip(c.message, reasonWidth) << "\n";
    }
  }
  out << std::string(std::min(width, fixed + reasonWidth), '-') << "\n";
  out << pad("total", 42) << points(r.total) << "/" << points(r.max) << "\n";
  return out.str();
}

}  // namespace clgrade
