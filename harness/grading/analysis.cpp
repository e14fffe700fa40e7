#include "grading/analysis.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <iostream>
#include <sstream>

#include "checks/evidence.h"
#include "cl/device_step.h"
#include "cl/runtime.h"
#include "intake/source_policy.h"
#include "intake/source_quotes.h"
#include "sandbox/sandbox.h"
#include "tasks/task_context.h"
#include "util/files.h"
#include "util/subprocess.h"

namespace clgrade {

namespace fs = std::filesystem;

namespace {

/// What the simulator's process left: its log, its counters file, how it ended.
struct SimulatorOutput {
  bool available = false;
  std::string unavailable;  ///< why there is no simulator
  bool ok = false;
  std::string failure;  ///< how the process ended when not ok
  double seconds = 0;
  std::string log;
  bool hasCounters = false;
  std::string counters;
  std::string outcomes;  ///< the child's judgement of the value checks (CLGRADE_OUTCOMES_OUT)
};

/// Runs `clgrade analyze` under Oclgrind with the counting plugin; collects what it left. The child
/// gets the task's kernel file and the rubric's part for the task as files in a folder of its own (in
/// a sandbox: its scratch folder), never the kernels folder nor the rubric file.
SimulatorOutput spawnSimulator(const std::string& toolsDir, const std::string& source, const Rubric& rubric,
                               const TaskRubric& task, const std::string& reportDir, const std::string& countersPath,
                               const std::string& logPath, bool sandboxed, const std::vector<std::string>& caseArgs) {
  SimulatorOutput out;
  const std::string clgrade = toolsDir + "/clgrade";
  const std::string plugin = toolsDir + "/libclgrade_oclgrind.so";
  const std::string icd = toolsDir + "/oclgrind-icd";
  std::error_code ec;
  // The ICD file names Oclgrind's runtime library: a build carried to a machine without Oclgrind
  // has the plugin but not the simulator.
  std::string runtimeLibrary;
  readFile(icd + "/oclgrind.icd", &runtimeLibrary, nullptr);
  while (!runtimeLibrary.empty() && std::isspace(static_cast<unsigned char>(runtimeLibrary.back())))
    runtimeLibrary.pop_back();
  if (!fs::exists(plugin, ec) || !fs::exists(icd, ec) || !fs::exists(clgrade, ec) || !fs::exists(runtimeLibrary, ec)) {
    out.unavailable =
        "the simulated counters need Oclgrind and clgrade's plugin (apt-get install oclgrind "
        "liboclgrind-dev, then rebuild); not found in " +
        toolsDir;
    return out;
  }
  out.available = true;
  std::string scratch = (fs::temp_directory_path(ec) / "clgrade-simulator-XXXXXX").string();
  if (!mkdtemp(scratch.data())) {
    out.failure = "no scratch folder for the simulator";
    return out;
  }
  const std::string sourcePath = scratch + "/source.cl", rubricPath = scratch + "/rubric.xml";
  std::string err;
  if (!writeFileAtomically(sourcePath, source, &err, false) ||
      !writeFileAtomically(rubricPath, rubricForTask(rubric, task.id), &err, false)) {
    out.failure = "the simulator's inputs cannot be written: " + err;
    fs::remove_all(scratch, ec);
    return out;
  }
  fs::remove(countersPath, ec);
  std::map<std::string, std::string> env{
      {"OCL_ICD_VENDORS", icd},
      {"OCLGRIND_PLUGINS", plugin},
      {"CLGRADE_COUNTERS_OUT", countersPath},
      {"CLGRADE_OUTCOMES_OUT", countersPath + ".outcomes"},
      {"CLGRADE_BANKS", std::to_string(rubric.settings.banks)},
      {"CLGRADE_BANK_BYTES", std::to_string(rubric.settings.bankBytes)},
      {"CLGRADE_WARP_SIZE", std::to_string(rubric.settings.warpSize)},
  };
  // The sanitizers' findings are read from the rubric's analysis case only (one defect is reported
  // once): the drawn case's run counts, and skips the race detector, a good part of its cost.
  const bool drawn = std::find(caseArgs.begin(), caseArgs.end(), "--drawn") != caseArgs.end();
  if (!drawn) env["OCLGRIND_DATA_RACES"] = "1";  // out-of-bounds checks are always on
  if (rubric.settings.uninitializedCheck && !drawn) env["OCLGRIND_UNINITIALIZED"] = "1";
  ProcessSpec spec;
  spec.argv = {clgrade,    "analyze", "--source", sourcePath, "--rubric",
               rubricPath, "--task",  task.id,    "--out",    reportDir};
  spec.argv.insert(spec.argv.end(), caseArgs.begin(), caseArgs.end());
  spec.env = env;
  spec.timeoutSeconds = rubric.settings.analysisTimeoutSeconds;
  spec.stderrPath = reportDir + "/" + logPath;
  std::string counters = countersPath;
  if (sandboxed) {
    // A sandbox of its own, started by the keeper: its counters never pass through a process that ran
    // the kernels natively (on PoCL a runner could rewrite them), and only the keeper reads them.
    counters = scratch + "/counters.json";
    auto whole = [&](const std::string& path) { return fs::absolute(path, ec).lexically_normal().string(); };
    SandboxSpec box;
    box.scratch = scratch;
    for (const std::string& path : {clgrade, plugin, icd}) box.mounts.push_back({whole(path), false});
    env["CLGRADE_COUNTERS_OUT"] = counters;
    env["CLGRADE_OUTCOMES_OUT"] = counters + ".outcomes";
    box.env = openclEnvironment(scratch, env);
    spec.argv = {whole(clgrade), "analyze", "--source", sourcePath, "--rubric",
                 rubricPath,     "--task",  task.id,    "--out",    scratch + "/out"};
    spec.argv.insert(spec.argv.end(), caseArgs.begin(), caseArgs.end());
    if (!sandboxProcess(box, &spec, &err)) {
      out.failure = err;
      fs::remove_all(scratch, ec);
      return out;
    }
  }
  const ProcessResult p = runProcess(spec);
  out.seconds = p.seconds;
  out.ok = p.ok();
  out.failure = p.describe();
  readFile(reportDir + "/" + logPath, &out.log, nullptr);
  out.hasCounters = readUntrustedFile(counters, size_t(256) << 20, &out.counters);
  readUntrustedFile(counters + ".outcomes", size_t(1) << 20, &out.outcomes);
  fs::remove(counters + ".outcomes", ec);
  fs::remove_all(scratch, ec);
  return out;
}

/// Oclgrind quotes a finding's line by its number in the text it compiled, which holds clgrade's
/// prelude (compiler_identity.h) and #line directives before the file's lines: before, every quote
/// was another line's. The line numbers are right (the compiler follows #line), so each line is
/// quoted from the file the finding names, as the source policy expanded it.
void quoteFromFiles(const std::string& source, const std::string& mainFile, SanitizerLog* log) {
  KernelSource expanded;
  expanded.text = source;
  const FileLines files = linesByFile(expanded, mainFile);
  auto quote = [&](const std::string& file, int line, std::string* code) {
    // A file the expansion does not name (a path of the simulator's own): the main file's line.
    const bool known = std::any_of(files.begin(), files.end(), [&](const auto& f) { return f.first == file; });
    const std::string& wanted = known ? file : mainFile;
    code->clear();
    for (const auto& [name, lines] : files) {
      if (name != wanted) continue;
      const auto it = lines.find(line);
      if (it == lines.end()) continue;
      const size_t start = it->second.find_first_not_of(" \t");
      *code = start == std::string::npos ? "" : it->second.substr(start);
    }
  };
  for (SanitizerFinding& f : log->findings) {
    if (f.line > 0) quote(f.file, f.line, &f.code);
    if (f.otherLine > 0) quote(f.otherFile, f.otherLine, &f.otherCode);
  }
}

}  // namespace

AnalysisRun runAnalysis(const Runtime& rt, const std::string& toolsDir, const std::string& source, const Rubric& rubric,
                        const TaskRubric& task, const std::string& reportDir, bool drawn,
                        const std::optional<HiddenSeeds>& seeds) {
  AnalysisRun run;
  const std::string dir = "evidence/" + task.id, suffix = drawn ? "_drawn" : "";
  makeDirectories(reportDir + "/" + dir, nullptr);
  const std::string countersPath = reportDir + "/" + dir + "/counters" + suffix + ".json";
  run.logPath = dir + "/simulator" + suffix + ".log";
  std::vector<std::string> caseArgs;
  if (drawn) caseArgs.push_back("--drawn");
  if (seeds) for (const std::string& a : hiddenSeedsArgs(*seeds)) caseArgs.push_back(a);
  // The simulator interprets the kernels (it runs none natively), so it is not a step of the runner:
  // the keeper starts it in a sandbox of its own while it replays; a runner leaves it out (its
  // verdicts are thrown away). Graded in one process (--in-process), it runs here unsandboxed.
  if (rt.tape && !rt.replaying()) {
    run.outcome = AnalysisRun::Outcome::Unavailable;
    run.message = "run by the keeper";
    run.logPath.clear();
    return run;
  }
  const SimulatorOutput out =
      spawnSimulator(toolsDir, source, rubric, task, reportDir, countersPath, run.logPath, rt.replaying(), caseArgs);
  const bool available = out.available, ok = out.ok, hasCounters = out.hasCounters;
  const std::string &unavailable = out.unavailable, &failure = out.failure, &log = out.log, &counters = out.counters;
  run.seconds = out.seconds;
  if (!available) {
    run.outcome = AnalysisRun::Outcome::Unavailable;
    run.message = unavailable;
    run.logPath.clear();
    return run;
  }
  std::string err;
  writeFileAtomically(reportDir + "/" + run.logPath, log, nullptr);
  run.sanitizer = parseOclgrindLog(log);
  if (const Task* known = findTask(task.id)) quoteFromFiles(source, known->info().file, &run.sanitizer);
  if (!ok) {
    run.message = "the simulator run failed: " + failure;
    return run;
  }
  // No counters file: no kernel ran (the file did not compile, a kernel is missing); the
  // checks then say which kernel never ran. A malformed file is reported as such.
  std::error_code ec;
  fs::remove(countersPath, ec);
  if (hasCounters) {
    writeFileAtomically(countersPath, counters, nullptr);
    if (!readCounters(countersPath, &run.counters, &err)) {
      run.message = "the simulator's counters cannot be read: " + err;
      return run;
    }
  }
  std::istringstream lines(out.outcomes);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t a = line.find('\t'), b = a == std::string::npos ? a : line.find('\t', a + 1);
    Status status;
    if (b == std::string::npos || !statusFromName(line.substr(a + 1, b - a - 1), &status)) continue;
    // id, status, message and (since the findings) the finding, tab-separated.
    const size_t c = line.find('\t', b + 1);
    run.outputs[line.substr(0, a)] = {status,
                                      line.substr(b + 1, c == std::string::npos ? std::string::npos : c - b - 1)};
    if (c != std::string::npos) run.findings[line.substr(0, a)] = line.substr(c + 1);
  }
  run.outcome = AnalysisRun::Outcome::Ran;
  return run;
}

namespace {

/// One outcome of a simulator run, named after its case: the rubric's analysis case, or the drawn
/// one ("analysis (analysis_drawn at 256x32)"; students see either as "the simulator's run").
CaseOutcome analysisOutcome(const TaskRubric& t, const AnalysisRun& run, bool drawn = false) {
  CaseOutcome o;
  CaseSpec spec;
  if (drawn && t.drawnAnalysisCase(&spec)) {
    o.caseId = "analysis (" + t.analysis.drawnCaseId + " at " + spec.params["width"] + "x" + spec.params["height"] + ")";
    o.visible = false;
  } else {
    o.caseId = "analysis (" + t.analysis.caseId +
               (t.analysis.width > 0 ? " at " + std::to_string(t.analysis.width) + "x" + std::to_string(t.analysis.height)
                                     : std::string()) +
               ")";
    // The analysis case is one of the rubric's cases (often a hidden one): as visible as it is.
    o.visible = true;
    for (const CaseSpec& c : t.cases)
      if (c.id == t.analysis.caseId) o.visible = c.visible;
  }
  if (!run.logPath.empty()) o.evidence.push_back({"simulator log (Oclgrind)", run.logPath});
  return o;
}

/// "Convolution line 47": a kernel and the line of what it did (when the compiler kept one).
std::string whereIn(const KernelCounters& k, int line) {
  return k.name + (line ? " line " + std::to_string(line) : std::string());
}

/// Why the simulated run of `k` may not be what the device ran, in a clause ("reads a pointer's value,
/// ..."); "" when nothing says so. Spec 5c: the simulator's addresses and its zeroed local memory are
/// no device's, so a kernel that reads either can run its technique, or its barrier, there alone.
std::string simulatorMayDiffer(const KernelCounters& k) {
  if (k.pointerValueRead)
    return whereIn(k, k.pointerValueLine) +
           " reads a pointer's value (a pointer cast to an integer, stored and read back as a number, or compared "
           "with a fixed address): the simulator's buffers lie at addresses no device gives";
  if (k.unsetLocalRead)
    return whereIn(k, k.unsetLocalLine) +
           " reads local memory that no work-item of its group stored before: what it holds is undefined, zeros in "
           "the simulator and what another work-group left on a device (found by a gaming corpus)";
  if (k.undefinedOperation)
    return whereIn(k, k.undefinedOperationLine) +
           " computes an undefined result (a float converted to an integer out of its range, or an integer "
           "division by zero): each compiler gives its own value, the simulator's not the device's (found by a "
           "gaming corpus)";
  return "";
}

/// Why the checks `k` decides get no clean bill from the simulator's race detector, as a finding
/// would say it; "" when nothing says so.
std::string raceTheDetectorMisses(const KernelCounters& k) {
  if (k.orderDependentWrite)
    return "work-items of one group exchange different values into the same local word at " +
           whereIn(k, k.orderDependentWriteLine) +
           " with no barrier between (an atomic exchange): the word keeps whichever comes last, in an order no "
           "device promises; a barrier is missing, or one work-item must write it (found by a gaming corpus)";
  if (const std::string why = simulatorMayDiffer(k); !why.empty())
    return why + "; so the simulator's race and bounds checks cannot vouch for what the device ran (spec 5c)";
  return "";
}

/// A data race or out-of-bounds access in a kernel fails (or annotates) the checks it decides; a
/// write outside a global buffer goes to the check of stray writes, where the task has one (one
/// defect costs in one place: spec section 5).
void applySanitizer(const Task& task, const TaskRubric& t, const Rubric& rubric, const AnalysisRun& run,
                    std::map<std::string, CheckResult>* checks) {
  std::map<std::string, std::vector<const SanitizerFinding*>> byCheck;
  const std::string writes = strayWritesCheck().id;
  const bool hasWrites = std::any_of(task.info().checks.begin(), task.info().checks.end(),
                                     [&](const CheckInfo& ci) { return ci.id == writes; });
  for (const SanitizerFinding& f : run.sanitizer.findings) {
    if (hasWrites && f.isStrayGlobalWrite()) {
      byCheck[writes].push_back(&f);
      continue;
    }
    auto it = task.info().kernelChecks.find(f.kernel);
    if (it == task.info().kernelChecks.end()) continue;
    for (const std::string& check : it->second) byCheck[check].push_back(&f);
  }
  for (const auto& [checkId, findings] : byCheck) {
    CaseOutcome o = analysisOutcome(t, run);
    const bool fail = rubric.settings.sanitizerFindingsFail;
    o.status = fail ? Status::Failed : Status::Passed;
    o.message = findings.front()->explanation();
    if (findings.size() > 1) o.message += " (and " + std::to_string(findings.size() - 1) + " more findings)";
    if (!fail) o.message = "not graded (rubric setting): " + o.message;
    for (const SanitizerFinding* f : findings) {
      o.details.push_back(f->kind + (f->space.empty() ? "" : " (" + f->space + " memory)") + ", " + f->kernel +
                          " line " + std::to_string(f->line) + ": " + f->code +
                          (f->otherLine ? "  /  line " + std::to_string(f->otherLine) + ": " + f->otherCode : "") +
                          " (" + std::to_string(f->count) + " reports)");
    }
    if (run.sanitizer.truncated) o.details.push_back("Oclgrind stopped after its error limit; there may be more");
    (*checks)[checkId].cases.push_back(o);
  }
  // Spec 5c and 9: the race detector is the reliable check, and a kernel that reads a pointer's value
  // could run without its race there alone (found by a gaming corpus: a barrier kept only where
  // Oclgrind's addresses said so). Its checks get no clean bill from this run.
  for (const KernelCounters& k : run.counters.kernels) {
    const auto decides = task.info().kernelChecks.find(k.name);
    const std::string why = raceTheDetectorMisses(k);
    if (why.empty() || decides == task.info().kernelChecks.end()) continue;
    for (const std::string& checkId : decides->second) {
      if (byCheck.count(checkId)) continue;  // its findings said already
      CaseOutcome o = analysisOutcome(t, run);
      const bool fail = rubric.settings.sanitizerFindingsFail;
      o.status = fail ? Status::Failed : Status::Passed;
      o.message = (fail ? "" : "not graded (rubric setting): ") + why;
      (*checks)[checkId].cases.push_back(o);
    }
  }
}

}  // namespace

namespace {

/// Spec 5c: a kernel that read a pointer's value or local memory its group never stored could tell
/// the simulator apart (simulatorMayDiffer), so what it counted there need not be what the device ran:
/// the technique gets nothing, with the reason. "" when no kernel did.
std::string simulatedRunNotTheDevices(const CounterReport& counters) {
  for (const KernelCounters& k : counters.kernels)
    if (const std::string why = simulatorMayDiffer(k); !why.empty())
      return why +
             "; so what the simulator counted need not be what the device ran, and the technique gets nothing "
             "(spec 5c)";
  return "";
}

/// The technique outcome of one simulator run for a simulated check.
CaseOutcome techniqueOutcome(const Task& task, const TaskRubric& taskRubric, const CheckInfo& ci, const CaseSpec& spec,
                             const AnalysisRun& run, bool drawn) {
  CaseOutcome o = analysisOutcome(taskRubric, run, drawn);
  if (!taskRubric.needsCheck(ci.id)) {
    o.status = Status::NotMeasured;
    o.message = "no criterion of the rubric needs it";
  } else if (run.outcome == AnalysisRun::Outcome::Unavailable) {
    o.status = Status::NotMeasured;
    o.message = run.message;
  } else if (run.outcome == AnalysisRun::Outcome::Failed) {
    o.status = Status::Error;
    o.message = run.message;
  } else {
    if (const std::string why = simulatedRunNotTheDevices(run.counters); !why.empty()) {
      o.status = Status::Failed;
      o.message = why;
    } else {
      task.judgeSimulation(ci.id, run.counters, spec, &o);
    }
    o.evidence.push_back({"simulated counters (JSON)",
                          "evidence/" + taskRubric.id + "/counters" + (drawn ? "_drawn" : "") + ".json"});
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f", run.seconds);
    o.timings.push_back(std::string("simulator run: ") + seconds + " s");
  }
  return o;
}

/// True for a check that judges a case's values on the device (not counted, swept or derived).
bool valueCheck(const CheckInfo& ci) { return !ci.simulated && !ci.swept && !ci.fromOtherChecks; }

/// The simulated run's value outcomes, added to their checks like any case's (spec 5b: every size a
/// kernel is analysed at is checked), so a kernel cannot behave at the simulator's size only. Only when
/// its kernels ran there (the child judged their writes): a file the simulator cannot build (inline
/// assembly, say) is the simulated checks' matter, not a wrong value.
void addSimulatedValues(const Task& task, const TaskRubric& taskRubric, const AnalysisRun& run, bool drawn,
                        bool visible, std::map<std::string, CheckResult>* checks) {
  if (run.outputs.count(strayWritesCheck().id) == 0) return;
  for (const CheckInfo& ci : task.info().checks) {
    const auto judged = run.outputs.find(ci.id);
    if (!valueCheck(ci) || judged == run.outputs.end()) continue;
    const Status s = judged->second.first;
    if (s != Status::Passed && s != Status::Failed && s != Status::Error) continue;
    CaseOutcome o = analysisOutcome(taskRubric, run, drawn);
    o.caseId += ", simulated";
    o.visible = visible;
    o.status = s;
    o.message = "in the simulator: " + judged->second.second;
    if (const auto f = run.findings.find(ci.id); f != run.findings.end()) o.finding = f->second;
    (*checks)[ci.id].cases.push_back(o);
  }
}

/// Spec 5c: the technique counts at the drawn case only where that run computed the right values,
/// and the device, on the same input, did too (else the analysed code is not the graded code).
void requireRightValues(const Task& task, const TaskRubric& taskRubric, const std::string& techniqueCheck,
                        const AnalysisRun& run, const std::string& drawnCaseId,
                        const std::map<std::string, CheckResult>& checks, CaseOutcome* o) {
  if (o->status != Status::Passed) return;
  const std::set<std::string> gated = valuesOfTechnique(task, taskRubric, techniqueCheck);
  for (const CheckInfo& ci : task.info().checks) {
    if (!valueCheck(ci) || !gated.count(ci.id)) continue;
    const auto simulated = run.outputs.find(ci.id);
    if (simulated != run.outputs.end() &&
        (simulated->second.first == Status::Failed || simulated->second.first == Status::Error)) {
      o->status = Status::Failed;
      o->message =
          "the technique counts only where the result is right (spec 5c), and the simulator's run of the "
          "drawn case computed wrong values: " +
          ci.id + ": " + simulated->second.second;
      return;
    }
  }
  std::string wrong;
  if (deviceWrongAt(task, drawnCaseId, gated, checks, &wrong)) {
    o->status = Status::Failed;
    o->message =
        "the device computed wrong values at the drawn case where the simulator's run of the same "
        "input was right, so the analysed code is not what was graded (spec 5c): " +
        wrong;
  }
}

}  // namespace

std::set<std::string> valuesOfTechnique(const Task& task, const TaskRubric& taskRubric,
                                        const std::string& techniqueCheck) {
  auto plain = [](const std::string& named) { return named.substr(0, named.find('@')); };
  std::set<std::string> named, values;
  for (const Criterion& c : taskRubric.criteria)
    if (std::any_of(c.checks.begin(), c.checks.end(), [&](const std::string& n) { return plain(n) == techniqueCheck; }))
      for (const std::string& n : c.checks) named.insert(plain(n));
  for (const CheckInfo& ci : task.info().checks)
    if (valueCheck(ci) && named.count(ci.id)) values.insert(ci.id);
  if (values.empty())
    for (const CheckInfo& ci : task.info().checks)
      if (valueCheck(ci)) values.insert(ci.id);
  return values;
}

bool deviceWrongAt(const Task& task, const std::string& caseId, const std::set<std::string>& valueChecks,
                   const std::map<std::string, CheckResult>& checks, std::string* what) {
  for (const CheckInfo& ci : task.info().checks) {
    if (!valueCheck(ci) || !valueChecks.count(ci.id)) continue;
    const auto device = checks.find(ci.id);
    if (device == checks.end()) continue;
    for (const CaseOutcome& c : device->second.cases)
      if (c.caseId == caseId && (c.status == Status::Failed || c.status == Status::Error)) {
        *what = ci.id + ": " + c.message;
        return true;
      }
  }
  return false;
}

void judgeWithSimulator(const Runtime& rt, const Task& task, const TaskRubric& taskRubric, const Rubric& rubric,
                        const AnalysisFolders& folders, std::map<std::string, CheckResult>* checks,
                        std::vector<CounterRow>* rows) {
  std::vector<const CheckInfo*> simulated;
  for (const CheckInfo& ci : task.info().checks)
    if (ci.simulated) simulated.push_back(&ci);
  CaseSpec spec;
  if (!taskRubric.analysisCase(&spec)) {
    for (const CheckInfo* ci : simulated) {
      CaseOutcome o;
      o.caseId = "analysis";
      o.status = Status::NotMeasured;
      o.message = "the rubric has no <analysis> case for this task";
      (*checks)[ci->id].cases = {o};
    }
    return;
  }
  // Spec 5c: in a grade the technique is judged at a second case as well, drawn from the hidden seed
  // (size and input): a kernel cannot keep its technique for the rubric's analysis size. Both runs
  // go side by side (each a process of its own).
  CaseSpec drawnSpec;
  const bool drawn = folders.hiddenSeeds && taskRubric.drawnAnalysisCase(&drawnSpec);
  std::future<AnalysisRun> drawnRun;
  if (drawn)
    drawnRun = std::async(std::launch::async, [&] {
      return runAnalysis(rt, folders.tools, folders.source, rubric, taskRubric, folders.report, true, folders.hiddenSeeds);
    });
  const AnalysisRun run =
      runAnalysis(rt, folders.tools, folders.source, rubric, taskRubric, folders.report, false, folders.hiddenSeeds);
  for (const CheckInfo* ci : simulated)
    (*checks)[ci->id].cases = {techniqueOutcome(task, taskRubric, *ci, spec, run, false)};
  addSimulatedValues(task, taskRubric, run, false, spec.visible, checks);
  if (run.outcome != AnalysisRun::Outcome::Unavailable) applySanitizer(task, taskRubric, rubric, run, checks);
  if (run.outcome == AnalysisRun::Outcome::Ran) *rows = counterRows(run.counters);
  if (!drawn) return;
  const AnalysisRun second = drawnRun.get();
  if (second.outcome == AnalysisRun::Outcome::Unavailable) {
    // No simulator here (a GPU machine without Oclgrind): the hardware counters judge the analysis
    // case's run alone; the drawn case is graded on the device all the same. Said, never hidden.
    for (const CheckInfo* ci : simulated)
      for (CaseOutcome& o : (*checks)[ci->id].cases)
        o.details.push_back("the technique at the drawn case is judged by the simulator only, which is not here: " +
                            second.message);  // no size: the analysis case may be a visible one
    return;
  }
  for (const CheckInfo* ci : simulated) {
    CaseOutcome o = techniqueOutcome(task, taskRubric, *ci, drawnSpec, second, true);
    if (taskRubric.needsCheck(ci->id))
      requireRightValues(task, taskRubric, ci->id, second, taskRubric.analysis.drawnCaseId, *checks, &o);
    (*checks)[ci->id].cases.push_back(o);
  }
  addSimulatedValues(task, taskRubric, second, true, false, checks);
  if (second.outcome == AnalysisRun::Outcome::Ran)
    for (CounterRow row : counterRows(second.counters)) {
      row.provider += " at the drawn case";
      rows->push_back(row);
    }
}

}  // namespace clgrade
