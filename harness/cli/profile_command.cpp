// clgrade profile PATH...: where the time of grading went, from report.json files (a report, a
// report folder, or a batch's output folder with one folder per submission).
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "model/report_json.h"
#include "report/profile.h"
#include "util/markup.h"

namespace fs = std::filesystem;

namespace clgrade::cli {
namespace {

struct ProfileArgs {
  std::vector<std::string> paths;
};

/// The report.json files a path stands for, sorted.
std::vector<fs::path> reportFiles(const fs::path& path) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return {path};
  if (fs::is_regular_file(path / "report.json", ec)) return {path / "report.json"};
  std::vector<fs::path> found;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec) && fs::is_regular_file(it->path() / "report.json", ec))
      found.push_back(it->path() / "report.json");
  std::sort(found.begin(), found.end());
  return found;
}

int profile(const ProfileArgs& args) {
  std::vector<GradeReport> reports;
  for (const std::string& p : args.paths) {
    const std::vector<fs::path> files = reportFiles(p);
    if (files.empty()) std::cerr << "clgrade: no report.json at or below " << terminalText(p) << "\n";
    for (const fs::path& f : files) {
      GradeReport r;
      std::string err;
      if (readReportFile(f.string(), &r, &err))
        reports.push_back(std::move(r));
      else
        std::cerr << "clgrade: skipped: " << terminalText(err) << "\n";
    }
  }
  if (reports.empty()) return kUsage;
  // A report.json is only a file: what it names reaches the terminal shown, never obeyed.
  std::cout << terminalText(renderProfile(profileOf(reports)));
  return kOk;
}

}  // namespace

void addProfileCommand(CLI::App& app, Commands* commands) {
  auto args = std::make_shared<ProfileArgs>();
  CLI::App* sub = app.add_subcommand("profile", "where the time of grading went: phase times from report.json files");
  sub->add_option("paths", args->paths, "report.json files, report folders or a batch's output folder")->required();
  commands->push_back({sub, [args] { return profile(*args); }});
}

}  // namespace clgrade::cli
