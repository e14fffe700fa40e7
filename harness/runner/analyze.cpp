// `clgrade analyze`: a task's analysis case on the Oclgrind device, inside the runner's sandbox.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "checks/evidence.h"
#include "cl/runtime.h"
#include "grading/analysis.h"
#include "intake/source_policy.h"
#include "rubric/rubric.h"
#include "runner/runner.h"
#include "tasks/task_context.h"
#include "util/files.h"

namespace clgrade {

bool analysisCase(const Rubric& rubric, const std::string& taskId, AnalysisInput* in, std::string* err, bool drawn) {
  const TaskRubric* taskRubric = nullptr;
  for (const TaskRubric& t : rubric.tasks)
    if (t.id == taskId) taskRubric = &t;
  in->task = findTask(taskId);
  if (!taskRubric || !in->task || !(drawn ? taskRubric->drawnAnalysisCase(&in->spec) : taskRubric->analysisCase(&in->spec))) {
    *err = std::string("the rubric has no ") + (drawn ? "drawn " : "") + "<analysis> for task '" + taskId + "'";
    return false;
  }
  return true;
}

bool analysisInput(const std::string& kernelsDir, const Rubric& rubric, const std::string& taskId, AnalysisInput* in,
                   std::string* err) {
  if (!analysisCase(rubric, taskId, in, err)) return false;
  // The same policy as grading: the file of the kernels folder with its #include files expanded.
  const KernelSource loaded = loadKernelSource(kernelsDir, in->task->info().file);
  in->source = loaded.text;
  if (!loaded.problem.empty()) *err = loaded.problem;
  return loaded.problem.empty();
}

std::map<std::string, CaseOutcome> runAnalysisCase(const Runtime& runtime, const Rubric& rubric,
                                                   const AnalysisInput& in, const std::string& evidenceDir,
                                                   const HiddenSeeds* seeds) {
  EvidenceWriter evidence(evidenceDir);
  std::optional<InputCache> golden, hidden;
  InputCache& inputs = seeds ? hidden.emplace(*seeds) : golden.emplace();
  TaskContext ctx(runtime, in.task->info(), in.source, evidence, inputs, rubric.settings);
  std::map<std::string, CaseOutcome> outcomes;
  in.task->runCase(ctx, in.spec, &outcomes);
  for (const auto& [id, o] : outcomes)
    std::cerr << "clgrade: " << id << " on " << runtime.device.info.name << ": " << statusName(o.status) << ": "
              << o.message << "\n";
  return outcomes;
}

int analyzeInChild(const std::string& sourcePath, const std::string& rubricPath, const std::string& taskId,
                   const std::string& reportDir, bool drawn, const std::optional<HiddenSeeds>& seeds) {
  AnalysisInput in;
  DeviceEntry device;
  std::string err, text;
  Rubric rubric;
  std::vector<std::string> problems;
  // What the keeper handed over: the task's kernel file as its source policy read it (includes
  // expanded, so nothing is read from a kernels folder here) and the rubric's part for the task.
  if (!readFile(rubricPath, &text, &err, size_t(4) << 20) || !parseRubric(text, rubricPath, &rubric, &problems)) {
    std::cerr << "clgrade analyze: the rubric cannot be used: " << (problems.empty() ? err : problems.front()) << "\n";
    return 2;
  }
  if (!analysisCase(rubric, taskId, &in, &err, drawn) || !readFile(sourcePath, &in.source, &err, kMaxSourceBytes) ||
      !chooseDevice("oclgrind", &device, &err)) {
    std::cerr << "clgrade analyze: " << err << "\n";
    return 3;
  }
  Runtime runtime(device);
  runtime.guardBands = false;  // Oclgrind must see reads and writes past a buffer
  // The outcomes on the simulator go to its log: Oclgrind is strict, its view helps a person.
  const std::map<std::string, CaseOutcome> outcomes =
      runAnalysisCase(runtime, rubric, in, reportDir + "/evidence/" + taskId + (drawn ? "/simulator_drawn" : "/simulator"),
                      seeds ? &*seeds : nullptr);
  // For the keeper: one line per check, "id<TAB>status<TAB>message" (the message on one line).
  if (const char* path = std::getenv("CLGRADE_OUTCOMES_OUT")) {
    std::string text;
    for (const auto& [id, o] : outcomes) {
      std::string message = o.message, finding = o.finding;
      for (std::string* s : {&message, &finding})
        std::replace_if(
            s->begin(), s->end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
      text += id + "\t" + statusName(o.status) + "\t" + message + "\t" + finding + "\n";
    }
    std::string err;
    if (!writeFileAtomically(path, text, &err)) std::cerr << "clgrade analyze: " << err << "\n";
  }
  return 0;
}

}  // namespace clgrade
