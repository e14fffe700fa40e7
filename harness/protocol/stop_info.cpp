#include "protocol/stop_info.h"

#include <nlohmann/json.hpp>

namespace clgrade {

using nlohmann::json;

std::string stopInfoJson(const StopInfo& info) {
  json kernels = json::array(), evidence = json::array();
  for (const StoppedKernel& k : info.kernels)
    kernels.push_back(
        {{"kernel", k.kernel}, {"case", k.caseId}, {"status", statusName(k.status)}, {"message", k.message}});
  for (const Evidence& e : info.evidence) evidence.push_back({{"label", e.label}, {"path", e.path}});
  return json{{"schema", "clgrade-stop-info/1"},
              {"kernels", kernels},
              {"performance_stopped", info.performanceStopped},
              {"performance_status", statusName(info.performanceStatus)},
              {"evidence", evidence}}
      .dump(-1, ' ', false, json::error_handler_t::replace);
}

bool readStopInfo(const std::string& text, StopInfo* info, std::string* err) {
  StopInfo read;
  try {
    const json j = json::parse(text);
    if (j.value("schema", "") != "clgrade-stop-info/1") {
      *err = "not a clgrade-stop-info/1 record";
      return false;
    }
    for (const json& k : j.at("kernels")) {
      StoppedKernel s;
      s.kernel = k.at("kernel").get<std::string>();
      s.caseId = k.at("case").get<std::string>();
      s.message = k.at("message").get<std::string>();
      if (!statusFromName(k.at("status").get<std::string>(), &s.status)) {
        *err = "unknown status of stopped kernel " + s.kernel;
        return false;
      }
      read.kernels.push_back(s);
    }
    read.performanceStopped = j.at("performance_stopped").get<std::string>();
    if (!statusFromName(j.at("performance_status").get<std::string>(), &read.performanceStatus)) {
      *err = "unknown performance_status";
      return false;
    }
    for (const json& e : j.at("evidence"))
      read.evidence.push_back({e.at("label").get<std::string>(), e.at("path").get<std::string>()});
  } catch (const json::exception& e) {
    *err = e.what();
    return false;
  }
  *info = std::move(read);
  return true;
}

}  // namespace clgrade
