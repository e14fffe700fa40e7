#include "report/class_report.h"

#include <algorithm>

namespace clgrade {

std::vector<ClassColumn> classColumns(const std::vector<ClassEntry>& entries) {
  std::vector<ClassColumn> columns;
  for (const ClassEntry& e : entries) {
    if (!e.graded) continue;
    for (const TaskReport& t : e.report.tasks) {
      auto task = std::find_if(columns.begin(), columns.end(), [&](const ClassColumn& c) { return c.task == t.id; });
      if (task == columns.end()) {
        columns.push_back({t.id, t.title, t.max, {}, {}});
        task = columns.end() - 1;
      }
      for (const CriterionResult& c : t.criteria)
        if (std::find(task->criteria.begin(), task->criteria.end(), c.id) == task->criteria.end()) {
          task->criteria.push_back(c.id);
          task->criterionMax.push_back(c.max);
        }
    }
  }
  return columns;
}

}  // namespace clgrade
