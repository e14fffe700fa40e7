// summary.html: the class at a glance (score distributions, every submission with its total).
#pragma once

#include <string>
#include <vector>

#include "report/class_report.h"

namespace clgrade {

struct SummaryOptions {
  std::string title = "clgrade class summary";
  /// Shown as warnings above the tables: overrides that did not apply, submissions that could not be
  /// graded by the batch itself, ...
  std::vector<std::string> notes;
};

/// The page (valid HTML5, inline style and SVG, no script, no external resource): counts of graded and
/// ungraded submissions; per task and for the total, a statistics row (max, mean, median, lowest,
/// highest, full marks) and a bar chart of the score distribution (inline SVG); a table of every
/// submission with its task points, total and a link to its report.html, overrides marked, problems
/// named. Every string is escaped.
std::string summaryHtml(const std::vector<ClassEntry>& entries, const SummaryOptions& options = {});

}  // namespace clgrade
