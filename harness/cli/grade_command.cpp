// clgrade grade / check: one submission, every case of the rubric (grade) or the visible ones
// (check, the students' self-check); report.json, a table and what failed.
//
// By default each task runs in its own child process (this same command with --in-process
// --task T, see batch/isolation.h): a kernel that never ends, a compiler bomb or a driver crash
// costs that task only, with a message saying where it happened. --in-process grades in this
// process (for debugging), where a watchdog ends the whole grade with exit 5 after --task-timeout.
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

#include "batch/isolation.h"
#include "batch/outputs.h"
#include "batch/submission.h"
#include "cl/device.h"
#include "cli/command.h"
#include "grading/grader.h"
#include "report/json_read.h"
#include "report/json_report.h"
#include "report/terminal_table.h"
#include "util/tape.h"
#include "sandbox/sandbox.h"
#include "util/files.h"
#include "util/progress.h"
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
  // A task runner of an isolated grade: every device step goes into this record (util/tape.h),
  // which the keeper replays to grade; nothing to stdout (which holds what the kernels print), and
  // its steps to the progress file.
  std::string record;
  // Grades from a record made with --record, without the device (what the keeper does; for
  // debugging and for measuring the keeper's share of a grade).
  std::string replay;
  std::string progressFile;
  // A rerun of a task child whose first process was stopped in a kernel or while timing (isolation).
  std::string stoppedKernel, stoppedCase, stoppedStatus = "failed", stoppedMessage, performanceStopped;
  std::vector<std::string> stoppedEvidence;
};

/// The table, what failed, where the report is; the exit code of grade or check.
int finish(const GradeReport& report, const std::string& out, const std::string& jsonPath, bool visibleOnly,
           bool quiet, bool checkCommand) {
  if (!quiet) {
    std::cout << terminalTable(report);
    const std::string failures = failureDetails(report, out);
    if (!failures.empty()) std::cout << "\nWhat failed:\n\n" << failures;
  }
  std::cout << "report: " << jsonPath << "  (" << report.seconds << " s)\n";
  if (visibleOnly && checkCommand) {
    const bool ok = report.allMeasuredPassed();
    std::cout << (ok ? "every measured criterion passed on the visible cases (hidden cases are graded later)\n"
                     : "some criteria failed: see the reasons above and the evidence files in the report\n");
    return ok ? kOk : kFailures;
  }
  return kOk;
}

int gradeCommand(const GradeArgs& args, bool checkCommand) {
  const bool visibleOnly = checkCommand || args.visibleOnlyFlag;
  // A task child runs --in-process inside its sandbox; asked for by a person, --in-process runs the
  // kernels in this very process, with the grader's rights.
  if (args.inProcess && args.record.empty() && args.replay.empty() && !args.limits.noSandbox) {
    std::cerr << "clgrade: --in-process runs student code in this process, outside any sandbox; add --no-sandbox "
                 "to confirm\n";
    return kUsage;
  }
  if (!std::filesystem::is_directory(args.kernelsDir)) {
    std::cerr << "clgrade: " << args.kernelsDir << " is not a folder\n";
    return kUsage;
  }
  Rubric rubric;
  DeviceEntry device;
  if (const int exit = loadRubricAndDevice(args.rubric, args.tasks, args.device, &rubric, &device); exit != kOk)
    return exit;
  std::string err;
  // A submission folder may hold the .cl files or a kernels/ subfolder with them.
  const SubmissionFolder folder = resolveSubmission(args.kernelsDir);
  const std::string out = args.out.empty() ? std::string("reports/") +
                                                 std::filesystem::path(args.kernelsDir).lexically_normal().filename().string()
                                           : args.out;
  const std::string jsonPath = (std::filesystem::path(out) / "report.json").string();
  const std::string toolsDir = std::filesystem::path(selfExecutable()).parent_path().string();

  if (!args.inProcess) {
    IsolationSettings settings = isolationSettings(args.limits, args.device, device, visibleOnly);
    settings.timingLock = args.timingLock;
    const IsolatedGrade graded =
        gradeIsolated(rubric, device, folder.kernelsDir, out, args.tasks, settings, folder.problem);
    if (!writeFileAtomically(jsonPath, graded.report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                             &err)) {
      std::cerr << "clgrade: " << err << "\n";
      return kOutput;
    }
    if (!writeSubmissionOutputs(out, graded.report, &err)) std::cerr << "clgrade: " << err << "\n";
    // The whole model back from the merged report (performance included), as every renderer reads it.
    GradeReport whole;
    if (!readReportJson(graded.report.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), &whole, &err)) {
      std::cerr << "clgrade: the merged report " << jsonPath << " does not read back: " << err << "\n";
      return kOutput;
    }
    return finish(whole, out, jsonPath, visibleOnly, args.quiet, checkCommand);
  }

  GradeOptions options;
  options.kernelsDir = folder.kernelsDir;
  options.outDir = out;
  options.visibleOnly = visibleOnly;
  options.evidenceCasesPerCheck = args.limits.evidenceCases;
  options.toolsDir = toolsDir;
  options.onlyTasks = args.tasks;
  options.timingLock = args.timingLock;
  options.discardEvidence = !args.record.empty();
  if (!args.stoppedKernel.empty())
    options.stoppedKernels.push_back({args.stoppedKernel, args.stoppedCase,
                                      args.stoppedStatus == "error" ? Status::Error : Status::Failed,
                                      args.stoppedMessage});
  options.performanceStopped = args.performanceStopped;
  options.performanceStoppedStatus = args.stoppedStatus == "error"    ? Status::Error
                                     : args.stoppedStatus == "failed" ? Status::Failed
                                                                      : Status::NotMeasured;
  for (const std::string& path : args.stoppedEvidence)
    options.stoppedEvidence.push_back(
        {path.find("kernel_output") != std::string::npos ? "what the kernels printed in the stopped process"
                                                          : "the stopped grading process's messages",
         path});
  if (!args.progressFile.empty()) progress::setFile(args.progressFile);
  // A kernel that never ends blocks the OpenCL driver and this process with it: a watchdog ends
  // the grade with a message naming the task (the isolated grade kills the task's child instead).
  TaskWatchdog watchdog(args.limits.taskTimeout);
  options.onTaskStart = [&](const std::string& task) { watchdog.started(task); };
  std::shared_ptr<Tape> tape;
  if (!args.record.empty() || !args.replay.empty()) {
    tape = args.replay.empty() ? Tape::recorder(args.record, &err) : Tape::player(args.replay, &err);
    if (!tape) {
      std::cerr << "clgrade: " << err << "\n";
      return kOutput;
    }
  }
  const Runtime runtime(device, tape);
  GradeReport report;
  if (!folder.problem.empty()) {
    // Nothing of the folder is read: every task is refused with the reason.
    makeDirectories(out, nullptr);
    report.version = clgradeVersion();
    report.mode = visibleOnly ? "check" : "grade";
    report.kernelsDir = folder.kernelsDir;
    report.rubricId = rubric.id;
    report.rubricTitle = rubric.title;
    report.rubricPath = rubric.path;
    report.rubricSha256 = rubric.sha256;
    report.settings = rubric.settings;
    report.device = device.info;
    for (const TaskRubric& tr : rubric.tasks) {
      if (!args.tasks.empty() && std::find(args.tasks.begin(), args.tasks.end(), tr.id) == args.tasks.end()) continue;
      report.tasks.push_back(unfinishedTask(tr, folder.kernelsDir, Status::Failed, folder.problem, "", {}));
      report.total += report.tasks.back().points;
      report.max += report.tasks.back().max;
    }
  } else {
    try {
      report = gradeSubmission(runtime, rubric, options);
    } catch (const TapeMismatch& e) {
      std::cerr << "clgrade: " << e.what() << "\n";
      return kOutput;
    }
  }
  report.sandbox = sandboxDescription(false);
  progress::note(progress::Step::Done, "");
  if (tape && tape->replaying() && !tape->finished()) {
    std::cerr << "clgrade: the record does not fit this grading: " << tape->broken() << "\n";
    return kOutput;
  }
  if (tape && !tape->replaying()) {
    // The runner's verdicts are thrown away: the keeper computes its own from the record.
    tape->close();
    return kOk;
  }
  if (!writeFileAtomically(jsonPath, toJson(report), &err)) {
    std::cerr << "clgrade: " << err << "\n";
    return kOutput;
  }
  std::string text;
  if (readFile(jsonPath, &text, nullptr, size_t(512) << 20)) {
    try {
      if (!writeSubmissionOutputs(out, nlohmann::ordered_json::parse(text), &err)) std::cerr << "clgrade: " << err << "\n";
    } catch (const nlohmann::json::exception& e) {
      std::cerr << "clgrade: " << e.what() << "\n";
    }
  }
  return finish(report, out, jsonPath, visibleOnly, args.quiet, checkCommand);
}

}  // namespace

void addGradeCommands(CLI::App& app, Commands* commands) {
  for (bool checkCommand : {false, true}) {
    auto args = std::make_shared<GradeArgs>();
    CLI::App* sub = app.add_subcommand(checkCommand ? "check" : "grade",
                                       checkCommand ? "self-check a submission on the rubric's visible cases"
                                                    : "grade a submission on every case of the rubric");
    sub->add_option("kernels-dir", args->kernelsDir, "folder holding the .cl files (or a kernels/ folder with them)")
        ->required();
    sub->add_option("--rubric", args->rubric, "rubric XML file")->capture_default_str();
    sub->add_option("--out", args->out, "report folder (default reports/<folder name>)");
    sub->add_option("--device", args->device, "auto | cpu | gpu | <platform-substring>[:index]")
        ->capture_default_str();
    sub->add_option("--task", args->tasks, "grade only this task of the rubric (repeatable)");
    addChildLimitOptions(sub, &args->limits,
                         "seconds one task may take; it is then stopped and scores 0 (with --in-process: the "
                         "grade ends with exit 5; 0: no limit)");
    sub->add_option("--timing-lock", args->timingLock,
                    "a file locked while kernels are timed, so parallel grades on one GPU take turns");
    sub->add_flag("--in-process", args->inProcess,
                  "grade every task in this process (debugging: a hanging kernel then ends the grade, exit 5)");
    if (!checkCommand)
      sub->add_flag("--visible-only", args->visibleOnlyFlag,
                    "the visible cases only, like check, but exit 0 whatever failed (for CI fixtures)");
    sub->add_flag("--quiet", args->quiet, "print no table");
    sub->add_option("--record", args->record)->group("");
    sub->add_option("--replay", args->replay)->group("");
    sub->add_option("--progress-file", args->progressFile)->group("");
    sub->add_option("--stopped-kernel", args->stoppedKernel)->group("");
    sub->add_option("--stopped-case", args->stoppedCase)->group("");
    sub->add_option("--stopped-status", args->stoppedStatus)
        ->check(CLI::IsMember({"failed", "error", "not_measured"}))
        ->group("");
    sub->add_option("--stopped-evidence", args->stoppedEvidence)->group("");
    sub->add_option("--stopped-message", args->stoppedMessage)->group("");
    sub->add_option("--performance-stopped", args->performanceStopped)->group("");
    commands->push_back({sub, [args, checkCommand] { return gradeCommand(*args, checkCommand); }});
  }
}

}  // namespace clgrade::cli
