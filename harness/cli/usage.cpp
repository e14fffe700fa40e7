#include "cli/usage.h"
#include "util/archive.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>

#include "cli/command.h"
#include "tasks/task.h"
#include "util/markup.h"
#include "util/nearest_name.h"

namespace clgrade::cli {

namespace {

std::vector<std::string> visibleSubcommands(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    names.push_back(sub->get_name());
  return names;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

std::string number(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.15g", v);
  return text;
}

}  // namespace

std::string unknownSubcommand(const CLI::App& app, int argc, const char* const* argv) {
  if (argc < 2 || argv[1][0] == '-') return "";
  const std::string word = argv[1];
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->check_name(word)) return "";
  const std::vector<std::string> names = visibleSubcommands(app);
  const std::string near = nearestName(word, names);
  return "unknown subcommand '" + terminalText(word) + "'" + (near.empty() ? "" : ", did you mean '" + near + "'?") +
         " (subcommands: " + joined(names) + ")";
}

int answerHelpOrVersion(CLI::App& app, int argc, char** argv) {
  const std::string first = argc >= 2 ? argv[1] : "";
  if (argc == 1) {  // what there is to do, where a person looks
    std::cerr << app.help();
    return kUsage;
  }
  if (first == "version" || first == "-V") {
    std::cout << app.version() << "\n";
    return kOk;
  }
  if (first != "help") return -1;
  if (argc == 2) {
    std::cout << app.help();
    return kOk;
  }
  const std::string word = argv[2];
  for (CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    if (sub->check_name(word)) {
      std::cout << sub->help("clgrade");
      return kOk;
    }
  const char* const asked[] = {argv[0], argv[2]};
  std::cerr << "clgrade: " << unknownSubcommand(app, 2, asked) << "\n";
  return kUsage;
}

namespace {

/// CLI11's errors as clgrade says everything: "clgrade batch: ...", an unknown option with the nearest
/// one of its command, and where the help is.
std::string failureMessage(const CLI::App* app, const CLI::Error& e) {
  const CLI::App* command = app;
  for (const CLI::App* sub : app->get_subcommands([](const CLI::App* s) { return s->parsed(); })) command = sub;
  const std::string name = command == app ? "clgrade" : "clgrade " + command->get_name();
  std::string text = name + ": " + terminalText(e.what());
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    std::vector<std::string> options;
    for (const CLI::Option* o : command->get_options())
      for (const std::string& l : o->get_lnames()) options.push_back("--" + l);
    const std::string said = e.what();
    const size_t at = said.find("--");
    const std::string word = at == std::string::npos ? "" : said.substr(at, said.find_first_of(" =", at) - at);
    if (const std::string near = word.empty() ? "" : nearestName(word, options); !near.empty())
      text += " (did you mean " + near + "?)";
  }
  return text + "\nRun '" + name + " --help' for more information.\n";
}

}  // namespace

int parseCommandLine(CLI::App& app, int argc, char** argv) {
  app.failure_message(failureMessage);
  if (const std::string unknown = unknownSubcommand(app, argc, argv); !unknown.empty()) {
    std::cerr << "clgrade: " << unknown << "\nRun clgrade --help for more information.\n";
    return kUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, the version or the error with its hint
    return code == 0 ? kOk : kUsage;
  }
  return -1;
}

CLI::Validator between(double low, double high, const std::string& unit) {
  const std::string range = number(low) + " to " + number(high) + (unit.empty() ? "" : " " + unit);
  return CLI::Validator(
      [low, high, range](std::string& text) -> std::string {
        double value = 0;
        size_t used = 0;
        try {
          value = std::stod(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != text.size()) return "'" + text + "' is not a number";
        if (!(value >= low && value <= high)) return text + " is out of range: " + range;
        return "";
      },
      "[" + range + "]", "between");
}

namespace {

std::string lowercase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string notAKernelsFolder(const std::string& path, bool ofSubmissions) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::string shown = terminalText(path);
  if (fs::is_directory(path, ec)) {
    // One submission's folder given as the class would grade "0 submissions" and exit 0. Only a file
    // named as a task's is taken for that: a class folder may hold a loose .cl (an LMS's flat download,
    // `Carl Cee_3456789_assignsubmission_file_histogram.cl`), which the batch skips with a message.
    if (!ofSubmissions) return "";
    std::set<std::string> taskFiles;
    for (const Task* task : allTasks()) taskFiles.insert(lowercase(task->info().file));
    for (const fs::path& dir : {fs::path(path), fs::path(path) / "kernels"})
      for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (taskFiles.count(lowercase(it->path().filename().string())))
          return shown + " holds " + terminalText(fs::relative(it->path(), path, ec).string()) +
                 ": it is one submission's folder, not the folder of submission folders (grade it with `clgrade grade " +
                 shown + "`, or give the folder that holds one folder or archive per student)";
    return "";
  }
  const bool exists = fs::exists(path, ec);
  if (ec) return shown + " cannot be read: " + ec.message();
  if (!exists) return shown + " does not exist";
  const std::string folder = ofSubmissions ? "the folder of submission folders" : "the folder that holds the .cl files";
  const std::string name = fs::path(path).filename().string();
  auto endsWith = [&](const std::string& suffix) {
    return name.size() >= suffix.size() &&
           std::equal(suffix.rbegin(), suffix.rend(), name.rbegin(),
                      [](char a, char b) { return std::tolower((unsigned char)a) == std::tolower((unsigned char)b); });
  };
  if (looksLikeArchive(path))
    return shown + " is an archive, not a folder: unpack it (for a .zip: unzip '" + shown +
           "' -d submission) and give clgrade " + folder;
  if (endsWith(".cl"))
    return shown + " is one kernel file, not a folder: give clgrade " + folder +
           (ofSubmissions ? "" : " (add --task <id> to grade only its task)");
  return shown + " is a file, not " + folder;
}

}  // namespace clgrade::cli
