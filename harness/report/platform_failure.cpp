#include "report/platform_failure.h"

#include <nlohmann/json.hpp>

#include "report/text.h"

namespace clgrade {

namespace {

std::string sentence(const std::string& reason, int exitCode) {
  return "clgrade could not grade this submission (exit " + std::to_string(exitCode) + "): " + cleanText(reason) +
         "\nThis is not a verdict on your work: your instructor has to fix the autograder.";
}

std::string failureJson(const nlohmann::ordered_json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string gradescopeFailure(const std::string& reason, int exitCode) {
  return failureJson({{"output", sentence(reason, exitCode)},
                      {"output_format", "text"},
                      {"visibility", "visible"},
                      {"stdout_visibility", "hidden"},
                      {"extra_data", {{"autograder_error", true}, {"clgrade_exit", exitCode}}},
                      {"tests", nlohmann::ordered_json::array()}});
}

std::string prairieLearnUngradable(const std::string& reason, int exitCode) {
  return failureJson({{"gradable", false}, {"message", sentence(reason, exitCode)}, {"output", cleanText(reason)}});
}

}  // namespace clgrade
