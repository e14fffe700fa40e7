// clgrade export FORMAT CLASS-DIR: a class's grades as the course's LMS imports them (lms/lms_export.h),
// from the class folder of a batch or merge (class.json: overrides applied), matched to the roster.
// Exit 0: written (every student left out or without a grade is said on stderr); 2: bad usage, no
// class.json, a roster that cannot be used or is needed and missing; 4: the file could not be written.
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/command.h"
#include "lms/lms_export.h"
#include "util/files.h"
#include "util/markup.h"
#include "util/utc_time.h"

namespace clgrade::cli {
namespace {

struct ExportArgs {
  std::string format;
  std::string classDir;
  std::string roster;
  std::string assignment;
  std::optional<double> passAt;
  std::string out;
};

int exportCommand(const ExportArgs& args) {
  const LmsExport* format = nullptr;
  for (const LmsExport& f : lmsExports())
    if (f.name == args.format) format = &f;
  if (!format) {
    std::string names;
    for (const LmsExport& f : lmsExports()) names += (names.empty() ? "" : ", ") + f.name;
    std::cerr << "clgrade export: unknown format '" << terminalText(args.format) << "' (one of: " << names << ")\n";
    return kUsage;
  }
  Roster roster;
  if (!args.roster.empty() && !loadRosterOrComplain(args.roster, &roster)) return kUsage;
  ClassGrades grades;
  std::string err;
  if (!readClassGrades(args.classDir, args.roster.empty() ? nullptr : &roster, &grades, &err)) {
    std::cerr << "clgrade export: " << terminalText(err) << "\n";
    return kUsage;
  }
  if (format->needsRoster && !grades.roster) {
    std::cerr << "clgrade export: " << format->name << " matches students on their student id: give --roster "
              << "roster.csv (or grade the class with batch --roster)\n";
    return kUsage;
  }
  ExportSettings settings;
  settings.assignment = args.assignment.empty() ? (grades.rubricTitle.empty() ? "clgrade" : grades.rubricTitle)
                                                : args.assignment;
  settings.passAt = args.passAt;
  // Moodle's worksheet wants "YYYY-MM-DD HH:MM"; nowUtc() is ISO 8601 ("2026-11-27T10:00:00Z").
  const std::string now = nowUtc();
  settings.now = now.substr(0, 10) + " " + now.substr(11, 5);
  std::vector<std::string> warnings;
  const std::string text = format->render(grades, settings, &warnings);
  const std::string out =
      args.out.empty() ? (std::filesystem::path(args.classDir) / format->file).string() : args.out;
  if (!writeFileAtomically(out, text, &err)) {
    std::cerr << "clgrade export: not written: " << terminalText(err) << "\n";
    return kOutput;
  }
  for (const std::string& n : grades.notes) std::cerr << "clgrade export: " << terminalText(n) << "\n";
  for (const std::string& w : warnings) std::cerr << "clgrade export: " << terminalText(w) << "\n";
  if (format->name == "ilias" && !args.passAt)
    std::cerr << "clgrade export: every row's status is 'notgraded' (the plugin sets it): give --pass-at POINTS "
                 "for passed/failed\n";
  if (args.assignment.empty() && format->name != "ilias" && format->name != "moodle-worksheet")
    std::cerr << "clgrade export: the grade column is named '" << terminalText(settings.assignment)
              << "': give --assignment with the LMS's name for it (Canvas: \"Title (id)\" from a gradebook "
                 "export), or the import makes a new one\n";
  size_t rows = 0;
  for (size_t at = text.find("\r\n"); at != std::string::npos; at = text.find("\r\n", at + 2)) ++rows;
  const size_t headerRows = format->name == "canvas" ? 2 : 1;  // Canvas's Points Possible row too
  std::cout << "wrote " << terminalText(out) << " (" << format->name << ", " << rows - headerRows << " rows"
            << (warnings.empty() ? "" : ", " + std::to_string(warnings.size()) + " left out or without a grade: above")
            << ")\n";
  return kOk;
}

}  // namespace

void addExportCommand(CLI::App& app, Commands* commands) {
  auto args = std::make_shared<ExportArgs>();
  std::string formats;
  for (const LmsExport& f : lmsExports()) formats += "\n  " + f.name + ": " + f.description;
  CLI::App* sub = app.add_subcommand("export", "a class's grades as an LMS imports them:" + formats);
  sub->add_option("format", args->format, "canvas, moodle, moodle-worksheet or ilias")->required();
  sub->add_option("class-dir", args->classDir, "the --out folder of clgrade batch or merge (its class.json)")
      ->required();
  sub->add_option("--roster", args->roster,
                  "CSV of the course's students (README, 'Roster'); default: the one the batch was given");
  sub->add_option("--assignment", args->assignment,
                  "the LMS's name of the grade column (Canvas: \"Title (id)\"; default: the rubric's title)");
  sub->add_option("--pass-at", args->passAt, "ilias: status passed at this total or above, else failed");
  sub->add_option("--out", args->out, "the file to write (default <class-dir>/<format's file>)");
  commands->push_back({sub, [args] { return exportCommand(*args); }});
}

}  // namespace clgrade::cli
