// report.html: the report of one submission as a self-contained page for people (inline style, no
// script, no external resource).
#pragma once

#include <cstddef>
#include <string>

#include "model/report.h"
#include "report/audience.h"

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
  size_t casesPerCheck = 8;         ///< checks shown in full per finding
  /// Student: the header says hidden cases are summarized (the report given is forStudents' already).
  Audience audience = Audience::Instructor;
};

/// The page, failures first: a header (submission and total, then rubric, device, date and mode on
/// one line); the points table (a task whose criteria all passed is one row; the others list each
/// criterion with points, status colour, reason, overrides); "What to fix" (each failing criterion
/// with a link to why; the first has id "first-failure"); per task that lost points "What failed"
/// (each finding once with where it recurs, one case of each check in full: message, details, the
/// crop of the first wrong pixels, the difference heat map, expected and actual, other evidence as
/// links), the source lines the findings point at, the failed builds' compiler output once; the
/// performance figures and the sweep; then every task's checks, builds, counters and timings folded
/// in <details>; then the reproducibility facts. Every string
/// from the report is escaped (a student's kernel line or build log may hold markup, and bytes that
/// are not UTF-8 become U+FFFD). Valid HTML5.
std::string htmlReport(const GradeReport& report, const HtmlOptions& options = {});

}  // namespace clgrade
