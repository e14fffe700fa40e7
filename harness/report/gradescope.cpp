#include "report/gradescope.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include <nlohmann/json.hpp>

namespace clgrade {
namespace {

using nlohmann::ordered_json;

std::string visibilityOf(const GradescopeOptions& options, const std::string& task, const CriterionResult& c,
                         bool hiddenCases) {
  const std::string& criterion = c.id;
  auto it = options.testVisibility.find(task + "." + criterion);
  if (it != options.testVisibility.end()) return it->second;
  it = options.testVisibility.find(task);
  if (it != options.testVisibility.end()) return it->second;
  if (!c.visibility.empty()) return c.visibility;  // the rubric's word
  return hiddenCases && !options.hiddenCaseVisibility.empty() ? options.hiddenCaseVisibility : options.visibility;
}

/// The outcomes of the criterion's checks on visible cases and whether hidden ones count towards it.
struct CaseSplit {
  bool hidden = false;
  /// "output, case edge: 12 values wrong", then its details (a compiler's errors): what a student may see
  std::vector<std::string> visibleFailures;
  bool anyVisible = false;
};

CaseSplit splitCases(const TaskReport& t, const CriterionResult& c, const DetailOptions& options) {
  CaseSplit split;
  for (const CheckResult& check : t.checks) {
    if (std::find(c.checks.begin(), c.checks.end(), check.id) == c.checks.end()) continue;
    for (const CaseOutcome& o : check.cases) {
      if (!o.visible) {
        split.hidden = true;
        continue;
      }
      split.anyVisible = true;
      if (o.status != Status::Failed && o.status != Status::Error) continue;
      std::string failure = check.id + ", case " + o.caseId + ": " + o.message;
      for (size_t i = 0; i < o.details.size() && i < options.detailLines; ++i) failure += "\n    " + o.details[i];
      if (o.details.size() > options.detailLines)
        failure += "\n    ... " + std::to_string(o.details.size() - options.detailLines) + " more lines";
      split.visibleFailures.push_back(failure);
    }
  }
  return split;
}

/// The submission as a few lines of text: each criterion with its points and status, the total. The
/// top-level output shows whenever the results do: a criterion whose test is not `visible` yet (its
/// points count hidden cases) is left out, and so is every total it would give away.
std::string summary(const GradeReport& r, const std::function<bool(const TaskReport&, const CriterionResult&)>& shown) {
  size_t later = 0;
  for (const TaskReport& t : r.tasks)
    for (const CriterionResult& c : t.criteria) later += !shown(t, c);
  std::string out = "clgrade " + r.version + ", rubric " + r.rubricTitle + " (" + r.rubricId + "), device " +
                    r.device.name + " (" + r.device.platform + ")\n";
  for (const std::string& notice : r.notices) out += "note: " + notice + "\n";
  for (const TaskReport& t : r.tasks) {
    bool whole = true;
    for (const CriterionResult& c : t.criteria) whole = whole && shown(t, c);
    out += t.id + (whole ? ": " + formatPoints(t.points) + "/" + formatPoints(t.max) : std::string(":")) +
           (t.problem.empty() ? "" : " - " + t.problem) + "\n";
    for (const std::string& note : processNotes(t)) out += "  (" + note + ")\n";
    for (const CriterionResult& c : t.criteria) {
      if (!shown(t, c)) continue;
      out += "  " + c.id + ": " + formatPoints(c.points) + "/" + formatPoints(c.max) + " " + statusName(c.status);
      if (c.overridden) out += " (overridden, measured " + formatPoints(c.originalPoints) + ")";
      out += "\n";
    }
  }
  if (later)
    return out + std::to_string(later) + " criteri" + (later == 1 ? "on counts" : "a count") +
           " hidden cases: their points and the total are shown after the due date\n";
  return out + "total: " + formatPoints(r.total) + "/" + formatPoints(r.max) + "\n";
}

}  // namespace

std::string gradescopeResults(const GradeReport& r, const GradescopeOptions& options) {
  ordered_json tests = ordered_json::array();
  for (size_t ti = 0; ti < r.tasks.size(); ++ti) {
    const TaskReport& t = r.tasks[ti];
    for (size_t ci = 0; ci < t.criteria.size(); ++ci) {
      const CriterionResult& c = t.criteria[ci];
      std::string output = statusLabel(c.status) + ": " + c.message + "\n";
      const std::string details = criterionDetails(t, c, options.details);
      if (!details.empty()) output += "\n" + details;
      ordered_json extra = {
          {"task", t.id}, {"criterion", c.id}, {"status", statusName(c.status)}, {"overridden", c.overridden}};
      if (c.overridden) {
        extra["original_points"] = c.originalPoints;
        extra["override_comment"] = c.overrideComment;
        extra["override_author"] = c.overrideAuthor;
      }
      ordered_json tags = {t.id, statusName(c.status)};
      if (c.overridden) tags.push_back("overridden");
      const CaseSplit split = splitCases(t, c, options.details);
      const std::string name = t.id + " / " + c.id + (c.title.empty() ? "" : ": " + c.title);
      ordered_json test = {
          {"name", name}, {"name_format", "text"}, {"number", std::to_string(ti + 1) + "." + std::to_string(ci + 1)}};
      // Not measured: what clgrade could not measure is said, not scored as a failed test worth 0.
      if (c.status != Status::NotMeasured || c.overridden) {
        test["score"] = c.points;
        test["max_score"] = c.max;
        test["status"] = c.status == Status::Passed ? "passed" : "failed";
      } else {
        test["name"] = name + " (not measured)";
      }
      test["output"] = output;
      test["output_format"] = "text";
      test["tags"] = tags;
      test["visibility"] = visibilityOf(options, t.id, c, split.hidden);
      test["extra_data"] = extra;
      tests.push_back(test);
      // Before the due date a student sees how the visible cases went, without the points.
      if (split.hidden && split.anyVisible && test["visibility"] != options.visibility) {
        std::string visibleOutput = split.visibleFailures.empty() ? "every visible case passed\n" : "";
        for (const std::string& f : split.visibleFailures) visibleOutput += f + "\n";
        visibleOutput += "(the points also count hidden cases: shown " +
                         std::string(test["visibility"] == "after_due_date" ? "after the due date" : "later") + ")\n";
        tests.push_back({{"name", t.id + " / " + c.id + " (visible cases)"},
                         {"name_format", "text"},
                         {"status", split.visibleFailures.empty() ? "passed" : "failed"},
                         {"output", visibleOutput},
                         {"output_format", "text"},
                         {"tags", {t.id, split.visibleFailures.empty() ? "passed" : "failed"}},
                         {"visibility", options.visibility},
                         {"extra_data", {{"task", t.id}, {"criterion", c.id}, {"visible_cases_only", true}}}});
      }
    }
  }
  ordered_json leaderboard = ordered_json::array();
  for (const LeaderboardEntry& e : options.leaderboard) {
    if (!std::isfinite(e.value)) continue;  // JSON has no NaN; Gradescope would refuse the file
    ordered_json entry = {{"name", e.name}, {"value", e.value}};
    if (!e.order.empty()) entry["order"] = e.order;
    leaderboard.push_back(entry);
  }
  ordered_json j = {{"score", r.total},
                    {"execution_time", static_cast<long long>(std::ceil(r.seconds))},
                    {"output", summary(r,
                                       [&](const TaskReport& t, const CriterionResult& c) {
                                         return visibilityOf(options, t.id, c, splitCases(t, c, options.details).hidden) ==
                                                "visible";
                                       })},
                    {"output_format", "text"},
                    {"test_output_format", "text"},
                    {"test_name_format", "text"}};
  if (!options.resultVisibility.empty()) j["visibility"] = options.resultVisibility;
  j["tests"] = tests;
  j["leaderboard"] = leaderboard;
  j["extra_data"] = {{"schema", "clgrade-gradescope/1"}, {"max", r.max}, {"rubric", r.rubricId}, {"mode", r.mode}};
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::vector<LeaderboardEntry> bandwidthLeaderboard(const GradeReport& r) {
  std::vector<LeaderboardEntry> entries;
  std::set<std::string> names;  // a kernel timed twice (two channels) is listed once
  for (const TaskReport& t : r.tasks) {
    if (!t.performance.measured) continue;
    for (const KernelFigure& f : t.performance.kernels)
      if (f.error.empty() && f.untrusted.empty() && f.gbPerS > 0 && std::isfinite(f.gbPerS) &&
          names.insert(t.id + " " + f.kernel).second)
        entries.push_back({t.id + " " + f.kernel + " GB/s", std::round(f.gbPerS * 100) / 100, "desc"});
  }
  return entries;
}

}  // namespace clgrade
