#include "report/gradebook_csv.h"

#include "util/csv.h"
#include "report/text.h"

namespace clgrade {
namespace {

std::string guarded(const std::string& text, const GradebookOptions& options) {
  return options.guardFormulas ? spreadsheetSafe(text) : text;
}

}  // namespace

std::string gradebookCsv(const std::vector<ClassEntry>& entries, const GradebookOptions& options) {
  const std::vector<ClassColumn> columns = classColumns(entries);
  // With a roster (report/class_roster.h) each row names its student, which is what an LMS matches on.
  bool roster = false;
  for (const ClassEntry& e : entries) roster = roster || e.student || !e.handedIn;
  std::vector<std::string> header = {"submission"};
  if (roster) header.insert(header.end(), {"student_id", "student_name", "student_email"});
  for (const ClassColumn& t : columns)
    for (const std::string& c : t.criteria) header.push_back(t.task + "." + c);
  for (const ClassColumn& t : columns) header.push_back(t.task + " total");
  for (const char* name : {"total", "max", "overrides", "problem"}) header.push_back(name);
  std::string csv = csvRow(header);
  double classMax = 0;
  for (const ClassEntry& e : entries)
    if (e.graded) {
      classMax = e.report.max;
      break;
    }

  for (const ClassEntry& e : entries) {
    std::vector<std::string> row = {guarded(cleanText(e.handedIn ? e.submission : ""), options)};
    if (roster)
      for (const std::string* field : {e.student ? &e.student->id : nullptr, e.student ? &e.student->name : nullptr,
                                       e.student ? &e.student->email : nullptr})
        row.push_back(field ? guarded(cleanText(*field), options) : "");
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
    // A student who handed in nothing has 0 of the class's max; any other entry without a grade has none.
    row.push_back(e.graded ? formatPoints(e.report.total) : !e.handedIn ? "0" : "");
    row.push_back(e.graded ? formatPoints(e.report.max) : !e.handedIn ? formatPoints(classMax) : "");
    row.push_back(guarded(cleanText(overrides), options));
    std::string problem = e.graded ? submissionProblems(e.report) : e.problem;
    if (e.graded && !e.problem.empty()) problem = e.problem + (problem.empty() ? "" : "; " + problem);
    row.push_back(guarded(cleanText(problem), options));
    csv += csvRow(row);
  }
  return csv;
}

}  // namespace clgrade
