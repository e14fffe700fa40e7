#include "grading/analysis.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "checks/evidence.h"
#include "cl/runtime.h"
#include "tasks/task_context.h"
#include "util/files.h"
#include "util/subprocess.h"

#ifndef CLGRADE_BINARY_DIR
#define CLGRADE_BINARY_DIR "."
#endif

namespace clgrade {

namespace fs = std::filesystem;

std::string defaultToolsDir() {
  const char* env = std::getenv("CLGRADE_TOOLS_DIR");
  return env && *env ? env : CLGRADE_BINARY_DIR;
}

AnalysisRun runAnalysis(const std::string& toolsDir, const std::string& kernelsDir, const Rubric& rubric,
                        const TaskRubric& task, const std::string& reportDir) {
  AnalysisRun run;
  const std::string clgrade = toolsDir + "/clgrade";
  const std::string plugin = toolsDir + "/libclgrade_oclgrind.so";
  const std::string icd = toolsDir + "/oclgrind-icd";
  std::error_code ec;
  // The ICD file names Oclgrind's runtime library: a build carried to a machine without Oclgrind
  // has the plugin but not the simulator.
  std::string runtimeLibrary;
  readFile(icd + "/oclgrind.icd", &runtimeLibrary, nullptr);
  while (!runtimeLibrary.empty() && std::isspace(static_cast<unsigned char>(runtimeLibrary.back()))) runtimeLibrary.pop_back();
  if (!fs::exists(plugin, ec) || !fs::exists(icd, ec) || !fs::exists(clgrade, ec) ||
      !fs::exists(runtimeLibrary, ec)) {
    run.outcome = AnalysisRun::Outcome::Unavailable;
    run.message = "the simulated counters need Oclgrind and clgrade's plugin (apt-get install oclgrind "
                  "liboclgrind-dev, then rebuild); not found in " + toolsDir;
    return run;
  }
  const std::string dir = "evidence/" + task.id;
  makeDirectories(reportDir + "/" + dir, nullptr);
  const std::string countersPath = reportDir + "/" + dir + "/counters.json";
  fs::remove(countersPath, ec);
  run.logPath = dir + "/simulator.log";
  std::map<std::string, std::string> env{
      {"OCL_ICD_VENDORS", icd},
      {"OCLGRIND_PLUGINS", plugin},
      {"CLGRADE_COUNTERS_OUT", countersPath},
      {"CLGRADE_BANKS", std::to_string(rubric.settings.banks)},
      {"CLGRADE_BANK_BYTES", std::to_string(rubric.settings.bankBytes)},
      {"CLGRADE_WARP_SIZE", std::to_string(rubric.settings.warpSize)},
      {"OCLGRIND_DATA_RACES", "1"},  // out-of-bounds checks are always on
  };
  if (rubric.settings.uninitializedCheck) env["OCLGRIND_UNINITIALIZED"] = "1";
  const ProcessResult p = runProcess({clgrade, "analyze", kernelsDir, "--rubric", rubric.path, "--task", task.id,
                                      "--out", reportDir},
                                     env, rubric.settings.analysisTimeoutSeconds, "", reportDir + "/" + run.logPath);
  run.seconds = p.seconds;
  std::string err, log;
  if (readFile(reportDir + "/" + run.logPath, &log, nullptr)) run.sanitizer = parseOclgrindLog(log);
  if (!p.ok()) {
    run.message = "the simulator run failed: " + p.describe();
    return run;
  }
  // No counters file: no kernel ran (the file did not compile, a kernel is missing); the
  // checks then say which kernel never ran. A malformed file is an error of ours.
  if (fs::exists(countersPath, ec) && !readCounters(countersPath, &run.counters, &err)) {
    run.message = "the simulator's counters cannot be read: " + err;
    return run;
  }
  run.outcome = AnalysisRun::Outcome::Ran;
  return run;
}

bool analysisInput(const std::string& kernelsDir, const Rubric& rubric, const std::string& taskId, AnalysisInput* in,
                   std::string* err) {
  const TaskRubric* taskRubric = nullptr;
  for (const TaskRubric& t : rubric.tasks)
    if (t.id == taskId) taskRubric = &t;
  in->task = findTask(taskId);
  if (!taskRubric || !in->task || !taskRubric->analysisCase(&in->spec)) {
    *err = "the rubric has no <analysis> for task '" + taskId + "'";
    return false;
  }
  return readFile(kernelsDir + "/" + in->task->info().file, &in->source, err);
}

void runAnalysisCase(const Runtime& runtime, const Rubric& rubric, const AnalysisInput& in,
                     const std::string& evidenceDir) {
  EvidenceWriter evidence(evidenceDir);
  InputCache inputs;
  TaskContext ctx(runtime, in.task->info(), in.source, evidence, inputs, rubric.settings);
  std::map<std::string, CaseOutcome> outcomes;
  in.task->runCase(ctx, in.spec, &outcomes);
  for (const auto& [id, o] : outcomes)
    std::cerr << "clgrade: " << id << " on " << runtime.device.info.name << ": " << statusName(o.status) << ": "
              << o.message << "\n";
}

int analyzeInChild(const std::string& kernelsDir, const Rubric& rubric, const std::string& taskId,
                   const std::string& reportDir) {
  AnalysisInput in;
  DeviceEntry device;
  std::string err;
  if (!analysisInput(kernelsDir, rubric, taskId, &in, &err) || !chooseDevice("oclgrind", &device, &err)) {
    std::cerr << "clgrade analyze: " << err << "\n";
    return 3;
  }
  Runtime runtime(device);
  runtime.guardBands = false;  // Oclgrind must see reads and writes past a buffer
  // The outcomes on the simulator go to its log: Oclgrind is strict, its view helps a person.
  runAnalysisCase(runtime, rubric, in, reportDir + "/evidence/" + taskId + "/simulator");
  return 0;
}

}  // namespace clgrade
