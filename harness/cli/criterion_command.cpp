// Two small commands for a course's own CI (cmake/clgrade.cmake): the criteria of a rubric, one per
// line, and the status of one criterion in a report.json as an exit code CTest understands.
//   clgrade rubric-criteria RUBRIC             "conv3x3 tile_load" per line
//   clgrade criterion-status REPORT TASK.ID    0 passed, 1 failed or error, 77 not_measured (skipped)
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "util/files.h"

namespace clgrade::cli {
namespace {

/// CTest's SKIP_RETURN_CODE for a criterion clgrade could not measure.
constexpr int kSkipped = 77;

struct CriteriaArgs {
  std::string rubric;
};

struct StatusArgs {
  std::string report;
  std::string criterion;
};

int rubricCriteria(const CriteriaArgs& args) {
  Rubric rubric;
  if (!loadRubricOrComplain(args.rubric, &rubric)) return kUsage;
  for (const TaskRubric& t : rubric.tasks)
    for (const Criterion& c : t.criteria) std::cout << t.id << " " << c.id << "\n";
  return kOk;
}

int criterionStatus(const StatusArgs& args) {
  const size_t dot = args.criterion.find('.');
  if (dot == std::string::npos) {
    std::cerr << "clgrade: name the criterion as task.criterion, e.g. conv3x3.tile_load\n";
    return kUsage;
  }
  const std::string task = args.criterion.substr(0, dot), id = args.criterion.substr(dot + 1);
  std::string text, err;
  if (!readFile(args.report, &text, &err, size_t(512) << 20)) {
    std::cerr << "clgrade: " << err << "\n";
    return kUsage;
  }
  nlohmann::json report;
  try {
    report = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    std::cerr << "clgrade: " << args.report << " is not a report: " << e.what() << "\n";
    return kUsage;
  }
  for (const auto& t : report.value("tasks", nlohmann::json::array())) {
    if (t.value("id", "") != task) continue;
    for (const auto& c : t.value("criteria", nlohmann::json::array())) {
      if (c.value("id", "") != id) continue;
      const std::string status = c.value("status", "");
      std::cout << args.criterion << ": " << status << " (" << c.value("points", 0.0) << "/" << c.value("max", 0.0)
                << ")  " << c.value("message", "") << "\n";
      if (!t.value("problem", "").empty()) std::cout << task << ": " << t.value("problem", "") << "\n";
      if (status == "passed") return kOk;
      if (status == "not_measured") return kSkipped;
      // What failed, case by case, so the CI log explains itself.
      for (const auto& check : t.value("checks", nlohmann::json::array()))
        for (const auto& o : check.value("cases", nlohmann::json::array()))
          if (o.value("status", "") == "failed" || o.value("status", "") == "error")
            std::cout << "  " << check.value("id", "") << ", case " << o.value("case", "") << ": "
                      << o.value("message", "") << "\n";
      return kFailures;
    }
  }
  std::cerr << "clgrade: " << args.report << " has no criterion " << args.criterion << "\n";
  return kUsage;
}

}  // namespace

void addCriterionCommands(CLI::App& app, Commands* commands) {
  auto criteria = std::make_shared<CriteriaArgs>();
  CLI::App* list = app.add_subcommand("rubric-criteria", "print a rubric's criteria, one 'task criterion' per line");
  list->add_option("rubric", criteria->rubric, "rubric XML file")->required();
  commands->push_back({list, [criteria] { return rubricCriteria(*criteria); }});

  auto status = std::make_shared<StatusArgs>();
  CLI::App* st = app.add_subcommand(
      "criterion-status", "exit 0 if a criterion of a report.json passed, 1 if it failed, 77 if not measured");
  st->add_option("report", status->report, "report.json")->required();
  st->add_option("criterion", status->criterion, "task.criterion, e.g. conv3x3.tile_load")->required();
  commands->push_back({st, [status] { return criterionStatus(*status); }});
}

}  // namespace clgrade::cli
