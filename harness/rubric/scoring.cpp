#include "rubric/scoring.h"

namespace clgrade {

CriterionResult scoreCriterion(const Criterion& criterion, const std::map<std::string, CheckResult>& checks) {
  CriterionResult r;
  r.id = criterion.id;
  r.title = criterion.title;
  r.max = criterion.points;
  r.checks = criterion.checks;
  const CheckResult* worst[4] = {nullptr, nullptr, nullptr, nullptr};  // by Status
  for (const std::string& id : criterion.checks) {
    auto it = checks.find(id);
    if (it == checks.end()) {
      r.status = Status::Error;
      r.message = "check '" + id + "' produced no result";
      return r;
    }
    const CheckResult& c = it->second;
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
    return r;
  }
  r.status = Status::Passed;
  r.points = criterion.points;
  r.message = criterion.checks.size() == 1 ? checks.at(criterion.checks[0]).message : "all checks passed";
  return r;
}

}  // namespace clgrade
