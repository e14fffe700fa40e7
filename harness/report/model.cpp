#include "report/model.h"

namespace clgrade {

bool GradeReport::allMeasuredPassed() const {
  for (const TaskReport& t : tasks)
    for (const CriterionResult& c : t.criteria)
      if (c.status == Status::Failed || c.status == Status::Error) return false;
  return true;
}

}  // namespace clgrade
