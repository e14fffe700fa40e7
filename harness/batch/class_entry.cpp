#include "batch/class_entry.h"

#include "report/text.h"

namespace clgrade {

using nlohmann::ordered_json;

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

/// The worst status among a task's criteria (what a gradebook shows per task).
std::string taskStatus(const ordered_json& task) {
  Status worst = Status::Passed;
  auto rank = [](Status s) { return s == Status::Error ? 3 : s == Status::Failed ? 2 : s == Status::NotMeasured ? 1 : 0; };
  for (const ordered_json& c : arr(task, "criteria")) {
    Status s = Status::Error;  // an unknown name counts as an error
    statusFromName(str(c, "status"), &s);
    if (rank(s) > rank(worst)) worst = s;
  }
  return statusName(worst);
}

}  // namespace

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
