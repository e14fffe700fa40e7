#include "report/gradebook_csv.h"

#include "report/csv.h"
#include "report/text.h"

namespace clgrade {
namespace {

std::string guarded(const std::string& text, const GradebookOptions& options) {
  if (options.guardFormulas && !text.empty() &&
      (text[0] == '=' || text[0] == '+' || text[0] == '-' || text[0] == '@' || text[0] == '\t' || text[0] == '\r'))
    return "'" + text;
  return text;
}

}  // namespace

std::string gradebookCsv(const std::vector<ClassEntry>& entries, const GradebookOptions& options) {
  const std::vector<ClassColumn> columns = classColumns(entries);
  std::vector<std::string> header = {"submission"};
  for (const ClassColumn& t : columns)
    for (const std::string& c : t.criteria) header.push_back(t.task + "." + c);
  for (const ClassColumn& t : columns) header.push_back(t.task + " total");
  for (const char* name : {"total", "max", "overrides", "problem"}) header.push_back(name);
  std::string csv = csvRow(header);

  for (const ClassEntry& e : entries) {
    std::vector<std::string> row = {guarded(cleanText(e.submission), options)};
    std::vector<std::string> totals;
    std::string overrides;
    for (const ClassColumn& column : columns) {
      const TaskReport* task = nullptr;
      if (e.graded)
        for (const TaskReport& t : e.report.tasks)
          if (t.id == column.task) task = &t;
      for (const std::string& id : column.criteria) {
        const CriterionResult* criterion = nullptr;
        if (task)
          for (const CriterionResult& c : task->criteria)
            if (c.id == id) criterion = &c;
        row.push_back(criterion ? formatPoints(criterion->points) : "");
        if (criterion && criterion->overridden) {
          if (!overrides.empty()) overrides += "; ";
          overrides += column.task + "." + id + ": " + formatPoints(criterion->points) + " (measured " +
                       formatPoints(criterion->originalPoints) + ")";
          if (!criterion->overrideAuthor.empty()) overrides += " by " + criterion->overrideAuthor;
          if (!criterion->overrideComment.empty()) overrides += ": " + criterion->overrideComment;
        }
      }
      totals.push_back(task ? formatPoints(task->points) : "");
    }
    row.insert(row.end(), totals.begin(), totals.end());
    row.push_back(e.graded ? formatPoints(e.report.total) : "");
    row.push_back(e.graded ? formatPoints(e.report.max) : "");
    row.push_back(guarded(cleanText(overrides), options));
    row.push_back(guarded(cleanText(e.graded ? submissionProblems(e.report) : e.problem), options));
    csv += csvRow(row);
  }
  return csv;
}

}  // namespace clgrade
