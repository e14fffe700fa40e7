// summary.html: the class at a glance (who graded what where, what fails most and how, score
// distributions, every submission with its total).
#pragma once

#include <string>
#include <vector>

#include "report/class_report.h"
#include "similarity/model.h"

namespace clgrade {

struct SummaryOptions {
  std::string title = "clgrade class summary";
  /// Shown as warnings above the tables: overrides that did not apply, submissions that could not be
  /// graded by the batch itself, ...
  std::vector<std::string> notes;
  /// The class gradebook relative to the folder of summary.html, linked from the header; empty: no link.
  std::string gradebook = "gradebook.csv";
  /// The class's similarity report (similarity/measure.h); none: no #similarity section.
  const ClassSimilarity* similarity = nullptr;
};

/// The page (valid HTML5, inline style and SVG, no script, no external resource), in order:
///  - a header: counts of graded and ungraded submissions; the rubric (title and id), the device (name
///    and driver), the clgrade version and the dates the grades started (earliest to latest, from
///    report.startedAt) over the graded reports, each "mixed: a (2 submissions); b (1 submission)"
///    where the reports differ; a link to the gradebook (options.gradebook);
///  - notes (options.notes), when there are any;
///  - #distribution: per task and for the total, a statistics row (max, mean, median, lowest, highest,
///    full marks) and a bar chart of the score distribution (inline SVG);
///  - #failure-rates, "Failure rate per criterion": a horizontal bar chart of the failure rates, then a
///    table with a row per criterion in class column order (classColumns): its points (or how much a
///    deduction takes), the graded submissions whose report has it, how many of them failed it or
///    could not run it (failed or error; a deduction that applied is failed) as "2 / 3" and "67%" with
///    a bar, how many were not measured, and the points lost on average (max - points; overrides
///    counted). The three highest rates are marked (red bar, badge);
///  - #common-failures, "Most common first failures": each graded submission's first criterion that
///    failed or errored (tasks, then criteria, in order) with its message, messages grouped once every
///    run of digits reads "N" (and white space is collapsed); the ten largest groups with the
///    criterion, the message (clipped to 200 characters), the count and up to 8 submissions (linked
///    to their report.html), "and K more" beyond;
///  - #submissions: a table of every submission with its task points, total and a link to its
///    report.html, overrides marked, problems named; with a roster (report/class_roster.h), a student
///    column first and a row for each student who handed in nothing. Every other section counts only
///    what was handed in.
///  - #similarity, "Similar kernels" (options.similarity; report/similarity_html.h): per task file the
///    distribution of pair scores, the flagged pairs then the most similar others, the top flagged
///    pairs side by side, or why similarity was not measured.
/// Every string is escaped.
std::string summaryHtml(const std::vector<ClassEntry>& entries, const SummaryOptions& options = {});

}  // namespace clgrade
