// The subcommand table: each command file registers its subcommand(s) on the CLI app and says what
// runs when one was chosen. main.cpp lists the files' add functions once, like ninja's table.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cl/device.h"
#include "keeper/keeper.h"
#include "report/audience.h"
#include "report/overrides.h"
#include "roster/roster.h"
#include "rubric/rubric.h"

namespace clgrade::cli {

/// Exit codes: 0 done (for `check`: every measured criterion passed), 1 `check` found failures,
/// 2 bad usage or rubric, 3 clgrade cannot grade on this machine (no usable OpenCL device, no sandbox,
/// or a machine fault kept a task from being graded: a runner that could not start or see the
/// device; then nothing is a grade), 4 the report could not be written,
/// 5 a task ran past --task-timeout in an --in-process grade (isolated grades stop the task instead).
/// `merge` exits 1 when shards or submissions are missing (what is there is merged), `slurm` 4 when
/// sbatch refused a job. 70 (EX_SOFTWARE) is clgrade's own fault: an internal error, never the
/// submission's or the machine's. A batch stopped by SIGINT or SIGTERM exits 130 or 143 (the shell's
/// 128 + signal), having said how to resume.
enum Exit { kOk = 0, kFailures = 1, kUsage = 2, kNoDevice = 3, kOutput = 4, kTaskTimeout = 5, kInternal = 70 };

/// The exit codes in words, for --help and the README.
inline constexpr const char* kExitCodesText =
    "Exit codes: 0 done (check: every measured criterion passed), 1 some criterion failed (check) or "
    "shards are missing (merge), 2 bad usage or rubric, 3 cannot grade on this machine (no OpenCL device, no "
    "sandbox, a machine fault: nothing is a grade), 4 a report or class file could not be written, 5 a task ran "
    "past --task-timeout in an --in-process grade, 70 an internal error of clgrade, 130 interrupted (run the "
    "same batch again to resume).";

/// A registered subcommand and what runs when it was chosen.
struct Command {
  CLI::App* sub = nullptr;
  std::function<int()> run;
};
using Commands = std::vector<Command>;

/// --audience of grade, batch and merge: "student", "instructor" or "both" (the files for both,
/// report/outputs.h). Registers the option on `sub` into *word.
void addAudienceOption(CLI::App* sub, std::string* word, const std::string& help);
/// The audience a --audience word names; empty for "both" (and for no word).
std::optional<Audience> audienceOf(const std::string& word);

/// rubrics/four_tasks.xml of clgrade's data folder (util/install_layout.h).
std::string defaultRubric();

/// Loads an instructor's overrides file (batch, merge); prints its problems and returns false when
/// it cannot be used.
bool loadOverridesOrComplain(const std::string& path, std::vector<Override>* overrides);

/// Loads the course's roster (batch, export); prints its problems and returns false when it cannot
/// be used: a roster with a wrong row would leave that student out of the LMS.
bool loadRosterOrComplain(const std::string& path, Roster* roster);

/// What grade, check and batch do first: the rubric (every `tasks` id must be one of its tasks) and
/// the device. Prints what is wrong; returns kOk or the exit code to end with.
int loadRubricAndDevice(const std::string& rubricPath, const std::vector<std::string>& tasks,
                        const std::string& deviceSpec, Rubric* rubric, DeviceEntry* device);

/// The limits grade, check and batch put on every runner (keeper/keeper.h).
struct ChildLimitArgs {
  int evidenceCases = 1;
  bool pfm = false;
  uint64_t evidenceMiB = 2;
  double taskTimeout = 300;
  double buildTimeout = 120;
  double taskMemoryMiB = 0;
  double taskDiskMiB = 4096;
  bool noSandbox = false;  ///< run student code without bubblewrap (recorded in the report)
  int taskJobs = 0;        ///< --task-jobs; 0: every task at once on a GPU, one at a time on a CPU device
  std::string cacheDir;    ///< --cache-dir: the store's root ("" the default, "none" no store)
};

/// --seed N (grade, batch): the seed of the hidden cases' inputs, to reproduce a run (its report.json
/// records it); left out, one is drawn from the system's random source.
void addSeedOption(CLI::App* sub, std::optional<uint64_t>* seed, const std::string& help);

/// --evidence-cases, --task-timeout (with `taskTimeoutHelp`), --build-timeout and --task-memory.
void addChildLimitOptions(CLI::App* sub, ChildLimitArgs* args, const std::string& taskTimeoutHelp);

/// The task children's settings from those options, the --device spec and the device it chose.
KeeperSettings keeperSettings(const ChildLimitArgs& args, const std::string& deviceSpec, const DeviceEntry& device,
                              bool visibleOnly);

void addDevicesCommand(CLI::App& app, Commands* commands);
void addGradeCommands(CLI::App& app, Commands* commands);
void addGoldenCommand(CLI::App& app, Commands* commands);
void addInternalCommands(CLI::App& app, Commands* commands);
void addBenchCommand(CLI::App& app, Commands* commands);
void addSweepCommand(CLI::App& app, Commands* commands);
void addBatchCommand(CLI::App& app, Commands* commands);
void addCriterionCommands(CLI::App& app, Commands* commands);
void addProfileCommand(CLI::App& app, Commands* commands);
void addMergeCommand(CLI::App& app, Commands* commands);
void addExportCommand(CLI::App& app, Commands* commands);
void addSlurmCommand(CLI::App& app, Commands* commands);
void addPackageCommand(CLI::App& app, Commands* commands);

}  // namespace clgrade::cli
