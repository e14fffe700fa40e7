// JUnit XML: one <testsuite> per task, one <testcase> per criterion, for CI systems.
#pragma once

#include <string>

#include "model/report.h"
#include "report/text.h"

namespace clgrade {

struct JunitOptions {
  std::string name = "clgrade";  ///< of <testsuites>
  DetailOptions details;         ///< what a failure's text lists (hidden cases' details left out by default)
};

/// <testsuites name tests failures errors skipped time> holding one <testsuite> per task (its counts,
/// timestamp, <properties> file, points, max, problem) with one <testcase classname="<task id>"
/// name="<criterion id>" time="0"> per criterion: <properties> points, max, status (and overridden,
/// original_points, override_comment, override_author when an instructor overrode it); failed ->
/// <failure message type="failed">, error -> <error message type="error">, not_measured -> <skipped
/// message>, each with the failing cases as text. Every string is escaped; bytes that are not UTF-8
/// and characters XML 1.0 does not allow become U+FFFD.
std::string junitXml(const GradeReport& report, const JunitOptions& options = {});

}  // namespace clgrade
