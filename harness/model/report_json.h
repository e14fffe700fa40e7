// report.json, the one codec of the result model: the keeper writes it, and batch grading reads it
// back to build the class outputs (gradebook, summary, every per-submission format) from those
// files. Schema in reports/README.md.
#pragma once

#include <string>

#include "model/report.h"

namespace clgrade {

/// The report as JSON text (pretty-printed, stable key order).
std::string toJson(const GradeReport& report);

/// Parses what toJson writes (schema "clgrade-report/1"); toJson of the result equals the text it
/// was read from. Keys toJson always writes may be missing (they keep the model's defaults), but a
/// key of the wrong type, an unknown status or another schema fails with the key's place in *err
/// ("tasks[1].criteria[0].status: unknown status 'ok'"). Not in report.json, so left empty: the
/// compiler log text of builds (BuildRecord::log; the file is at logPath) and the rubric settings
/// report.json does not list.
bool readReportJson(const std::string& text, GradeReport* report, std::string* err);

/// readReportJson on a file's contents; the message names the file.
bool readReportFile(const std::string& path, GradeReport* report, std::string* err);

}  // namespace clgrade
