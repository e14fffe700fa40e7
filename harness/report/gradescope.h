// Gradescope's results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
// one test per criterion, the total as the score, and a leaderboard.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/report.h"
#include "report/text.h"

namespace clgrade {

/// One leaderboard column: {"name", "value", "order"}.
struct LeaderboardEntry {
  std::string name;
  double value = 0;
  std::string order = "desc";  ///< "desc": higher ranks first (Gradescope's default), "asc": lower first
};

struct GradescopeOptions {
  /// Of every test: "visible", "hidden", "after_due_date" or "after_published".
  std::string visibility = "visible";
  /// Per task id or "task.criterion" (the more specific wins), instead of `visibility` and
  /// `hiddenCaseVisibility`.
  std::map<std::string, std::string> testVisibility;
  /// Of a criterion's scored test when hidden cases count towards it: its points are not shown before
  /// the due date (Gradescope then hides the total too); an informational test "(visible cases)"
  /// beside it, with `visibility`, says how the visible cases went.
  std::string hiddenCaseVisibility = "after_due_date";
  /// The whole result's "visibility"; empty: not written (Gradescope's own setting applies).
  std::string resultVisibility;
  /// The "leaderboard" array; empty is written as [] (a valid, empty leaderboard).
  std::vector<LeaderboardEntry> leaderboard;
  /// What each test's output lists (hidden cases' details are left out by default: students read it).
  DetailOptions details;
};

/// results.json: "score" (the total), "execution_time", "output" (a points summary), text formats
/// for output and names (student text is never read as HTML or Markdown), "tests" (one per criterion:
/// name, number, score, max_score, status "passed" when the criterion passed else "failed", output
/// with the reason, failing cases and the instructor's override, visibility, tags, extra_data; a
/// criterion that could not be measured is an informational test without score, max_score and status;
/// with hidden cases, see hiddenCaseVisibility), "leaderboard". Bytes that are not UTF-8 are replaced.
std::string gradescopeResults(const GradeReport& report, const GradescopeOptions& options = {});

/// Leaderboard entries from the tasks' performance figures: "<task> <kernel> GB/s" (desc) for every
/// submission kernel with a trusted, error-free time. Empty when nothing was measured or nothing can
/// be trusted (a CPU device).
std::vector<LeaderboardEntry> bandwidthLeaderboard(const GradeReport& report);

}  // namespace clgrade
