// clgrade grade / check: one submission, every case of the rubric (grade) or the visible ones
// (check, the students' self-check); report.json, a table and what failed.
//
// By default each task runs in its own child process (`clgrade run-task`, see keeper/keeper.h): a kernel that never
// ends, a compiler bomb or a driver crash costs that task only, with a message saying where it happened. --in-process
// grades in this process (for debugging), where a watchdog ends the whole grade with exit 5 after --task-timeout.
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>

#include "cl/device.h"
#include "cli/command.h"
#include "cli/platform_results.h"
#include "cli/task_progress.h"
#include "cli/usage.h"
#include "grading/drawn_analysis.h"
#include "grading/grader.h"
#include "intake/archive_submission.h"
#include "intake/pocl_cache.h"
#include "intake/submission.h"
#include "keeper/keeper.h"
#include "keeper/machine_timing_lock.h"
#include "model/report_json.h"
#include "protocol/progress.h"
#include "protocol/tape.h"
#include "report/audience.h"
#include "report/outputs.h"
#include "report/terminal_table.h"
#include "sandbox/sandbox.h"
#include "util/archive.h"
#include "util/files.h"
#include "util/install_layout.h"
#include "util/markup.h"
#include "util/subprocess.h"

namespace clgrade::cli {
namespace {

/// --in-process only: ends the process with exit code 5 when one task runs longer than its limit.
class TaskWatchdog {
 public:
  explicit TaskWatchdog(double seconds) : seconds_(seconds), thread_([this] { watch(); }) {}
  ~TaskWatchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  void started(const std::string& task) {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = task;
    since_ = std::chrono::steady_clock::now();
  }

 private:
  void watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!done_) {
      wake_.wait_for(lock, std::chrono::milliseconds(200));
      if (done_ || task_.empty() || seconds_ <= 0) continue;
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - since_).count();
      if (elapsed > seconds_) {
        std::fprintf(stderr,
                     "clgrade: task %s did not finish within %.0f s: a kernel probably never ends (an endless loop, "
                     "or a barrier not every work-item reaches); no report was written\n",
                     task_.c_str(), seconds_);
        std::fflush(stderr);
        std::_Exit(kTaskTimeout);
      }
    }
  }
  double seconds_;
  std::string task_;
  std::chrono::steady_clock::time_point since_;
  bool done_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;  // last: it starts running in the constructor
};

/// When this process started grading (the first call, from main's parse): --time-limit counts from it.
std::chrono::steady_clock::time_point gradeStarted() {
  static const std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  return started;
}

struct GradeArgs {
  std::string kernelsDir;
  std::string rubric = defaultRubric();
  std::string out;
  std::string device = "auto";
  std::vector<std::string> tasks;
  ChildLimitArgs limits;
  std::string timingLock;
  bool inProcess = false;
  bool visibleOnlyFlag = false;
  bool quiet = false;
  bool details = false;          ///< --details: the performance figures and every failure in full
  std::string audience;          ///< --audience: "student", "instructor", "both"; empty: the command's default
  std::optional<uint64_t> seed;  ///< --seed (grade only); empty: drawn for this grade
  double timeLimit = 0;          ///< --time-limit: seconds the whole grade may take (0: none)
  PlatformResultPaths platformResults;
  /// Set for an archive that could not be unpacked: every task fails with this reason (it is the
  /// submission's fault, a grade, not a usage error).
  std::string refusal;
  /// Set for an unpacked archive: what was left out of it (already said on the terminal), for the
  /// report's notices.
  std::vector<std::string> notices;
  // Grades from a runner's record (protocol/tape.h), without the device: what the keeper does, for
  // debugging and for measuring the keeper's share of a grade.
  std::string replay;
};

/// Who the outputs are for: --audience, else check's student and grade's both (empty).
std::optional<Audience> outputAudience(const GradeArgs& args, bool checkCommand) {
  if (args.audience.empty()) return checkCommand ? std::optional<Audience>(Audience::Student) : std::nullopt;
  return audienceOf(args.audience);
}

/// The columns of the terminal the table goes to (COLUMNS, else the terminal's own width when stdout is
/// one; at least 60), else 0: a log or a pipe gets each reason whole on its line, for grep.
size_t terminalWidth() {
  size_t width = 0;
  if (const char* columns = std::getenv("COLUMNS"); columns && *columns) width = std::strtoul(columns, nullptr, 10);
  winsize size{};
  if (!width && isatty(1) && ioctl(1, TIOCGWINSZ, &size) == 0) width = size.ws_col;
  return width ? std::max<size_t>(width, 60) : 0;
}

/// The table, what to fix, where the report is (with --details the performance figures and every
/// failure in full); the exit code of grade or check.
int finish(const GradeReport& measured, const std::string& out, const std::string& jsonPath, bool visibleOnly,
           const GradeArgs& args, bool checkCommand) {
  const bool student = outputAudience(args, checkCommand) == Audience::Student;
  const GradeReport report = student ? forStudents(measured) : measured;
  if (!args.quiet) {
    const size_t width = terminalWidth();
    std::cout << terminalTable(report, width, args.details);
    const std::string fix = whatToFix(report, width);
    if (!fix.empty()) std::cout << "\n" << fix;
    if (args.details) {
      const std::string failures = failureDetails(report, out);
      if (!failures.empty()) std::cout << "\nWhat failed:\n\n" << failures;
    }
  }
  const std::string page = (std::filesystem::path(out) / kReportHtml).string();
  // --quiet says nothing on success (the exit code and report.json do), where the report is otherwise.
  const bool failed = visibleOnly && checkCommand && !report.allMeasuredPassed();
  if (!args.quiet || failed)
    std::cout << "report: " << terminalText(page) << "  (" << report.seconds << " s; data in " << terminalText(jsonPath)
              << (args.details || args.quiet ? "" : "; --details prints every failure and the timings") << ")\n";
  if (!outputAudience(args, checkCommand) && !args.quiet)
    std::cout << "for the student: " << terminalText((std::filesystem::path(out) / kStudentReportHtml).string())
              << " (hidden cases say only how they failed)\n";
  // The instructor's `grade` only: `check` (the students' command) never runs hidden cases nor shows a seed.
  if (report.hiddenSeed && !checkCommand && !args.quiet)
    std::cout << "hidden inputs: seed " << *report.hiddenSeed << " (--seed " << *report.hiddenSeed
              << " makes them again)\n";
  // A task the machine kept from being graded has no grade: a platform must not record its 0.
  if (const std::string fault = report.machineFault(); !fault.empty()) {
    std::cerr << "clgrade: not graded: a fault of this machine, not of the submission: " << terminalText(fault) << "\n";
    return kNoDevice;
  }
  if (visibleOnly && checkCommand) {
    if (!failed && !args.quiet)
      std::cout << "every measured criterion passed on the visible cases (hidden cases are graded later)\n";
    if (failed)
      std::cout << (args.quiet ? "some criteria failed: see the report\n"
                               : "some criteria failed: see the reasons above and the evidence files in the report\n");
    return failed ? kFailures : kOk;
  }
  return kOk;
}

/// The report folder of a grade of `args.kernelsDir`: --out, else reports/<its name>.
/// --out, else reports/<the submission's name> ("alice/kernels/", "alice" and, inside alice, "." are
/// all alice), never inside the folder graded (a student runs `clgrade check .` in the folder they
/// hand in): then beside it, <its parent>/reports/<name>.
std::string reportFolder(const GradeArgs& args) {
  if (!args.out.empty()) return args.out;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path dir = fs::weakly_canonical(fs::absolute(args.kernelsDir, ec), ec);
  std::string name = submissionName(dir.string());
  if (name.empty() || name == "." || name == ".." || name == "/") name = "submission";
  const fs::path out = fs::path("reports") / name;
  const fs::path at = fs::weakly_canonical(fs::absolute(out, ec), ec);
  if (pathWithin(at, dir) && dir.has_parent_path() && dir.parent_path() != dir)
    return (dir.parent_path() / "reports" / name).string();
  return out.string();
}

/// The lock its timed launches take: the one named, else the machine's for its GPU, which batches and
/// other grades on that GPU take too (keeper/machine_timing_lock.h); else none of its own.
std::string timingLockFor(const GradeArgs& args, const DeviceEntry& device, bool sandboxed) {
  if (!args.timingLock.empty()) return args.timingLock;
  std::string why;
  const std::string machine = machineTimingLock(device.info, sandboxed, &why);
  // Said, as a batch says it: another process timing on this GPU at once could slow these figures.
  if (machine.empty() && isHardwareGpu(device.info) && !args.quiet)
    std::cerr << "clgrade: this grade's timed launches take turns with no other process's on " << device.info.name
              << " (" << terminalText(why) << ")\n";
  return machine;
}

int gradeFolder(const GradeArgs& args, bool checkCommand) {
  const bool visibleOnly = checkCommand || args.visibleOnlyFlag;
  // A task child runs --in-process inside its sandbox; asked for by a person, --in-process runs the
  // kernels in this very process, with the grader's rights.
  if (args.inProcess && args.replay.empty() && !args.limits.noSandbox) {
    std::cerr << "clgrade: --in-process runs student code in this process, outside any sandbox; add --no-sandbox "
                 "to confirm\n";
    return kUsage;
  }
  if (const std::string why = notAKernelsFolder(args.kernelsDir); !why.empty()) {
    std::cerr << "clgrade: " << why << "\n";
    return kUsage;
  }
  Rubric rubric;
  DeviceEntry device;
  if (const int exit = loadRubricAndDevice(args.rubric, args.tasks, args.device, &rubric, &device); exit != kOk)
    return exit;
  std::string err;
  // A submission folder may hold the .cl files or a kernels/ subfolder with them.
  SubmissionFolder folder = resolveSubmission(args.kernelsDir);
  if (!args.refusal.empty()) folder.problem = args.refusal;
  // What the folder's notices say is news on the terminal too; the archive's were said as it was unpacked.
  for (const std::string& notice : folder.notices) std::cerr << "clgrade: note: " << terminalText(notice) << "\n";
  std::vector<std::string> notices = args.notices;
  notices.insert(notices.end(), folder.notices.begin(), folder.notices.end());
  const std::string out = reportFolder(args);
  const std::string jsonPath = (std::filesystem::path(out) / "report.json").string();
  removeEarlierReport(out);
  const std::string toolsDir = toolsFolder();
  // One seed for every hidden input of this grade, the runners' and the keeper's alike.
  const uint64_t hiddenSeed = args.seed ? *args.seed : drawHiddenSeed();

  if (!args.inProcess) {
    KeeperSettings settings = keeperSettings(args.limits, args.device, device, visibleOnly);
    // No sandbox on this machine: clgrade cannot grade here, which is not the submission's doing (a
    // platform must not record a 0): exit 3, like a machine without an OpenCL device.
    if (settings.sandbox && !sandboxSupport().available) {
      std::cerr << "clgrade: cannot grade here: student code runs only inside a sandbox, and none can be made: "
                << terminalText(sandboxSupport().reason) << " (--no-sandbox, for an instructor who accepts the risk)\n";
      return kNoDevice;
    }
    settings.timingLock = timingLockFor(args, device, settings.sandbox);
    settings.hiddenSeed = hiddenSeed;
    if (args.timeLimit > 0)
      settings.deadline = gradeStarted() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                               std::chrono::duration<double>(args.timeLimit));
    settings.reuseTrustedFigures = true;  // the reference timed once every 15 minutes on this machine
    size_t taskCount = args.tasks.empty() ? rubric.tasks.size() : args.tasks.size();
    settings.onTask = terminalTaskProgress(taskCount, args.quiet);
    if (settings.onTask)
      std::cerr << "clgrade: " << (visibleOnly ? "checking " : "grading ") << terminalText(args.kernelsDir) << " on "
                << terminalText(device.info.name) << ", " << taskCount << " task" << (taskCount == 1 ? "" : "s")
                << "; report in " << terminalText(out) << "\n";
    SubmissionResult graded =
        keepSubmission(rubric, device, folder.kernelsDir, out, args.tasks, settings, folder.problem);
    graded.report.notices = notices;
    if (!writeFileAtomically(jsonPath, toJson(graded.report), &err)) {
      std::cerr << "clgrade: " << terminalText(err) << "\n";
      return kOutput;
    }
    OutputOptions outputOptions;
    outputOptions.audience = outputAudience(args, checkCommand);
    const bool outputs = writeSubmissionOutputs(out, graded.report, &err, outputOptions);
    if (!outputs) std::cerr << "clgrade: " << terminalText(err) << "\n";
    const int exit = finish(graded.report, out, jsonPath, visibleOnly, args, checkCommand);
    return outputs || exit == kNoDevice ? exit : kOutput;  // a report whose outputs are missing was not written
  }

  GradeOptions options;
  options.kernelsDir = folder.kernelsDir;
  options.outDir = out;
  options.visibleOnly = visibleOnly;
  options.hiddenSeed = hiddenSeed;
  options.evidenceCasesPerCheck = args.limits.evidenceCases;
  options.pfmEvidence = args.limits.pfm;
  options.imageBudgetBytes = args.limits.evidenceMiB << 20;
  options.toolsDir = toolsDir;
  options.onlyTasks = args.tasks;
  if (args.replay.empty()) options.timingLock = timingLockFor(args, device, false);  // a replay times nothing
  // A kernel that never ends blocks the OpenCL driver and this process with it: a watchdog ends
  // the grade with a message naming the task (the isolated grade kills the task's child instead).
  TaskWatchdog watchdog(args.limits.taskTimeout);
  options.onTaskStart = [&](const std::string& task) { watchdog.started(task); };
  std::shared_ptr<Tape> tape;
  if (!args.replay.empty()) {
    tape = Tape::player(args.replay, &err);
    if (!tape) {
      std::cerr << "clgrade: " << terminalText(err) << "\n";
      return kOutput;
    }
  }
  const Runtime runtime(device, tape);
  GradeReport report;
  if (!folder.problem.empty()) {
    // Nothing of the folder is read: every task is refused with the reason.
    makeDirectories(out, nullptr);
    report = reportHeader(rubric, device.info, folder.kernelsDir, visibleOnly);
    if (!visibleOnly) report.hiddenSeed = hiddenSeed;
    for (const TaskRubric& tr : rubric.tasks)
      if (args.tasks.empty() || std::find(args.tasks.begin(), args.tasks.end(), tr.id) != args.tasks.end())
        report.tasks.push_back(unfinishedTask(tr, KernelSources(folder.kernelsDir), Status::Failed, folder.problem));
    report.sumPoints();
  } else {
    try {
      // As the keeper does: a grade judges the technique at a case drawn from its hidden seed too.
      report = gradeSubmission(runtime, visibleOnly ? rubric : withDrawnAnalysis(rubric, hiddenSeedsOf(hiddenSeed)),
                               options);
    } catch (const TapeMismatch& e) {
      std::cerr << "clgrade: " << terminalText(e.what()) << "\n";
      return kOutput;
    }
  }
  report.sandbox = sandboxDescription(false);
  report.notices = notices;
  if (tape && !tape->finished()) {
    std::cerr << "clgrade: the record does not fit this grading: " << terminalText(tape->broken()) << "\n";
    return kOutput;
  }
  if (!writeFileAtomically(jsonPath, toJson(report), &err)) {
    std::cerr << "clgrade: " << terminalText(err) << "\n";
    return kOutput;
  }
  OutputOptions outputOptions;
  outputOptions.audience = outputAudience(args, checkCommand);
  const bool outputs = writeSubmissionOutputs(out, report, &err, outputOptions);
  if (!outputs) std::cerr << "clgrade: " << terminalText(err) << "\n";
  const int exit = finish(report, out, jsonPath, visibleOnly, args, checkCommand);
  return outputs ? exit : kOutput;
}

/// An archive (alice.zip) is unpacked in a sandbox and its folder graded; its report goes to
/// reports/alice unless --out says otherwise. Anything else is graded as the folder it names.
int gradeCommand(const GradeArgs& args, bool checkCommand, std::string* reportDir) {
  gradeStarted();  // --time-limit counts from here
  evictSubmissionCachesDaily();  // housekeeping: the PoCL caches of submissions not graded for weeks
  std::error_code ec;
  *reportDir = reportFolder(args);
  if (!std::filesystem::is_regular_file(args.kernelsDir, ec) || !looksLikeArchive(args.kernelsDir))
    return gradeFolder(args, checkCommand);
  const std::string shown = terminalText(args.kernelsDir);
  const UnpackedSubmission unpacked = unpackSubmission(args.kernelsDir, selfExecutable(), !args.limits.noSandbox);
  for (const std::string& line : leftOutLines(unpacked, unpacked.leftOut.size()))
    std::cerr << "clgrade: " << shown << ": left out " << terminalText(line) << "\n";
  if (unpacked.folder.empty() && !unpacked.archiveAtFault) {
    std::cerr << "clgrade: " << shown << " cannot be graded: " << terminalText(unpacked.error) << "\n";
    return kUsage;
  }
  GradeArgs unpackedArgs = args;
  unpackedArgs.kernelsDir = unpacked.folder;
  // The report says what the archive lost, as the terminal did: the student reads the report.
  unpackedArgs.notices = leftOutNotices(unpacked, std::filesystem::path(args.kernelsDir).filename().string());
  if (unpacked.folder.empty()) {
    // A damaged archive, a bomb, not an archive at all: the submission's fault, so a grade in which
    // every task fails with the reason (never a usage error the platforms would blame on the course).
    std::cerr << "clgrade: " << shown << " cannot be unpacked: " << terminalText(unpacked.error) << "\n";
    unpackedArgs.kernelsDir = unpacked.scratch;
    unpackedArgs.refusal =
        std::filesystem::path(args.kernelsDir).filename().string() + " cannot be unpacked: " + unpacked.error;
  }
  if (unpackedArgs.out.empty()) {
    std::string name = archiveStem(args.kernelsDir);
    // "...zip" would leave "..": the report must stay below reports/.
    if (name.empty() || name.find_first_not_of('.') == std::string::npos) name = "submission";
    unpackedArgs.out = "reports/" + name;
  }
  *reportDir = unpackedArgs.out;
  return gradeFolder(unpackedArgs, checkCommand);
}

}  // namespace

void addGradeCommands(CLI::App& app, Commands* commands) {
  for (bool checkCommand : {false, true}) {
    auto args = std::make_shared<GradeArgs>();
    CLI::App* sub = app.add_subcommand(checkCommand ? "check" : "grade",
                                       checkCommand ? "self-check a submission on the rubric's visible cases"
                                                    : "grade a submission on every case of the rubric");
    sub->add_option("kernels-dir", args->kernelsDir,
                    "folder holding the .cl files (or a kernels/ folder with them), or an archive of "
                    "it (.zip, .tar.gz, .tar.xz, .7z: unpacked in a sandbox)")
        ->required();
    sub->add_option("--rubric", args->rubric, "rubric XML file")->capture_default_str();
    sub->add_option("--out", args->out, "report folder (default reports/<folder name>)");
    sub->add_option("--device", args->device, "auto | cpu | gpu | <platform-substring>[:index]")->capture_default_str();
    sub->add_option("--task", args->tasks, "grade only this task of the rubric (repeatable)");
    addChildLimitOptions(sub, &args->limits,
                         "seconds one task may take; it is then stopped and scores 0 (with --in-process: the "
                         "grade ends with exit 5; 0: no limit)");
    sub->add_option("--time-limit", args->timeLimit,
                    "seconds the whole grade may take: no task runs past it, and what is left is stopped and "
                    "scores 0, so that a platform killing the grade at its own limit still gets the results "
                    "(set it below the platform's, leaving time to write them; 0: none)")
        ->check(between(0, 7 * 86400, "seconds"));
    sub->add_option("--timing-lock", args->timingLock,
                    "a file locked while kernels are timed, so that grades and batches on one GPU take turns (default: "
                    "the GPU's own in <cache home>/clgrade/locks, which every clgrade process of this user "
                    "takes)");
    sub->add_flag("--in-process", args->inProcess,
                  "grade every task in this process (debugging: a hanging kernel then ends the grade, exit 5)");
    if (!checkCommand)
      addSeedOption(sub, &args->seed,
                    "seed of the hidden cases' inputs, to grade again with the same ones (report.json's "
                    "reproducibility.hidden_seed; default: drawn for this grade)");
    if (!checkCommand)
      sub->add_flag("--visible-only", args->visibleOnlyFlag,
                    "the visible cases only, like check, but exit 0 whatever failed (for CI fixtures)");
    sub->add_flag("--quiet,-q", args->quiet,
                  "print nothing on success (a failed check prints where its report is; errors still go to stderr)");
    sub->add_flag("--details", args->details,
                  "print the timed kernels' figures and every failure in full (cases, first wrong pixels, files) "
                  "after the table");
    addAudienceOption(sub, &args->audience,
                      checkCommand ? "who the report is for: student (default: hidden cases say only how they failed) "
                                     "or instructor"
                                   : "who the outputs are for: both (default: report.html for the instructor, "
                                     "report.student.html, Gradescope and PrairieLearn files for students), student, "
                                     "or instructor (every file with everything)");
    sub->add_option("--gradescope-results", args->platformResults.gradescope,
                    "also write Gradescope's results.json here (/autograder/results/results.json); when clgrade "
                    "cannot grade, one that says why (an autograder error, not a score)");
    sub->add_option("--prairielearn-results", args->platformResults.prairieLearn,
                    "also write PrairieLearn's results.json here (/grade/results/results.json); when clgrade "
                    "cannot grade, one with gradable: false and why");
    sub->add_option("--replay", args->replay)->group("");
    commands->push_back({sub, [args, checkCommand] {
                           return withPlatformResults(args->platformResults, [&](std::string* reportDir) {
                             return gradeCommand(*args, checkCommand, reportDir);
                           });
                         }});
  }
}

}  // namespace clgrade::cli
