// Points from check results: a criterion earns its points only when every check it names passed.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "checks/result.h"
#include "perf/figures.h"
#include "rubric/rubric.h"

namespace clgrade {

struct CriterionResult {
  std::string id;
  std::string title;
  double points = 0;
  double max = 0;
  Status status = Status::NotMeasured;
  std::string message;
  std::vector<std::string> checks;
  std::vector<Evidence> evidence;  ///< of the failing checks' cases
  /// An instructor's override (report/overrides.h): `points` is then the instructor's, `status` and
  /// `message` stay what was measured.
  bool overridden = false;
  double originalPoints = 0;  ///< the measured points, before the override
  std::string overrideComment;
  std::string overrideAuthor;
};

/// error if a check errored, else failed if one failed, else not_measured if one could not be
/// measured (0 points, with its reason: never a silent pass), else passed with full points.
/// A performance criterion whose checks passed then earns the points of the highest level `speed`
/// reaches; without a trusted `speed` it is not_measured with the reason.
CriterionResult scoreCriterion(const Criterion& criterion, const std::map<std::string, CheckResult>& checks,
                               const SpeedMeasure* speed = nullptr);

}  // namespace clgrade
