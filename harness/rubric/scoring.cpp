#include "rubric/scoring.h"

#include <algorithm>
#include <cstdio>

namespace clgrade {

namespace {

/// Points of the highest level `speed` reaches (the checks have passed).
void scoreSpeed(const Criterion& criterion, const SpeedMeasure* speed, CriterionResult* r) {
  if (speed && speed->wrongOutput) {
    r->status = Status::Failed;
    r->message = "speed not graded: " + speed->reason;
    return;
  }
  if (!speed || !speed->available) {
    r->status = Status::NotMeasured;
    r->message =
        "speed not graded: " + (speed ? speed->reason : std::string("the task's performance was not measured"));
    return;
  }
  double points = 0;
  const SpeedLevel* next = nullptr;
  for (const SpeedLevel& l : criterion.levels) {
    if (speed->ratio >= l.ratio)
      points = std::max(points, l.points);
    else if (!next)
      next = &l;
  }
  char text[200];
  std::snprintf(text, sizeof text, "%.2fx the reference's speed: %g of %g points", speed->ratio, points,
                criterion.points);
  r->message = text;
  if (next) {
    std::snprintf(text, sizeof text, " (%.2fx earns %g)", next->ratio, next->points);
    r->message += text;
  }
  r->message += "; " + speed->detail;
  r->points = points;
  r->status = points > 0 ? Status::Passed : Status::Failed;
}

/// `check` over its visible (or hidden) cases only, summarized again; the message says so.
CheckResult onCaseSet(const CheckResult& check, const std::string& set) {
  CheckResult c = check;
  c.cases.clear();
  const bool visible = set == "visible";
  for (const CaseOutcome& o : check.cases)
    if (o.visible == visible) c.cases.push_back(o);
  if (c.cases.empty()) {
    c.status = Status::NotMeasured;
    c.message = "no " + set + " case ran";
    return c;
  }
  c.message.clear();
  summarize(&c);
  c.message += " (" + set + " cases; the others count for the correctness criteria)";
  return c;
}

}  // namespace

CriterionResult scoreCriterion(const Criterion& criterion, const std::map<std::string, CheckResult>& checks,
                               const SpeedMeasure* speed) {
  CriterionResult r;
  r.id = criterion.id;
  r.title = criterion.title;
  r.max = criterion.deduction ? 0 : criterion.points;
  r.min = criterion.deduction ? -criterion.points : 0;
  r.checks = criterion.checks;
  const CheckResult* worst[4] = {nullptr, nullptr, nullptr, nullptr};  // by Status
  std::vector<CheckResult> restricted;  // checks counted over one case set (stable: reserved)
  restricted.reserve(criterion.checks.size());
  for (const std::string& id : criterion.checks) {
    auto it = checks.find(id);
    if (it == checks.end()) {
      r.status = Status::Error;
      r.message = "check '" + id + "' produced no result";
      return r;
    }
    const auto set = criterion.caseSets.find(id);
    if (set != criterion.caseSets.end()) restricted.push_back(onCaseSet(it->second, set->second));
    const CheckResult& c = set != criterion.caseSets.end() ? restricted.back() : it->second;
    const int s = static_cast<int>(c.status);
    if (!worst[s]) worst[s] = &c;
    for (const CaseOutcome& o : c.cases)
      if (o.status == Status::Failed || o.status == Status::Error)
        r.evidence.insert(r.evidence.end(), o.evidence.begin(), o.evidence.end());
  }
  for (Status s : {Status::Error, Status::Failed, Status::NotMeasured}) {
    const CheckResult* c = worst[static_cast<int>(s)];
    if (!c) continue;
    r.status = s;
    r.message = c->id + ": " + c->message;
    // A deduction takes its points only for a failure it saw, never for an error or a gap.
    if (criterion.deduction && s == Status::Failed) {
      r.points = r.min;
      char amount[64];
      std::snprintf(amount, sizeof amount, "%g", criterion.points);
      r.message = std::string("deduction of ") + amount + ": " + r.message;
    }
    return r;
  }
  if (!criterion.kernels.empty()) {
    scoreSpeed(criterion, speed, &r);
    return r;
  }
  r.status = Status::Passed;
  r.points = criterion.deduction ? 0 : criterion.points;
  r.message =
      criterion.checks.size() == 1 && restricted.empty() ? checks.at(criterion.checks[0]).message : "all checks passed";
  return r;
}

}  // namespace clgrade
