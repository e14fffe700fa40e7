// JUnit XML: one <testsuite> per task, one <testcase> per criterion, for CI systems.
#pragma once

#include <string>

#include "model/report.h"
#include "report/text.h"

namespace clgrade {

struct JunitOptions {
  std::string name = "clgrade";  ///< of <testsuites>
  DetailOptions details;         ///< what a failure's text lists (hidden cases' details left out by default)
  /// The report folder: a failing criterion's difference image is attached by its absolute path
  /// (GitLab's [[ATTACHMENT|...]] line in system-out). Empty: no attachment.
  std::string reportDir;
};

/// JUnit XML valid under Jenkins/xunit's junit-10.xsd (the strictest common schema; its rules are
/// checked in tests/unit/junit_schema_test.cpp and tests/data/junit-10.xsd):
/// <testsuites name tests failures errors time> holding one <testsuite name tests failures errors
/// skipped time timestamp file> per task (time: its grading process and replay) with <properties>:
/// the task's title, file, present, sha256, points, max, problem, process and, per criterion,
/// <criterion>.title, .points, .max, .status (and .overridden, .original_points, .override_comment,
/// .override_author when an instructor overrode it). One <testcase classname="<task id>"
/// name="<criterion id>"> per criterion: failed -> <failure message type="failed">, error -> <error
/// message type="error">, each with the kernel file and the failing cases as text; not_measured ->
/// <skipped message> with the reason as text; <system-out> with the file, points and status, the
/// override, and for a failure the difference image as [[ATTACHMENT|/absolute/path.png]]. Every string is
/// escaped; bytes that are not UTF-8 and characters XML 1.0 does not allow become U+FFFD.
std::string junitXml(const GradeReport& report, const JunitOptions& options = {});

}  // namespace clgrade
