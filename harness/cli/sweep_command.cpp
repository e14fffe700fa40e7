// clgrade sweep: the performance experiment of the assignment sheet. The rubric's <sweep> case
// (separable by default) over RESULT_STEPS and group sizes: correctness at every point, times,
// and the chart (SVG and PNG) of bandwidth and time against RESULT_STEPS with the copy roofline.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "cl/device.h"
#include "cli/command.h"
#include "intake/source_policy.h"
#include "intake/submission.h"
#include "model/figures_json.h"
#include "perf/sweep.h"
#include "tasks/task.h"
#include "util/files.h"

namespace clgrade::cli {
namespace {

struct SweepArgs {
  std::string kernelsDir;
  std::string rubric = defaultRubric();
  std::string device = "auto";
  std::string task = "separable";
  std::string out;
  std::vector<int> steps;
  std::vector<std::string> groups;
  std::string size;
};

int sweepCommand(const SweepArgs& args) {
  Rubric rubric;
  if (!loadRubricOrComplain(args.rubric, &rubric)) return kUsage;
  const TaskRubric* t = nullptr;
  for (const TaskRubric& x : rubric.tasks)
    if (x.id == args.task) t = &x;
  if (!t || !t->sweep.present) {
    std::cerr << "clgrade: the rubric has no <sweep> for task '" << args.task << "'\n";
    return kUsage;
  }
  SweepRequest request;
  request.task = findTask(t->id);
  request.base = *t->findCase(t->sweep.caseId);
  request.steps = args.steps.empty() ? t->sweep.steps : args.steps;
  request.groups = t->sweep.groups;
  if (!args.groups.empty()) {
    request.groups.clear();
    for (const std::string& g : args.groups) {
      int x = 0, y = 0;
      char sep = 0;
      std::istringstream in(g);
      if (!(in >> x >> sep >> y) || sep != 'x' || x < 1 || y < 1) {
        std::cerr << "clgrade: --group " << g << ": expected a size like 32x16\n";
        return kUsage;
      }
      request.groups.push_back({x, y});
    }
  }
  request.timingWidth = t->sweep.width;
  request.timingHeight = t->sweep.height;
  if (!args.size.empty() && std::sscanf(args.size.c_str(), "%dx%d", &request.timingWidth, &request.timingHeight) != 2) {
    std::cerr << "clgrade: --size " << args.size << ": expected WxH\n";
    return kUsage;
  }
  for (int steps : request.steps)
    for (const auto& g : request.groups) {
      std::string err;
      if (!request.task->validateCase(sweepPoint(request.base, steps, g), &err)) {
        std::cerr << "clgrade: " << err << "\n";
        return kUsage;
      }
    }
  std::string err;
  // The same folder shapes as grade: the .cl files, or a submission folder with kernels/ inside.
  const SubmissionFolder folder = resolveSubmission(args.kernelsDir);
  if (!folder.problem.empty()) {
    std::cerr << "clgrade: " << folder.problem << "\n";
    return kUsage;
  }
  const KernelSource loaded = loadKernelSource(folder.kernelsDir, request.task->info().file);
  if (!loaded.problem.empty()) {
    std::cerr << "clgrade: " << loaded.problem << "\n";
    return kUsage;
  }
  request.source = loaded.text;
  request.checks = {};
  request.settings = rubric.perf;
  request.grade = rubric.settings;
  DeviceEntry device;
  if (!chooseDevice(args.device, &device, &err)) {
    std::cerr << "clgrade: " << err << "\n";
    return kNoDevice;
  }
  const std::string out = args.out.empty() ? "reports/sweep-" + submissionName(args.kernelsDir) : args.out;
  makeDirectories(out, nullptr);
  const Runtime rt(device);
  InputCache inputs;
  EvidenceWriter evidence(out);
  SweepReport report = runSweep(rt, request, inputs, evidence, nullptr);
  if (writeSweepChart(report, out, "sweep", &err)) {
    report.chartSvg = "sweep.svg";
    report.chartPng = "sweep.png";
  } else {
    std::cerr << "clgrade: the chart could not be written: " << err << "\n";
  }
  std::printf("device: %s\n%s%stimes at %dx%d, correctness at the case's own size\n\n", report.device.c_str(),
              report.note.c_str(), report.note.empty() ? "" : "\n", report.width, report.height);
  std::printf("%-16s %-8s %-32s %-32s\n", "point", "correct", "first pass: median us, GB/s, of copy", "second pass");
  for (const SweepPoint& p : report.points) {
    std::printf("%-16s %-8s", p.caseId.c_str(), p.correct ? "yes" : "NO");
    for (const KernelFigure& f : p.figures) {
      char cell[80];
      std::snprintf(cell, sizeof cell, "%s %.1f us %.1f GB/s %.0f%%", f.kernel.c_str(), f.time.medianMs * 1e3, f.gbPerS,
                    100 * f.ofRoofline);
      std::printf(" %-32s", cell);
    }
    std::printf("%s\n", p.correct ? "" : ("  " + p.problem).c_str());
  }
  std::printf("copy roofline: %.1f GB/s\n", report.copy.gbPerS);
  const std::string json = out + "/sweep.json";
  if (!writeFileAtomically(json, sweepJson(report).dump(2) + "\n", &err)) {
    std::cerr << "clgrade: " << err << "\n";
    return kOutput;
  }
  std::printf("wrote %s%s\n", json.c_str(),
              report.chartSvg.empty() ? "" : (", " + out + "/sweep.svg and .png").c_str());
  return report.incorrect() == 0 ? kOk : kFailures;
}

}  // namespace

void addSweepCommand(CLI::App& app, Commands* commands) {
  auto args = std::make_shared<SweepArgs>();
  CLI::App* sub = app.add_subcommand("sweep", "the RESULT_STEPS experiment: correctness at every point and the chart");
  sub->add_option("kernels-dir", args->kernelsDir, "folder holding the .cl files")->required();
  sub->add_option("--rubric", args->rubric, "rubric whose <sweep> is run")->capture_default_str();
  sub->add_option("--task", args->task, "the task swept")->capture_default_str();
  sub->add_option("--device", args->device, "auto | cpu | gpu | <platform-substring>[:index]")->capture_default_str();
  sub->add_option("--out", args->out, "folder for sweep.json, sweep.svg, sweep.png (default reports/sweep-<name>)");
  sub->add_option("--steps", args->steps, "RESULT_STEPS values (default: the rubric's)");
  sub->add_option("--group", args->groups, "group sizes like 32x16 (default: the rubric's; repeatable)");
  sub->add_option("--size", args->size, "timing size WxH on a GPU (default: the rubric's)");
  commands->push_back({sub, [args] { return sweepCommand(*args); }});
}

}  // namespace clgrade::cli
