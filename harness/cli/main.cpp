// clgrade's command line: one row per subcommand, each a small function.
//   clgrade devices                   list OpenCL devices
//   clgrade grade <kernels-dir>       grade every case of the rubric, write report.json
//   clgrade check <kernels-dir>       the students' self-check: visible cases only
//   clgrade golden [--write FILE]     print (or write) the golden manifest of inputs and references
#include <CLI/CLI.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <filesystem>
#include <iostream>

#include "cl/device.h"
#include "grading/analysis.h"
#include "grading/golden.h"
#include "grading/hardware.h"
#include "grading/grader.h"
#include "report/json_report.h"
#include "report/terminal_table.h"
#include "util/files.h"
#include "util/subprocess.h"

#ifndef CLGRADE_SOURCE_DIR
#define CLGRADE_SOURCE_DIR "."
#endif

namespace {

using namespace clgrade;

/// Exit codes: 0 done (for `check`: every measured criterion passed), 1 `check` found failures,
/// 2 bad usage or rubric, 3 no usable OpenCL device, 4 the report could not be written,
/// 5 a task ran past --task-timeout.
enum Exit { kOk = 0, kFailures = 1, kUsage = 2, kNoDevice = 3, kOutput = 4 };

/// The repository root: next to the executable (build/clgrade -> ..), else where it was built.
std::string repositoryRoot() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && std::filesystem::exists(exe.parent_path().parent_path() / "rubrics" / "four_tasks.xml", ec))
    return exe.parent_path().parent_path().string();
  return CLGRADE_SOURCE_DIR;
}

std::string defaultRubric() { return repositoryRoot() + "/rubrics/four_tasks.xml"; }

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
        std::_Exit(5);
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

int listDevicesCommand() {
  std::string err;
  const std::vector<DeviceEntry> devices = listDevices(&err);
  if (devices.empty()) {
    std::cerr << "clgrade: " << err << "\n";
    return kNoDevice;
  }
  for (const DeviceEntry& d : devices) {
    std::cout << d.info.platform << ":" << d.deviceIndex << "  [" << d.info.type << "] " << d.info.name
              << "  (driver " << d.info.driver << ", " << d.info.version << ", max group " << d.info.maxWorkGroupSize
              << ", local " << d.info.localMemBytes / 1024 << " KiB)\n";
  }
  bool gpu = false;
  for (const DeviceEntry& d : devices) gpu = gpu || d.info.type == "gpu";
  if (!gpu) std::cout << "no GPU listed. " << gpuSetupHint() << "\n";
  return kOk;
}

struct GradeArgs {
  std::string kernelsDir;
  std::string rubric = defaultRubric();
  std::string out;
  std::string device = "auto";
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
  std::vector<std::string> problems;
  if (!loadRubric(args.rubric, &rubric, &problems)) {
    std::cerr << "clgrade: the rubric cannot be used:\n";
    for (const std::string& p : problems) std::cerr << "  " << p << "\n";
    return kUsage;
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
  GradeOptions options{args.kernelsDir, out, visibleOnly, args.evidenceCases,
                       std::filesystem::path(selfExecutable()).parent_path().string(), nullptr};
  // A kernel that never ends blocks the OpenCL driver and this process with it. Until grading
  // runs in a child process per submission, a watchdog ends the grade with a message naming the task.
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

/// The child side of the simulated checks (started by grade/check, not by people).
int analyzeCommand(const std::string& kernelsDir, const std::string& rubricPath, const std::string& task,
                   const std::string& out) {
  Rubric rubric;
  std::vector<std::string> problems;
  if (!loadRubric(rubricPath, &rubric, &problems)) {
    for (const std::string& p : problems) std::cerr << p << "\n";
    return kUsage;
  }
  return analyzeInChild(kernelsDir, rubric, task, out);
}

int goldenCommand(const std::vector<std::string>& rubrics, const std::string& write, const std::string& exportDir) {
  std::string manifest, err;
  if (!goldenManifest(rubrics, &manifest, &err, exportDir)) {
    std::cerr << "clgrade: " << err << "\n";
    return kUsage;
  }
  if (write.empty()) {
    std::cout << manifest;
    return kOk;
  }
  if (!writeFileAtomically(write, manifest, &err)) {
    std::cerr << "clgrade: " << err << "\n";
    return kOutput;
  }
  std::cout << "wrote " << write << "\n";
  return kOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"clgrade: grades the OpenCL image-convolution assignment"};
  app.require_subcommand(1);
  app.set_version_flag("--version", clgradeVersion());

  app.add_subcommand("devices", "list the OpenCL platforms and devices");

  GradeArgs gradeArgs, checkArgs;
  for (auto [name, args, help] :
       {std::tuple{"grade", &gradeArgs, "grade a kernels folder on every case of the rubric"},
        std::tuple{"check", &checkArgs, "self-check a kernels folder on the rubric's visible cases"}}) {
    CLI::App* sub = app.add_subcommand(name, help);
    sub->add_option("kernels-dir", args->kernelsDir, "folder holding the .cl files")->required();
    sub->add_option("--rubric", args->rubric, "rubric XML file")->capture_default_str();
    sub->add_option("--out", args->out, "report folder (default reports/<folder name>)");
    sub->add_option("--device", args->device, "auto | cpu | gpu | <platform-substring>[:index]")
        ->capture_default_str();
    sub->add_option("--evidence-cases", args->evidenceCases,
                    "write difference images for the first N failing cases of each check (0: all)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    sub->add_option("--task-timeout", args->taskTimeout, "seconds one task may take before clgrade gives up (exit 5)")
        ->capture_default_str();
    sub->add_flag("--quiet", args->quiet, "print no table");
  }

  std::vector<std::string> goldenRubrics{repositoryRoot() + "/rubrics/four_tasks.xml",
                                         repositoryRoot() + "/rubrics/three_tasks_histogram.xml",
                                         repositoryRoot() + "/rubrics/three_tasks_bilateral.xml"};
  std::string goldenWrite;
  CLI::App* golden = app.add_subcommand("golden", "print the golden manifest (inputs and CPU reference outputs)");
  golden->add_option("--rubric", goldenRubrics, "rubric files whose cases it covers");
  golden->add_option("--write", goldenWrite, "write the manifest to this file instead of printing it");
  std::string goldenExport;
  golden->add_option("--export", goldenExport, "also write every generated input to this folder (PFM + PNG)");

  std::string analyzeDir, analyzeRubric = defaultRubric(), analyzeTask, analyzeOut;
  CLI::App* analyze = app.add_subcommand("analyze", "(internal) run a task's analysis case on Oclgrind");
  analyze->add_option("kernels-dir", analyzeDir)->required();
  analyze->add_option("--rubric", analyzeRubric);
  analyze->add_option("--task", analyzeTask)->required();
  analyze->add_option("--out", analyzeOut)->required();
  analyze->group("");  // hidden from --help: grade and check start it

  std::string hwDir, hwRubric = defaultRubric(), hwTask, hwOut;
  CLI::App* hwcount = app.add_subcommand("hwcount", "(internal) replay a task's analysis case through CUDA for ncu");
  hwcount->add_option("kernels-dir", hwDir)->required();
  hwcount->add_option("--rubric", hwRubric);
  hwcount->add_option("--task", hwTask)->required();
  hwcount->add_option("--out", hwOut)->required();
  hwcount->group("");

  CLI11_PARSE(app, argc, argv);
  if (app.got_subcommand("devices")) return listDevicesCommand();
  if (app.got_subcommand("grade")) return gradeCommand(gradeArgs, false);
  if (app.got_subcommand("check")) return gradeCommand(checkArgs, true);
  if (app.got_subcommand("analyze")) return analyzeCommand(analyzeDir, analyzeRubric, analyzeTask, analyzeOut);
  if (app.got_subcommand("hwcount")) {
    Rubric rubric;
    std::vector<std::string> problems;
    if (!loadRubric(hwRubric, &rubric, &problems)) return kUsage;
    return hwcountInChild(hwDir, rubric, hwTask, hwOut);
  }
  if (app.got_subcommand("golden")) return goldenCommand(goldenRubrics, goldenWrite, goldenExport);
  return kUsage;
}
