#include "model/report.h"

namespace clgrade {

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

}  // namespace clgrade
