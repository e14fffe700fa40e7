// clgrade grade / check: one kernels folder, every case of the rubric (grade) or the visible
// ones (check, the students' self-check); report.json, a table and what failed.
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
#include "grading/grader.h"
#include "report/json_report.h"
#include "report/terminal_table.h"
#include "util/files.h"
#include "util/subprocess.h"

namespace clgrade::cli {
namespace {

/// Ends the process with exit code 5 when one task runs longer than its limit.
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
  int evidenceCases = 1;
  double taskTimeout = 600;
  bool quiet = false;
};

int gradeCommand(const GradeArgs& args, bool visibleOnly) {
  if (!std::filesystem::is_directory(args.kernelsDir)) {
    std::cerr << "clgrade: " << args.kernelsDir << " is not a folder\n";
    return kUsage;
  }
  Rubric rubric;
  if (!loadRubricOrComplain(args.rubric, &rubric)) return kUsage;
  for (const std::string& t : args.tasks) {
    bool known = false;
    for (const TaskRubric& tr : rubric.tasks) known = known || tr.id == t;
    if (!known) {
      std::cerr << "clgrade: the rubric has no task '" << t << "'\n";
      return kUsage;
    }
  }
  DeviceEntry device;
  std::string err;
  if (!chooseDevice(args.device, &device, &err)) {
    std::cerr << "clgrade: " << err << "\n";
    return kNoDevice;
  }
  const std::string out = args.out.empty() ? std::string("reports/") +
                                                 std::filesystem::path(args.kernelsDir).lexically_normal().filename().string()
                                           : args.out;
  GradeOptions options;
  options.kernelsDir = args.kernelsDir;
  options.outDir = out;
  options.visibleOnly = visibleOnly;
  options.evidenceCasesPerCheck = args.evidenceCases;
  options.toolsDir = std::filesystem::path(selfExecutable()).parent_path().string();
  options.onlyTasks = args.tasks;
  // A kernel that never ends blocks the OpenCL driver and this process with it: a watchdog ends
  // the grade with a message naming the task (batch grading runs each task in a child instead).
  TaskWatchdog watchdog(args.taskTimeout);
  options.onTaskStart = [&](const std::string& task) { watchdog.started(task); };
  const Runtime runtime(device);
  const GradeReport report = gradeSubmission(runtime, rubric, options);
  const std::string jsonPath = (std::filesystem::path(out) / "report.json").string();
  if (!writeFileAtomically(jsonPath, toJson(report), &err)) {
    std::cerr << "clgrade: " << err << "\n";
    return kOutput;
  }
  if (!args.quiet) {
    std::cout << terminalTable(report);
    const std::string failures = failureDetails(report, out);
    if (!failures.empty()) std::cout << "\nWhat failed:\n\n" << failures;
  }
  std::cout << "report: " << jsonPath << "  (" << report.seconds << " s)\n";
  if (visibleOnly) {
    const bool ok = report.allMeasuredPassed();
    std::cout << (ok ? "every measured criterion passed on the visible cases (hidden cases are graded later)\n"
                     : "some criteria failed: see the reasons above and the evidence files in the report\n");
    return ok ? kOk : kFailures;
  }
  return kOk;
}

}  // namespace

void addGradeCommands(CLI::App& app, Commands* commands) {
  for (bool visibleOnly : {false, true}) {
    auto args = std::make_shared<GradeArgs>();
    CLI::App* sub = app.add_subcommand(visibleOnly ? "check" : "grade",
                                       visibleOnly ? "self-check a kernels folder on the rubric's visible cases"
                                                   : "grade a kernels folder on every case of the rubric");
    sub->add_option("kernels-dir", args->kernelsDir, "folder holding the .cl files")->required();
    sub->add_option("--rubric", args->rubric, "rubric XML file")->capture_default_str();
    sub->add_option("--out", args->out, "report folder (default reports/<folder name>)");
    sub->add_option("--device", args->device, "auto | cpu | gpu | <platform-substring>[:index]")
        ->capture_default_str();
    sub->add_option("--task", args->tasks, "grade only this task of the rubric (repeatable)");
    sub->add_option("--evidence-cases", args->evidenceCases,
                    "write difference images for the first N failing cases of each check (0: all)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    sub->add_option("--task-timeout", args->taskTimeout, "seconds one task may take before clgrade gives up (exit 5)")
        ->capture_default_str();
    sub->add_flag("--quiet", args->quiet, "print no table");
    commands->push_back({sub, [args, visibleOnly] { return gradeCommand(*args, visibleOnly); }});
  }
}

}  // namespace clgrade::cli
