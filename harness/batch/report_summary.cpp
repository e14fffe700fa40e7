#include "batch/report_summary.h"

namespace clgrade {

using nlohmann::ordered_json;

Status parseStatusName(const std::string& name) {
  for (Status s : {Status::Passed, Status::Failed, Status::NotMeasured, Status::Error})
    if (name == statusName(s)) return s;
  return Status::Error;
}

namespace {

std::string str(const ordered_json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

double num(const ordered_json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}

const ordered_json& arr(const ordered_json& j, const char* key) {
  static const ordered_json empty = ordered_json::array();
  return j.is_object() && j.contains(key) && j[key].is_array() ? j[key] : empty;
}

std::vector<Evidence> evidenceOf(const ordered_json& j) {
  std::vector<Evidence> list;
  for (const ordered_json& e : arr(j, "evidence")) list.push_back({str(e, "label"), str(e, "path")});
  return list;
}

/// The worst status among a task's criteria (what a gradebook shows per task).
std::string taskStatus(const ordered_json& task) {
  Status worst = Status::Passed;
  auto rank = [](Status s) { return s == Status::Error ? 3 : s == Status::Failed ? 2 : s == Status::NotMeasured ? 1 : 0; };
  for (const ordered_json& c : arr(task, "criteria")) {
    const Status s = parseStatusName(str(c, "status"));
    if (rank(s) > rank(worst)) worst = s;
  }
  return statusName(worst);
}

}  // namespace

GradeReport reportSummary(const ordered_json& j) {
  GradeReport r;
  r.version = j.contains("reproducibility") ? str(j["reproducibility"], "clgrade_version") : "";
  r.mode = str(j, "mode");
  if (j.contains("rubric")) {
    r.rubricId = str(j["rubric"], "id");
    r.rubricTitle = str(j["rubric"], "title");
    r.rubricPath = str(j["rubric"], "path");
    r.rubricSha256 = str(j["rubric"], "sha256");
  }
  if (j.contains("device")) {
    r.device.platform = str(j["device"], "platform");
    r.device.name = str(j["device"], "name");
    r.device.driver = str(j["device"], "driver");
    r.device.type = str(j["device"], "type");
  }
  r.total = num(j, "total");
  r.max = num(j, "max");
  r.seconds = num(j, "seconds");
  r.startedAt = str(j, "started_at");
  for (const ordered_json& t : arr(j, "tasks")) {
    TaskReport task;
    task.id = str(t, "id");
    task.title = str(t, "title");
    task.file = str(t, "file");
    task.present = t.value("present", false);
    task.sha256 = str(t, "sha256");
    task.problem = str(t, "problem");
    task.points = num(t, "points");
    task.max = num(t, "max");
    for (const ordered_json& c : arr(t, "criteria")) {
      CriterionResult cr;
      cr.id = str(c, "id");
      cr.title = str(c, "title");
      cr.points = num(c, "points");
      cr.max = num(c, "max");
      cr.status = parseStatusName(str(c, "status"));
      cr.message = str(c, "message");
      for (const ordered_json& id : arr(c, "checks"))
        if (id.is_string()) cr.checks.push_back(id.get<std::string>());
      cr.evidence = evidenceOf(c);
      task.criteria.push_back(cr);
    }
    for (const ordered_json& c : arr(t, "checks")) {
      CheckResult check;
      check.id = str(c, "id");
      check.title = str(c, "title");
      check.status = parseStatusName(str(c, "status"));
      check.message = str(c, "message");
      for (const ordered_json& o : arr(c, "cases")) {
        CaseOutcome outcome;
        outcome.caseId = str(o, "case");
        outcome.visible = o.value("visible", true);
        outcome.status = parseStatusName(str(o, "status"));
        outcome.message = str(o, "message");
        for (const ordered_json& d : arr(o, "details"))
          if (d.is_string()) outcome.details.push_back(d.get<std::string>());
        outcome.evidence = evidenceOf(o);
        check.cases.push_back(outcome);
      }
      task.checks.push_back(check);
    }
    r.tasks.push_back(task);
  }
  return r;
}

ordered_json classJsonEntry(const std::string& submission, const ordered_json& report) {
  ordered_json tasks = ordered_json::array();
  for (const ordered_json& t : arr(report, "tasks")) {
    ordered_json criteria = ordered_json::array();
    for (const ordered_json& c : arr(t, "criteria"))
      criteria.push_back({{"id", str(c, "id")}, {"points", num(c, "points")}, {"max", num(c, "max")},
                          {"status", str(c, "status")}});
    tasks.push_back({{"id", str(t, "id")},
                     {"points", num(t, "points")},
                     {"max", num(t, "max")},
                     {"status", taskStatus(t)},
                     {"problem", str(t, "problem")},
                     {"criteria", criteria}});
  }
  return {{"submission", submission}, {"total", num(report, "total")}, {"max", num(report, "max")}, {"tasks", tasks}};
}

}  // namespace clgrade
