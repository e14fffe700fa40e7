// Usage errors as a person expects them: exit 2 for every one of them (CLI11's own codes are
// 105-114), an unknown subcommand or task answered with the nearest name, ranges said in words,
// and a path that is not a kernels folder explained (missing, an archive, a single .cl file).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "util/nearest_name.h"

namespace clgrade::cli {

/// "unknown subcommand 'chek', did you mean 'check'? (subcommands: ...)" when argv[1] names no
/// subcommand of `app`; "" otherwise (an option, a known subcommand, or nothing).
std::string unknownSubcommand(const CLI::App& app, int argc, const char* const* argv);

/// `clgrade` alone (the help, on stderr: exit 2), `clgrade help [COMMAND]` (exit 0; an unknown command
/// exits 2 with the nearest name), `clgrade version` and `-V` (the version, exit 0); -1 for any other
/// command line, which parseCommandLine then reads.
int answerHelpOrVersion(CLI::App& app, int argc, char** argv);

/// Parses the command line; returns -1 when the commands may run, else the exit code after saying
/// why on stderr: 0 for --help and --version, 2 (kUsage) for every usage error.
int parseCommandLine(CLI::App& app, int argc, char** argv);

/// A validator for a number between `low` and `high` (`unit` after them in the message), whose
/// message is readable: "-1 is out of range: 0 to 1024 submissions".
CLI::Validator between(double low, double high, const std::string& unit);

/// Why `path` is not a folder of kernels (or, `ofSubmissions`, of submission folders), with what to
/// give instead ("" when it is a folder).
std::string notAKernelsFolder(const std::string& path, bool ofSubmissions = false);

}  // namespace clgrade::cli
