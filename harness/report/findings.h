// Say it once (issue 14, item 3): the failing cases of a task grouped by what went wrong, so the
// same wrong column found in six cases and three checks is one entry that lists where it recurs.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/report.h"

namespace clgrade {

/// Where a finding was seen: a check and one of its failing cases.
struct FindingPlace {
  const CheckResult* check = nullptr;
  const CaseOutcome* outcome = nullptr;
};

/// One finding of a task and everywhere it recurs, in the order the checks and cases ran.
struct Finding {
  std::string text;  ///< the finding (CaseOutcome::finding, else the case's message)
  Status status = Status::Failed;
  std::vector<FindingPlace> places;
  /// The places shown in full: per check the first one with pictures (else its first one), so a
  /// finding shared by two checks still shows each check's evidence once.
  std::vector<FindingPlace> shown() const;
};

/// `text` with every run of digits as "N" and every run of white space as one space: "719 of 920320
/// values wrong" and "12 of 100 values wrong" are one kind of failure, and a number (a hidden case's
/// size) says nothing. Digits within a name stay ("Convolution3x3.cl", "build_2.log"); a word that
/// begins with a digit is a number's throughout ("1280x720" is "NxN"). Every grouping of messages
/// and the student's hidden failures use it.
std::string numbersAsN(const std::string& text);

/// The finding of a failing case: its finding, else its message.
std::string findingText(const CaseOutcome& outcome);

/// The text findings are grouped by: the finding itself, else the message with every run of digits
/// as "N", so "timed out after 5 s" and "timed out after 20 s" count as one.
std::string findingKey(const CaseOutcome& outcome);

/// The failed and erroneous cases of `task` grouped by findingKey, in order of first appearance.
std::vector<Finding> taskFindings(const TaskReport& task);

/// "horizontal: course_box4, course_gauss3 (hidden); pipeline: course_box4": the places of a finding,
/// check by check, at most `limit` cases named ("and 4 more").
std::string recurrence(const Finding& finding, size_t limit = 12);

}  // namespace clgrade
