#include "model/status.h"

namespace clgrade {

const char* statusName(Status status) {
  switch (status) {
    case Status::Passed:
      return "passed";
    case Status::Failed:
      return "failed";
    case Status::NotMeasured:
      return "not_measured";
    case Status::Error:
      return "error";
  }
  return "error";
}

bool statusFromName(const std::string& name, Status* status) {
  for (Status s : {Status::Passed, Status::Failed, Status::NotMeasured, Status::Error}) {
    if (name == statusName(s)) {
      *status = s;
      return true;
    }
  }
  return false;
}

namespace {
int severity(Status s) {
  switch (s) {
    case Status::Passed:
      return 0;
    case Status::NotMeasured:
      return 1;
    case Status::Failed:
      return 2;
    case Status::Error:
      return 3;
  }
  return 3;
}
}  // namespace

void summarize(CheckResult* check) {
  if (check->cases.empty()) {
    if (check->message.empty()) check->message = "no case ran";
    return;
  }
  const CaseOutcome* worst = &check->cases.front();
  int failing = 0;
  for (const CaseOutcome& c : check->cases) {
    if (severity(c.status) > severity(worst->status)) worst = &c;
    if (c.status == Status::Failed || c.status == Status::Error) ++failing;
  }
  check->status = worst->status;
  if (worst->status == Status::Passed) {
    check->message = "all " + std::to_string(check->cases.size()) + " case(s) passed";
  } else {
    check->message = "case " + worst->caseId + ": " + worst->message;
    if (failing > 1) check->message += " (and " + std::to_string(failing - 1) + " more failing case(s))";
  }
}

}  // namespace clgrade
