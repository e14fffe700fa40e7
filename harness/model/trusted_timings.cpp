#include "model/trusted_timings.h"

#include <nlohmann/json.hpp>

#include "model/figures_json.h"

namespace clgrade {

std::string trustedTimingsJson(const TrustedTimings& t) {
  nlohmann::ordered_json tasks = nlohmann::ordered_json::object();
  for (const auto& [id, p] : t.byTask) tasks[id] = performanceJson(p);
  // Notes hold student-free text, but a byte that is not UTF-8 must not make the writer throw.
  return nlohmann::ordered_json{
      {"taken_at", t.takenAt}, {"device", t.device}, {"policy", t.policy}, {"tasks", tasks}, {"left", t.left}}
      .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

bool readTrustedTimings(const std::string& text, TrustedTimings* t, std::string* err) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    TrustedTimings read;
    read.takenAt = j.at("taken_at").get<std::string>();
    read.device = j.at("device").get<std::string>();
    read.policy = j.at("policy").get<std::string>();
    if (j.contains("left")) read.left = j.at("left").get<std::map<std::string, std::string>>();
    for (const auto& [id, p] : j.at("tasks").items()) {
      read.byTask[id] = performanceFromJson(p);
      read.byTask[id].trustedTimedAt = read.takenAt;
    }
    *t = std::move(read);
    return true;
  } catch (const std::exception& e) {
    if (err) *err = std::string("the trusted timings do not read: ") + e.what();
    return false;
  }
}

}  // namespace clgrade
