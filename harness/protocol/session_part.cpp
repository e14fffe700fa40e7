#include "protocol/session_part.h"

#include <nlohmann/json.hpp>

namespace clgrade {

std::string sessionPartText(const std::string& folder, const std::vector<std::string>& argv) {
  return nlohmann::json{{"folder", folder}, {"argv", argv}}.dump() + "\n";
}

bool readSessionPartText(const std::string& text, std::string* folder, std::vector<std::string>* argv,
                         std::string* err) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    *folder = j.at("folder").get<std::string>();
    *argv = j.at("argv").get<std::vector<std::string>>();
  } catch (const std::exception& e) {
    *err = std::string("the counters session's part does not read: ") + e.what();
    return false;
  }
  if (argv->size() < 2 || (*argv)[1] != "hwsession") {
    *err = "the counters session's part is not a hwsession command line";
    return false;
  }
  return true;
}

}  // namespace clgrade
