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
  /// The whole results.json at most: PrairieLearn shows a bigger one as an error, not a grade. The
  /// text comes first (the longest outputs cut when even the text is over); then each picture once
  /// (a criterion that shares another's is told where it is), every difference map before any
  /// expected or actual picture, in rubric order; a picture with no room left is named in its test's
  /// output instead.
  size_t maxFileBytes = 1000000;
  DetailOptions details;  ///< hidden cases' details and images are left out by default
};

/// results.json: "gradable" (true: clgrade ran; a problem of the student's code is a score, not
/// ungradable), "score" (total / max in 0..1), "message", "output" (a points summary), "tests" (one per
/// criterion: name, description, points, max_points, message, output, images[] of {label, url}), never
/// over options.maxFileBytes.
std::string prairieLearnResults(const GradeReport& report, const PrairieLearnOptions& options = {});

}  // namespace clgrade
