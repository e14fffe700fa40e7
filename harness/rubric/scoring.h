// Points from check results: a criterion earns its points only when every check it names passed.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/report.h"
#include "perf/figures.h"
#include "rubric/rubric.h"

namespace clgrade {

/// error if a check errored, else failed if one failed, else not_measured if one could not be
/// measured (0 points, with its reason: never a silent pass), else passed with full points.
/// A performance criterion whose checks passed then earns the points of the highest level `speed`
/// reaches; without a trusted `speed` it is not_measured with the reason.
CriterionResult scoreCriterion(const Criterion& criterion, const std::map<std::string, CheckResult>& checks,
                               const SpeedMeasure* speed = nullptr);

}  // namespace clgrade
