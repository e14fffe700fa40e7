#include "batch/class_entry.h"

#include "report/class_report.h"
#include "report/outputs.h"

namespace clgrade {

using nlohmann::ordered_json;

namespace {

/// The worst status among a task's criteria (what a gradebook shows per task).
Status taskStatus(const TaskReport& task) {
  Status worst = Status::Passed;
  auto rank = [](Status s) {
    return s == Status::Error ? 3 : s == Status::Failed ? 2 : s == Status::NotMeasured ? 1 : 0;
  };
  for (const CriterionResult& c : task.criteria)
    if (rank(c.status) > rank(worst)) worst = c.status;
  return worst;
}

}  // namespace

ordered_json classJsonEntry(const std::string& submission, const GradeReport& report) {
  ordered_json tasks = ordered_json::array();
  for (const TaskReport& t : report.tasks) {
    ordered_json criteria = ordered_json::array();
    for (const CriterionResult& c : t.criteria)
      criteria.push_back({{"id", c.id}, {"points", c.points}, {"max", c.max}, {"status", statusName(c.status)}});
    tasks.push_back({{"id", t.id},
                     {"points", t.points},
                     {"max", t.max},
                     {"status", statusName(taskStatus(t))},
                     {"problem", taskProblem(t)},
                     {"criteria", criteria}});
  }
  return {{"submission", submission}, {"total", report.total}, {"max", report.max}, {"tasks", tasks}};
}

std::string classFileText(const ordered_json& j) { return classJsonText(j); }

}  // namespace clgrade
