// Instructor overrides: manual adjustments of a criterion's points, merged into every output and
// shown as such (report.json fields, an HTML badge, a JUnit property, ...), so a regrade keeps them.
#pragma once

#include <string>
#include <vector>

#include "model/report.h"

namespace clgrade {

struct Override {
  std::string submission, task, criterion;
  double points = 0;  ///< the criterion's points (clamped to 0..max when applied)
  std::string comment;
  std::string author;
  std::string where;  ///< "overrides.csv:4" (set by loadOverrides), for messages
};

/// Reads overrides from CSV (RFC 4180): a header naming the columns submission, task, criterion,
/// points, comment (comment and an extra author column are optional; any order), then one override
/// per record. Every problem is reported with its line ("overrides.csv:7: points 'x' is not a
/// number", an empty id, a wrong field count, a second override of the same criterion, an unknown
/// column); the valid records are still loaded. True when there was no problem.
bool loadOverrides(const std::string& path, std::vector<Override>* overrides, std::vector<std::string>* errors);

/// loadOverrides on text; `source` names it in messages.
bool parseOverrides(const std::string& text, const std::string& source, std::vector<Override>* overrides,
                    std::vector<std::string>* errors);

/// Applies the overrides of `submission` to its report: the criterion's points become the override's
/// (clamped to 0..max), it is marked overridden with the measured points (kept from the first override,
/// so applying again to a report read back from report.json changes nothing) and the comment; task
/// points and the total are summed again. An override naming a task or criterion the report does not
/// have, or points outside 0..max, is reported in *problems (when given), never ignored silently.
void applyOverrides(const std::vector<Override>& overrides, const std::string& submission, GradeReport* report,
                    std::vector<std::string>* problems = nullptr);

/// Undoes every override in the report (measured points back, marks cleared, sums again): for a report
/// read back from report.json whose overrides are to be applied afresh from a changed file.
void clearOverrides(GradeReport* report);

/// The overrides that name a submission not in `submissions` (a typo, a student not in this batch),
/// one message each.
std::vector<std::string> unknownOverrideSubmissions(const std::vector<Override>& overrides,
                                                    const std::vector<std::string>& submissions);

}  // namespace clgrade
