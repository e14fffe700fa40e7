#include "roster/roster_json.h"

namespace clgrade {

using nlohmann::ordered_json;

ordered_json rosterJson(const Roster& roster) {
  ordered_json students = ordered_json::array();
  for (const RosterStudent& s : roster.students) {
    ordered_json j{{"id", s.id}};
    for (const auto& [key, value] : {std::pair<const char*, const std::string&>{"name", s.name},
                                     {"email", s.email},
                                     {"login", s.login},
                                     {"submission", s.submission}})
      if (!value.empty()) j[key] = value;
    students.push_back(j);
  }
  return {{"source", roster.source}, {"students", students}};
}

Roster rosterFromJson(const ordered_json& j) {
  Roster roster;
  if (!j.is_object()) return roster;
  if (const auto source = j.find("source"); source != j.end() && source->is_string()) roster.source = *source;
  const auto students = j.find("students");
  if (students == j.end() || !students->is_array()) return roster;
  auto text = [](const ordered_json& s, const char* key) {
    const auto it = s.find(key);
    return it != s.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  for (const ordered_json& s : *students) {
    if (!s.is_object()) continue;
    RosterStudent student{text(s, "id"), text(s, "name"), text(s, "email"), text(s, "login"), text(s, "submission")};
    if (!student.id.empty()) roster.students.push_back(student);
  }
  return roster;
}

}  // namespace clgrade
