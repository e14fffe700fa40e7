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

std::string taskProblem(const TaskReport& task) {
  if (!task.problem.empty()) return task.problem;
  for (const BuildRecord& b : task.builds) {
    if (b.ok) continue;
    for (const SourceQuote& q : task.sourceQuotes)
      if (q.why.rfind("build: error: ", 0) == 0)
        return "does not compile: " + q.file + ":" + std::to_string(q.line) + ": " + q.why.substr(14);
    return "does not compile: " + b.error;
  }
  return "";
}

std::string submissionProblems(const GradeReport& report) {
  std::string out;
  for (const TaskReport& t : report.tasks)
    if (const std::string problem = taskProblem(t); !problem.empty())
      out += (out.empty() ? "" : "; ") + t.id + ": " + problem;
  return out;
}

}  // namespace clgrade
