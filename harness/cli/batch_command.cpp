// clgrade batch: every subfolder of a folder is one submission; graded in parallel, each task
// isolated, results per submission written atomically, resumable after a kill; class.json.
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "batch/batch.h"
#include "batch/gpu_placement.h"
#include "batch/shard.h"
#include "cl/device.h"
#include "cli/command.h"
#include "cli/usage.h"
#include "util/markup.h"
#include "util/subprocess.h"

namespace clgrade::cli {
namespace {

struct BatchArgs {
  std::string submissionsDir;
  std::string rubric = defaultRubric();
  std::string out;
  std::string device = "auto";
  std::vector<std::string> tasks;
  int jobs = 0;
  std::string gpus;  ///< --gpus 0,2; empty: every GPU
  bool regradeAll = false;
  std::vector<std::string> regrade;
  std::vector<std::string> confirmOverrides;
  bool allowUnknownOverrides = false;
  bool visibleOnly = false;
  ChildLimitArgs limits;
  std::string overrides;
  std::string roster;
  std::string audience;
  bool noSimilarity = false;
  std::optional<uint64_t> seed;
  std::string shard;  ///< "K/N", empty: every submission
  std::string timingLock;  ///< empty: the batch's own, in --out
  double retimeMinutes = kRetimeMinutes;
  int retimeEvery = kRetimeEvery;
  std::string taskProcesses = "auto";  ///< --task-processes: one, each, or auto (one on a GPU)
};

/// A batch interrupted (Ctrl-C, a scheduler's SIGTERM) says how to go on, then dies of the signal as
/// before (the shell's 130 or 143): what it graded is kept, what it was grading is graded again.
void sayHowToResume(int signal) {
  static const char kText[] =
      "\nclgrade batch: interrupted: the submissions graded so far are kept; run the same command again to "
      "resume (those being graded are graded again)\n";
  ssize_t ignored = write(2, kText, sizeof kText - 1);
  (void)ignored;
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

int batchCommand(const BatchArgs& args) {
  if (const std::string why = notAKernelsFolder(args.submissionsDir, true); !why.empty()) {
    std::cerr << "clgrade: " << why << "\n";
    return kUsage;
  }
  Shard shard;
  std::string shardError;
  if (!args.shard.empty() && !parseShard(args.shard, &shard, &shardError)) {
    std::cerr << "clgrade batch: " << terminalText(shardError) << "\n";
    return kUsage;
  }
  // Each shard drawing a seed of its own would grade the class on different hidden inputs (and the
  // merge refuses shards of different seeds): the seed is chosen once, by whoever starts the shards.
  if (shard.active() && !args.seed && !args.visibleOnly) {
    std::cerr << "clgrade batch: --shard " << args.shard << " needs --seed N, the same for every shard, so that "
              << "every submission is graded on the same hidden inputs (clgrade slurm draws one)\n";
    return kUsage;
  }
  std::vector<int> gpus;
  if (std::string why; !args.gpus.empty() && !parseGpuList(args.gpus, &gpus, &why)) {
    std::cerr << "clgrade batch: " << terminalText(why) << "\n";
    return kUsage;
  }
  Rubric rubric;
  DeviceEntry device;
  if (const int exit = loadRubricAndDevice(args.rubric, args.tasks, args.device, &rubric, &device); exit != kOk)
    return exit;
  std::string err;
  BatchOptions options;
  options.submissionsDir = args.submissionsDir;
  options.outDir = args.out;
  if (args.out.empty()) {
    const std::filesystem::path p = std::filesystem::path(args.submissionsDir).lexically_normal();
    options.outDir = "reports/batch-" + (p.filename().empty() ? p.parent_path().filename() : p.filename()).string();
  }
  if (!args.overrides.empty() && !loadOverridesOrComplain(args.overrides, &options.overrides)) return kUsage;
  if (!args.roster.empty() && !loadRosterOrComplain(args.roster, &options.roster)) return kUsage;
  options.audience = audienceOf(args.audience);
  options.similarity = !args.noSimilarity;
  options.jobs = args.jobs;
  options.gpus = gpus;
  options.regradeAll = args.regradeAll;
  options.regrade = args.regrade;
  options.confirmOverrides = args.confirmOverrides;
  options.allowUnknownOverrides = args.allowUnknownOverrides;
  options.onlyTasks = args.tasks;
  options.keeper = keeperSettings(args.limits, args.device, device, args.visibleOnly);
  options.keeper.timingLock = args.timingLock;  // shared with other batches and grades of the same GPU
  options.keeper.tasksTogether =
      args.taskProcesses == "one" || (args.taskProcesses == "auto" && isHardwareGpu(device.info));
  options.tasksTogetherByClass = args.taskProcesses == "auto";  // a handful of submissions: a process a task
  options.hiddenSeed = args.seed;
  options.shard = shard;
  options.retimeMinutes = args.retimeMinutes;
  options.retimeEvery = args.retimeEvery;
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) std::signal(signal, sayHowToResume);
  const BatchSummary summary = runBatch(rubric, device, options);
  if (!summary.error.empty()) {
    std::istringstream lines(summary.error);  // one message a line
    for (std::string line; std::getline(lines, line);) std::cerr << "clgrade batch: " << terminalText(line) << "\n";
    return kUsage;
  }
  if (!summary.machineFault.empty()) {
    std::cerr << "clgrade batch: nothing graded: a fault of this machine, not of the submissions: "
              << terminalText(summary.machineFault) << "; fix it and run the batch again\n";
    return kNoDevice;
  }
  std::cout << "graded " << summary.graded << " submission(s) (" << summary.alreadyDone << " already graded, "
            << summary.changed << " changed since graded, "
            << summary.stopped << " with a task stopped or crashed) in " << summary.seconds
            << " s; class results: " << terminalText((std::filesystem::path(options.outDir) / "class.json").string())
            << "\n";
  // Said at the start among the progress lines, and again here where the instructor looks.
  for (const std::string& m : summary.skipped) std::cerr << "clgrade batch: " << terminalText(m) << "\n";
  for (const std::string& m : summary.collisions) std::cerr << "clgrade batch: " << terminalText(m) << "\n";
  // Results that could not be written, named again at the end where the instructor looks: exit 4.
  if (summary.notWritten)
    std::cerr << "clgrade batch: the results of " << summary.notWritten
              << " submission(s) were not written (see above)\n";
  for (const std::string& e : summary.notWrittenFiles)
    std::cerr << "clgrade batch: not written: " << terminalText(e) << "\n";
  if (summary.staleOverrides)
    std::cerr << "clgrade batch: " << summary.staleOverrides
              << " stale override(s) not applied (see above" << (shard.active() ? "" : " and summary.html")
              << "): confirm them with --confirm-overrides NAME or remove them from the overrides file\n";
  if (summary.notGraded)
    std::cerr << "clgrade batch: " << summary.notGraded
              << " submission(s) not graded: a fault of this machine kept a task from running (see above and "
                 "the gradebook's problem column); fix it and run the batch again to grade them\n";
  if (summary.notWritten || !summary.notWrittenFiles.empty()) return kOutput;
  return summary.notGraded ? kNoDevice : kOk;
}

}  // namespace

void addBatchCommand(CLI::App& app, Commands* commands) {
  auto args = std::make_shared<BatchArgs>();
  CLI::App* sub =
      app.add_subcommand("batch", "grade every submission (subfolder) of a folder, in parallel and resumably");
  sub->add_option("submissions-dir", args->submissionsDir,
                  "folder with one subfolder per submission (the .cl files, or a kernels/ folder with them)")
      ->required();
  sub->add_option("--rubric", args->rubric, "rubric XML file")->capture_default_str();
  sub->add_option("--out", args->out, "results folder (default reports/batch-<folder name>)");
  sub->add_option("--device", args->device, "auto | cpu | gpu | <platform-substring>[:index]")->capture_default_str();
  sub->add_option("--jobs,-j", args->jobs,
                  "submissions graded at once (default: on a GPU one per 4 of its cores, 1 to 4 a GPU, fewer where memory is short; on a CPU one per core; the batch says which and why)")
      ->check(between(0, 1024, "submissions at once"));
  sub->add_option("--gpus", args->gpus,
                  "the NVIDIA GPUs the jobs go to, as numbered among those this process sees (0,2; default: every "
                  "one, each with its own timing lock, counters session and trusted timings)");
  sub->add_option("--overrides", args->overrides,
                  "CSV of instructor adjustments (submission,task,criterion,points,comment), merged into every output");
  sub->add_option("--roster", args->roster,
                  "CSV of the course's students (id, name, email, login, submission: README, 'Roster'): gradebook "
                  "rows for every student, those who handed in nothing too, matched to the submissions by name");
  sub->add_option("--confirm-overrides", args->confirmOverrides,
                  "apply this submission's overrides to its current grade although they were written for an "
                  "earlier one (a resubmission or regrade made them stale; repeatable)");
  sub->add_flag("--allow-unknown-overrides", args->allowUnknownOverrides,
                "grade the class although an override names no submission of it (else exit 2: a typo)");
  addAudienceOption(sub, &args->audience,
                    "who each submission's files are for: both (default: report.html for the instructor, "
                    "report.student.html, Gradescope and PrairieLearn files for students), student or instructor");
  sub->add_flag("--no-similarity", args->noSimilarity,
                "do not measure how alike the class's kernels are (class.json's similarity, summary.html's Similar "
                "kernels; sim_c of similarity-tester; never a grade)");
  sub->add_option("--regrade", args->regrade,
                  "grade this submission again although its results are complete and its files unchanged "
                  "(repeatable; a changed submission is graded again without it)");
  sub->add_flag("--regrade-all,--force", args->regradeAll,
                "grade every submission again, those already graded in the results folder too");
  sub->add_option("--task", args->tasks, "grade only this task of the rubric (repeatable)");
  sub->add_flag("--visible-only", args->visibleOnly, "the visible cases only (as check)");
  sub->add_option("--retime-minutes", args->retimeMinutes,
                  "the reference kernels, naive kernels and copy roofline are timed once for the batch, and again "
                  "when their figures are this many minutes old (0: no age limit)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 10080.0));
  sub->add_option("--retime-every", args->retimeEvery,
                  "... and again after this many submissions (0: no count limit; 1: before every grade)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000));
  addChildLimitOptions(sub, &args->limits, "seconds one task may take before it is stopped (scores 0)");
  sub->add_option(
         "--task-processes", args->taskProcesses,
         "one: a submission's tasks run one after another in one sandboxed process, and a task that "
         "does not end well there (a crash, a limit, a failed device step) runs again, with the tasks "
         "after it, in a process of its own; each: a process for every task; auto: one on a GPU, "
         "whose driver starts and ends processes under a lock of the whole host, where the submissions to grade would "
         "start more processes than there are cores; each elsewhere")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "one", "each"}));
  addSeedOption(sub, &args->seed,
                "seed of the hidden cases' inputs, one for every submission (class.json's hidden_seed; default: "
                "the seed of the batch already started in --out, else one drawn)");
  sub->add_option("--shard", args->shard,
                  "K/N: grade only shard K of N, a share fixed by each submission's name (for a cluster: clgrade "
                  "slurm; clgrade merge joins the shards' --out folders). Give every shard the same --seed");
  sub->add_option("--timing-lock", args->timingLock,
                  "a file locked while kernels are timed, instead of each GPU's own in <cache home>/clgrade/locks "
                  "(which every batch and grade of this user on that GPU takes): name the same file in "
                  "batches and grades of several users that share a GPU, so that their timings take turns "
                  "too (with several GPUs, each GPU's is FILE-gpuN)");
  commands->push_back({sub, [args] { return batchCommand(*args); }});
}

}  // namespace clgrade::cli
