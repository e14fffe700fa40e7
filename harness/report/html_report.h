// report.html: the report of one submission as a self-contained page for people (inline style, no
// script, no external resource).
#pragma once

#include <cstddef>
#include <string>

#include "model/report.h"

namespace clgrade {

struct HtmlOptions {
  /// The report folder: build logs are read from it when the model has no log text (a report read
  /// back from report.json), and images when embedded. Links in the page are relative to it, so the
  /// page belongs in that folder (report.html next to report.json).
  std::string reportDir;
  std::string submission;           ///< the header's name; empty: the kernels folder's last component
  bool embedImages = false;         ///< PNGs as data: URIs (a page that travels alone) instead of links
  size_t logLimitBytes = 64 << 10;  ///< per build log shown; a longer one is cut, with a link to the file
  size_t detailLines = 40;          ///< per failing case; the rest are in report.json
  size_t casesPerCheck = 8;         ///< failing cases shown per check
};

/// The page: a header (submission, rubric, device, date, mode, total); the points table (task and
/// criterion, points, status colour, reason, instructor overrides as a badge with the comment); per task
/// "What failed" (each check that did not pass: its failing cases' messages and details, the
/// difference heat map next to the expected and actual pictures, other evidence as links), every
/// check's status, the builds with their compiler logs in <details><pre>, counters, kernel timings,
/// the performance figures and the sweep when measured; then the reproducibility facts. Every string
/// from the report is escaped (a student's kernel line or build log may hold markup, and bytes that
/// are not UTF-8 become U+FFFD). Valid HTML5.
std::string htmlReport(const GradeReport& report, const HtmlOptions& options = {});

}  // namespace clgrade
