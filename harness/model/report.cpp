#include "model/report.h"

#include <algorithm>

namespace clgrade {

void TaskReport::sumPoints() {
  double sum = 0;
  for (const CriterionResult& c : criteria) sum += c.points;
  points = std::max(0.0, sum);
}

void GradeReport::sumPoints() {
  total = max = 0;
  for (const TaskReport& t : tasks) {
    total += t.points;
    max += t.max;
  }
}

bool GradeReport::allMeasuredPassed() const {
  for (const TaskReport& t : tasks)
    for (const CriterionResult& c : t.criteria)
      if (c.status == Status::Failed || c.status == Status::Error) return false;
  return true;
}

std::string GradeReport::machineFault() const {
  for (const TaskReport& t : tasks)
    if (!t.machineFault.empty()) return t.id + ": " + t.machineFault;
  return "";
}

double PhaseTime::of(const std::string& work) const {
  for (const auto& [name, seconds] : within)
    if (name == work) return seconds;
  return 0;
}

}  // namespace clgrade
