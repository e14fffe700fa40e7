// Points from check results: a criterion earns its points only when every check it names passed.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "checks/result.h"
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
};

/// error if a check errored, else failed if one failed, else not_measured if one could not be
/// measured (0 points, with its reason: never a silent pass), else passed with full points.
CriterionResult scoreCriterion(const Criterion& criterion, const std::map<std::string, CheckResult>& checks);

}  // namespace clgrade
