// PrairieLearn's external grading results.json
// (https://prairielearn.readthedocs.io/en/latest/externalGrading/): the score as a fraction, one
// test per criterion, with the difference images as data URIs.
#pragma once

#include <cstddef>
#include <string>

#include "model/report.h"
#include "report/text.h"

namespace clgrade {

struct PrairieLearnOptions {
  std::string reportDir;  ///< the report folder: the evidence paths of the report are relative to it
  bool images = true;     ///< the difference heat map, expected and actual PNGs of failing cases
  /// All images together (file bytes, before base64): PrairieLearn stores results in its database, so
  /// the file is kept small; images past the budget are named in the test's output instead.
  size_t imageBudgetBytes = size_t(2) << 20;
  DetailOptions details;  ///< hidden cases' details and images are left out by default
};

/// results.json: "gradable" (true: clgrade ran; a problem of the student's code is a score, not
/// ungradable), "score" (total / max in 0..1), "message", "output" (a points summary), "tests" (one per
/// criterion: name, description, points, max_points, message, output, images[] of {label, url}).
std::string prairieLearnResults(const GradeReport& report, const PrairieLearnOptions& options = {});

}  // namespace clgrade
