#include "report/overrides.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "util/csv.h"
#include "report/text.h"
#include "util/files.h"
#include "util/unicode.h"

namespace clgrade {
namespace {

std::string trim(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t") - begin + 1);
}

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

bool parseNumber(const std::string& text, double* value) {
  if (text.empty()) return false;
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(*value);
}

std::string prefix(const Override& o) { return o.where.empty() ? "override: " : o.where + ": "; }

std::string ids(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& s : list) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "none" : out;
}

void sumAgain(GradeReport* report) {
  report->total = 0;
  for (TaskReport& t : report->tasks) {
    t.sumPoints();
    report->total += t.points;
  }
}

}  // namespace

bool parseOverrides(const std::string& text, const std::string& source, std::vector<Override>* overrides,
                    std::vector<std::string>* errors) {
  const size_t before = errors->size();
  std::vector<CsvRecord> records;
  std::string err;
  if (!parseCsv(text, &records, &err)) errors->push_back(source + ":" + err.substr(5));  // "line N: ..." -> "N: ..."
  if (records.empty()) {
    if (errors->size() == before)
      errors->push_back(source +
                        ":1: empty; the first line must name the columns submission,task,criterion,points,comment");
    return false;
  }
  const size_t beforeHeader = errors->size();
  const CsvRecord& header = records[0];
  const std::string at0 = source + ":" + std::to_string(header.line) + ": ";
  std::map<std::string, size_t> column;
  for (size_t i = 0; i < header.fields.size(); ++i) {
    const std::string name = lower(trim(header.fields[i]));
    static const std::set<std::string> known = {"submission", "task", "criterion", "points", "comment", "author"};
    if (!known.count(name))
      errors->push_back(at0 + "unknown column '" + name +
                        "' (expected submission,task,criterion,points,comment and optionally author)");
    else if (!column.emplace(name, i).second)
      errors->push_back(at0 + "column '" + name + "' appears twice");
  }
  for (const char* required : {"submission", "task", "criterion", "points"})
    if (!column.count(required)) errors->push_back(at0 + "no column '" + required + "' in the header");
  if (errors->size() != beforeHeader) return false;

  std::map<std::tuple<std::string, std::string, std::string>, size_t> firstLine;
  for (size_t r = 1; r < records.size(); ++r) {
    const CsvRecord& record = records[r];
    const std::string where = source + ":" + std::to_string(record.line);
    if (record.fields.size() != header.fields.size()) {
      errors->push_back(where + ": " + std::to_string(record.fields.size()) + " fields, the header has " +
                        std::to_string(header.fields.size()));
      continue;
    }
    auto get = [&](const char* name) {
      auto it = column.find(name);
      return it == column.end() ? std::string() : record.fields[it->second];
    };
    Override o;
    o.where = where;
    // The batch's names are in Unicode Normalization Form C (batch/batch.h): so is this one, however typed.
    o.submission = nfc(trim(get("submission")));
    o.task = trim(get("task"));
    o.criterion = trim(get("criterion"));
    o.comment = trim(get("comment"));
    o.author = trim(get("author"));
    bool ok = true;
    for (const auto& [name, value] : {std::pair<const char*, const std::string*>{"submission", &o.submission},
                                      {"task", &o.task},
                                      {"criterion", &o.criterion}}) {
      if (value->empty()) {
        errors->push_back(where + ": empty " + name);
        ok = false;
      }
    }
    const std::string points = trim(get("points"));
    if (!parseNumber(points, &o.points)) {
      errors->push_back(where + ": points '" + points + "' is not a number");
      ok = false;
    }
    if (!ok) continue;
    auto [it, fresh] = firstLine.emplace(std::make_tuple(o.submission, o.task, o.criterion), record.line);
    if (!fresh) {
      errors->push_back(where + ": a second override of " + o.submission + " " + o.task + "." + o.criterion +
                        " (the first is on line " + std::to_string(it->second) + ")");
      continue;
    }
    overrides->push_back(o);
  }
  return errors->size() == before;
}

bool loadOverrides(const std::string& path, std::vector<Override>* overrides, std::vector<std::string>* errors) {
  std::string text, err;
  if (!readFile(path, &text, &err)) {
    errors->push_back(path + ": " + err);
    return false;
  }
  return parseOverrides(text, path, overrides, errors);
}

void applyOverrides(const std::vector<Override>& overrides, const std::string& submission, GradeReport* report,
                    std::vector<std::string>* problems) {
  auto problem = [problems](const std::string& text) {
    if (problems) problems->push_back(text);
  };
  bool changed = false;
  for (const Override& o : overrides) {
    if (o.submission != submission) continue;
    auto task =
        std::find_if(report->tasks.begin(), report->tasks.end(), [&](const TaskReport& t) { return t.id == o.task; });
    if (task == report->tasks.end()) {
      std::vector<std::string> known;
      for (const TaskReport& t : report->tasks) known.push_back(t.id);
      problem(prefix(o) + submission + ": no task '" + o.task + "' in the report (tasks: " + ids(known) + ")");
      continue;
    }
    auto criterion = std::find_if(task->criteria.begin(), task->criteria.end(),
                                  [&](const CriterionResult& c) { return c.id == o.criterion; });
    if (criterion == task->criteria.end()) {
      std::vector<std::string> known;
      for (const CriterionResult& c : task->criteria) known.push_back(c.id);
      problem(prefix(o) + submission + ": no criterion '" + o.criterion + "' in task " + o.task +
              " (criteria: " + ids(known) + ")");
      continue;
    }
    // A deduction's range is min..0 (an instructor may waive it), a criterion's 0..max.
    const double low = std::min(0.0, criterion->min), high = std::max(0.0, criterion->max);
    const double points = std::clamp(o.points, low, high);
    if (points != o.points)
      problem(prefix(o) + submission + " " + o.task + "." + o.criterion + ": " + formatPoints(o.points) +
              " points is outside " + formatPoints(low) + ".." + formatPoints(high) + ", " + formatPoints(points) +
              " given");
    if (!criterion->overridden) criterion->originalPoints = criterion->points;
    criterion->overridden = true;
    criterion->points = points;
    criterion->overrideComment = o.comment;
    criterion->overrideAuthor = o.author;
    changed = true;
  }
  if (changed) sumAgain(report);
}

void clearOverrides(GradeReport* report) {
  bool changed = false;
  for (TaskReport& t : report->tasks)
    for (CriterionResult& c : t.criteria) {
      if (!c.overridden) continue;
      c.points = c.originalPoints;
      c.overridden = false;
      c.originalPoints = 0;
      c.overrideComment.clear();
      c.overrideAuthor.clear();
      changed = true;
    }
  if (changed) sumAgain(report);
}

std::vector<std::string> unknownOverrideSubmissions(const std::vector<Override>& overrides,
                                                    const std::vector<std::string>& submissions) {
  const std::set<std::string> known(submissions.begin(), submissions.end());
  std::vector<std::string> problems;
  for (const Override& o : overrides)
    if (!known.count(o.submission))
      problems.push_back(prefix(o) + "no submission '" + o.submission + "' in this batch (override of " + o.task + "." +
                         o.criterion + " not applied)");
  return problems;
}

}  // namespace clgrade
