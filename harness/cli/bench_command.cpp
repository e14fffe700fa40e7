// clgrade bench: times the kernels of a folder (the reference kernels by default) on the rubric's
// performance cases, at the course sizes and larger ones, against the copy roofline of the same run.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cl/device.h"
#include "cli/command.h"
#include "intake/source_policy.h"
#include "intake/submission.h"
#include "model/figures_json.h"
#include "perf/measure.h"
#include "perf/roofline.h"
#include "tasks/task.h"
#include "util/files.h"
#include "util/install_layout.h"

namespace clgrade::cli {
namespace {

struct BenchArgs {
  std::string kernelsDir;
  std::string rubric = defaultRubric();
  std::string device = "auto";
  std::vector<std::string> sizes{"course", "4096x4096"};
  std::vector<std::string> tasks;
  int runs = 100;
  int warmups = 10;
  std::string json;
};

/// "course" keeps the case's size; "WxH" sets it.
bool applySize(const std::string& size, CaseSpec* spec, std::string* label) {
  if (size == "course") {
    *label = spec->params.count("width") ? spec->params["width"] + "x" + spec->params["height"] : "default";
    return true;
  }
  int w = 0, h = 0;
  char x = 0;
  std::istringstream in(size);
  if (!(in >> w >> x >> h) || x != 'x' || w < 1 || h < 1) return false;
  spec->params["width"] = std::to_string(w);
  spec->params["height"] = std::to_string(h);
  *label = size;
  return true;
}

void printFigure(const std::string& task, const std::string& size, const KernelFigure& f) {
  if (!f.error.empty()) {
    std::printf("%-10s %-31s %-10s %s\n", task.c_str(), f.kernel.c_str(), size.c_str(), f.error.c_str());
    return;
  }
  char floor[16] = "-";
  if (f.launchFloorMs > 0) std::snprintf(floor, sizeof floor, "%.1f", f.launchFloorMs * 1e3);
  std::printf("%-10s %-31s %-10s %10.1f %5.1f%% %5.1f%% %9.1f %9.1f %9s %8.1f %7.2f %6.0f%%%s\n", task.c_str(),
              f.kernel.c_str(), size.c_str(), f.time.medianMs * 1e3, 100 * f.time.cv, 100 * f.time.robustCv,
              f.time.minMs * 1e3, f.time.maxMs * 1e3, floor, f.gbPerS, f.gpixPerS, 100 * f.ofRoofline,
              f.untrusted.empty() ? "" : "  *");
}

int benchCommand(const BenchArgs& args) {
  Rubric rubric;
  if (!loadRubricOrComplain(args.rubric, &rubric)) return kUsage;
  DeviceEntry device;
  std::string err;
  if (!chooseDevice(args.device, &device, &err)) {
    std::cerr << "clgrade: " << err << "\n";
    return kNoDevice;
  }
  const Runtime rt(device);
  // The same folder shapes as grade: the .cl files, or a submission folder with kernels/ inside.
  const SubmissionFolder folder =
      resolveSubmission(args.kernelsDir.empty() ? dataPath("reference/kernels") : args.kernelsDir);
  if (!folder.problem.empty()) {
    std::cerr << "clgrade: " << folder.problem << "\n";
    return kUsage;
  }
  const std::string& dir = folder.kernelsDir;
  PerfSettings settings = rubric.perf;
  settings.runs = settings.cpuRuns = args.runs;
  settings.warmups = settings.cpuWarmups = args.warmups;
  std::printf(
      "device: %s\nkernels: %s\n%d warm-up and %d timed launches per kernel (profiling events); copy = a "
      "plain float4 copy of one plane in the same run; floor = an empty kernel launched the same way (what "
      "the launch alone costs); rCV = IQR/1.349/median; * = not trusted for grading\n\n",
      deviceLine(device.info).c_str(), dir.c_str(), args.warmups, args.runs);
  std::printf("%-10s %-31s %-10s %10s %6s %6s %9s %9s %9s %8s %7s %7s\n", "task", "kernel", "size", "median us", "CV",
              "rCV", "min us", "max us", "floor us", "GB/s", "Gpix/s", "of copy");
  if (device.info.type != "gpu")
    std::printf("(a %s device: every figure is indicative only)\n", device.info.type.c_str());
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  InputCache inputs;
  // Build logs of a failing build land here; the bench prints the failure itself.
  EvidenceWriter evidence((std::filesystem::temp_directory_path() / "clgrade-bench").string());
  for (const TaskRubric& t : rubric.tasks) {
    if (!args.tasks.empty() && std::find(args.tasks.begin(), args.tasks.end(), t.id) == args.tasks.end()) continue;
    const Task* task = findTask(t.id);
    CaseSpec base;
    if (!t.performanceCase(false, &base)) continue;
    // Read under the grading policy: includes only from the folder itself, expanded here.
    const KernelSource loaded = loadKernelSource(dir, task->info().file);
    if (!loaded.problem.empty()) {
      std::printf("%-10s %s\n", t.id.c_str(), loaded.problem.c_str());
      continue;
    }
    const std::string& source = loaded.text;
    for (const std::string& size : args.sizes) {
      PerfRequest request;
      request.task = task;
      request.spec = base;
      std::string label;
      if (!applySize(size, &request.spec, &label)) {
        std::cerr << "clgrade: --size " << size << ": expected course or WxH\n";
        return kUsage;
      }
      request.source = source;
      request.settings = settings;
      request.grade = rubric.settings;
      const PerformanceReport report = measurePerformance(rt, request, inputs, evidence);
      if (!report.problem.empty())
        std::printf("%-10s %-31s %-10s %s\n", t.id.c_str(), "", label.c_str(), report.problem.c_str());
      for (const KernelFigure& f : report.kernels) printFigure(t.id, label, f);
      printFigure(t.id, label, report.copy);
      // Two more limits for people reading the table: a copy with one float per work-item (what a
      // kernel moving one pixel per work-item can reach) and a plain read (for read-mostly kernels).
      const size_t planeBytes = static_cast<size_t>(report.copy.pixels) * sizeof(float);
      LaunchFloors floors(rt, settings);
      for (int variant : {0, 1}) {
        KernelFigure extra;
        try {
          extra = measureLaunch(rt, variant == 0 ? copyLaunch(rt, planeBytes, false) : readLaunch(rt, planeBytes),
                                settings, &floors);
          extra.ofRoofline = report.copy.gbPerS > 0 ? extra.gbPerS / report.copy.gbPerS : 0;
        } catch (const cl::Error& e) {  // building the kernel failed
          extra.kernel = variant == 0 ? "copy (float)" : "read";
          extra.error = e.what();
        }
        printFigure(t.id, label, extra);
      }
      all.push_back({{"task", t.id}, {"size", label}, {"performance", performanceJson(report)}});
    }
  }
  if (!args.json.empty() && !writeFileAtomically(args.json, all.dump(2) + "\n", &err)) {
    std::cerr << "clgrade: " << err << "\n";
    return kOutput;
  }
  return kOk;
}

}  // namespace

void addBenchCommand(CLI::App& app, Commands* commands) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* sub =
      app.add_subcommand("bench", "time kernels (default: the reference kernels) against the copy roofline");
  sub->add_option("kernels-dir", args->kernelsDir, "folder holding the .cl files (default reference/kernels)");
  sub->add_option("--rubric", args->rubric, "rubric whose <performance> cases are timed")->capture_default_str();
  sub->add_option("--device", args->device, "auto | cpu | gpu | <platform-substring>[:index]")->capture_default_str();
  sub->add_option("--size", args->sizes, "course (the case's size) or WxH; repeatable")->capture_default_str();
  sub->add_option("--task", args->tasks, "only this task (repeatable)");
  sub->add_option("--runs", args->runs, "timed launches per kernel")
      ->capture_default_str()
      ->check(CLI::Range(3, 100000));
  sub->add_option("--warmups", args->warmups, "launches before timing")->capture_default_str();
  sub->add_option("--json", args->json, "also write every figure to this JSON file");
  commands->push_back({sub, [args] { return benchCommand(*args); }});
}

}  // namespace clgrade::cli
