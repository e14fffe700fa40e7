#include "grading/hardware.h"

#include "cl/device_step.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <iostream>
#include <map>
#include <set>

#include "checks/evidence.h"
#include "cl/kernel_args.h"
#include "cl/launch_signature.h"
#include "counters/nvidia/replay.h"
#include "grading/analysis.h"
#include "protocol/atomics_record.h"
#include "tasks/task_context.h"
#include "tasks/technique.h"
#include "util/files.h"
#include "util/search_path.h"
#include "util/subprocess.h"
#include "util/timing_lock.h"

namespace clgrade {

namespace fs = std::filesystem;

std::string findNcu() {
  if (const char* env = std::getenv("CLGRADE_NCU"); env && *env) return env;
  std::error_code ec;
  if (const std::string onPath = findOnPath("ncu"); !onPath.empty()) return onPath;
  if (fs::exists("/usr/local/cuda/bin/ncu", ec)) return "/usr/local/cuda/bin/ncu";
  if (fs::is_directory("/opt/nvidia/nsight-compute", ec))
    for (const auto& entry : fs::directory_iterator("/opt/nvidia/nsight-compute", ec))
      if (fs::exists(entry.path() / "ncu", ec)) return (entry.path() / "ncu").string();
  return "";
}

std::string ncuFor(const DeviceInfo& device, std::string* why) {
  if (!isNvidiaGpu(device)) {
    *why = "hardware counters are read on NVIDIA GPUs only; " + device.platform + " does not expose them";
    return "";
  }
  const std::string ncu = findNcu();
  if (ncu.empty()) *why = "NVIDIA's profiler ncu was not found (set CLGRADE_NCU or put ncu on the PATH)";
  return ncu;
}

namespace {

/// How a profiled process ended, as the record carries it.
std::string processSummary(const ProcessResult& p) {
  return tape::u64(p.ok()) + tape::str(p.describe()) + tape::f64(p.seconds);
}

struct EndedProcess {
  bool ok = false;
  std::string describe;
  double seconds = 0;
};

EndedProcess readProcessSummary(const std::string& bytes, size_t* at) {
  EndedProcess e;
  e.ok = tape::readU64(bytes, at) != 0;
  e.describe = tape::readStr(bytes, at);
  e.seconds = tape::readF64(bytes, at);
  return e;
}

std::string fileText(const std::string& path) {
  std::string text;
  readFile(path, &text, nullptr, size_t(512) << 20);
  return text;
}

}  // namespace

HardwareRun runHardwareCounters(const Runtime& rt, const std::string& toolsDir, const std::string& kernelsDir,
                                const Rubric& rubric, const TaskRubric& task, const std::string& reportDir) {
  HardwareRun run;
  const std::string dir = "evidence/" + task.id;
  const std::string logPath = dir + "/ncu.csv";
  // ncu runs where the kernels run (a device step); its CSV is parsed here, by the keeper when replayed.
  const std::string recorded = deviceStep(rt, "hardware-counters", [&] {
    std::string why;
    const std::string ncu = ncuFor(rt.device.info, &why);
    if (ncu.empty()) return tape::u64(0) + tape::str(why);
    // One profiler session at a time on the GPU; it leaves the clocks alone, so timings go on.
    const TimingLock turn(profilerLockFor(rt.timingLock));
    makeDirectories(reportDir + "/" + dir, nullptr);
    const std::string childLog = reportDir + "/" + dir + "/hardware.log";
    // Counts, not times: ncu leaves the clocks alone (by default it locks them to base, which would slow
    // another task's timing on the same GPU) and the caches (hardware_session.cpp says why).
    const ProcessResult p =
        runProcess({ncu, "--clock-control", "none", "--cache-control", "none", "--csv", "--log-file",
                    reportDir + "/" + logPath, "--metrics", kNcuSharedMetrics, toolsDir + "/clgrade", "hwcount",
                    kernelsDir, "--rubric", rubric.path, "--task", task.id, "--out", reportDir},
                   {}, rubric.settings.analysisTimeoutSeconds, childLog, childLog);
    return tape::u64(1) + tape::str("") + processSummary(p) + tape::str(fileText(reportDir + "/" + logPath)) +
           tape::str(fileText(childLog));
  });
  size_t at = 0;
  const bool ran = tape::readU64(recorded, &at) != 0;
  run.message = tape::readStr(recorded, &at);
  if (!ran) return run;
  const EndedProcess p = readProcessSummary(recorded, &at);
  const std::string csv = tape::readStr(recorded, &at);
  const std::string childLog = tape::readStr(recorded, &at);
  makeDirectories(reportDir + "/" + dir, nullptr);
  writeFileAtomically(reportDir + "/" + logPath, csv, nullptr);
  writeFileAtomically(reportDir + "/" + dir + "/hardware.log", childLog, nullptr);
  run.logPath = logPath;
  run.seconds = p.seconds;
  std::string err;
  if (!parseNcuCsv(csv, &run.counts, &err)) {
    // The permission error and "no kernels" come back here as messages a person can act on.
    run.outcome = err.find("ERR_NVGPUCTRPERM") != std::string::npos ? HardwareRun::Outcome::Unavailable
                                                                    : HardwareRun::Outcome::Failed;
    run.message = err + (p.ok ? "" : " (the profiled run: " + p.describe + ")");
    return run;
  }
  run.outcome = HardwareRun::Outcome::Ran;
  return run;
}

AtomicsRun readAtomicsRun(const std::string& recordText, const std::string& reportDir, const std::string& taskId,
                          const std::string& kernel, bool drawn) {
  AtomicsRun run;
  run.kernel = kernel;
  run.outcome = HardwareRun::Outcome::Failed;
  const std::string path = "evidence/" + taskId + (drawn ? "/atomics_drawn.txt" : "/atomics.txt");
  makeDirectories(reportDir + "/evidence/" + taskId, nullptr);
  writeFileAtomically(reportDir + "/" + path, recordText, nullptr);
  run.recordPath = path;
  AtomicsRecord record;
  std::string err;
  if (!readAtomicsRecord(recordText, &record, &err)) {
    run.message = "the atomics count of " + kernel + " does not read: " + err;
    return run;
  }
  if (record.kernel != kernel) {
    run.message = "the atomics count is of " + record.kernel + ", not of " + kernel;
    return run;
  }
  if (!record.error.empty()) {
    run.message = "the atomics of " + kernel + " could not be counted: " + record.error;
    return run;
  }
  run.counts.kernel = kernel;
  run.counts.blocks = 1;
  bool addedKnown = true;
  double added = 0;
  for (const AtomicsRecordSite& site : record.sites) {
    if (site.shared) {
      addedKnown = addedKnown && site.addedKnown;
      added += static_cast<double>(site.added);
    }
    run.counts.sharedAtomics += static_cast<double>(site.shared);
    run.counts.globalAtomics += static_cast<double>(site.global);
    if (site.shared) ++run.counts.sharedInstructions;
    if (site.global) ++run.counts.globalInstructions;
  }
  if (addedKnown) run.counts.sharedAdded = added;
  run.workGroups = record.workGroups;
  run.outcome = HardwareRun::Outcome::Ran;
  return run;
}

CounterReport hardwareAtomicsReport(const AtomicsRun& run, const std::string& deviceName) {
  CounterReport report;
  report.origin = "hardware (counted on " + deviceName + ")";
  KernelCounters k;
  k.name = run.kernel;
  k.invocations = run.counts.blocks;
  k.workGroups = run.workGroups;
  k.local.atomics = std::lround(run.counts.sharedAtomics);
  k.global.atomics = std::lround(run.counts.globalAtomics);
  if (run.counts.sharedAdded >= 0) k.local.atomicsAdded = std::lround(std::min(run.counts.sharedAdded, 1e15));
  report.notes[k.name] = std::to_string(k.local.atomics) + " local atomics and " + std::to_string(k.global.atomics) +
                         " global atomics by work-items, " + std::to_string(k.workGroups) + " work-groups";
  report.kernels.push_back(k);
  return report;
}

CounterReport hardwareAccessReport(const HardwareRun& run, const std::string& deviceName) {
  CounterReport report;
  report.origin = "hardware (" + run.countedBy + ", " + deviceName + ")";
  for (const HardwareCounts& c : run.counts) {
    KernelCounters k;
    k.name = c.kernel;
    k.invocations = c.launches;
    k.local.loads = std::lround(c.sharedLoadInstructions);
    k.local.stores = std::lround(c.sharedStoreInstructions);
    // For the per-tap rules: what global reads cost here is whole 32-byte sectors.
    if (c.globalLoadSectors >= 0) k.global.loadBytes = std::lround(c.globalLoadSectors * 32);
    k.workGroups = c.workGroups;
    k.groupSize[0] = c.groupSize[0];
    k.groupSize[1] = c.groupSize[1];
    if (c.groupSize[0] > 0) k.groupSize[2] = 1;
    report.notes[k.name] = std::to_string(k.local.loads) + " shared load and " + std::to_string(k.local.stores) +
                           " shared store warp instructions";
    report.kernels.push_back(k);
  }
  return report;
}

void judgeAtomicsFromHardware(const Task& task, const std::string& checkId, const CaseSpec& spec, const AtomicsRun& run,
                              const std::string& deviceName, CaseOutcome* o) {
  if (run.outcome != HardwareRun::Outcome::Ran) {
    o->details.push_back("hardware atomics (counted per work-item on the GPU): " + run.message);
    if (!run.recordPath.empty()) o->evidence.push_back({"hardware atomics per PTX instruction", run.recordPath});
    return;
  }
  const std::string simulator = o->message;
  task.judgeSimulation(checkId, hardwareAtomicsReport(run, deviceName), spec, o);
  o->message += " (counted per work-item on " + deviceName + ")";
  if (!simulator.empty()) o->details.push_back("not simulated: " + simulator);
  o->evidence.push_back({"hardware atomics per PTX instruction (a counter before each atomic, on the GPU)",
                         run.recordPath});
}

bool countersReadBy(const Task& task, const TaskRubric& taskRubric, std::vector<std::string>* kernels) {
  kernels->clear();
  bool read = false, all = false;
  for (const CheckInfo& ci : task.info().checks) {
    if (!taskRubric.needsCheck(ci.id)) continue;
    std::vector<std::string> named;
    if (ci.hardware.kind == HardwareRule::Kind::AccessCounts) {
      read = true;
      all = all || ci.hardware.kernels.empty();
      named = ci.hardware.kernels;
    }
    if (ci.hardware.kind == HardwareRule::Kind::StoreConflicts) {
      read = true;
      named = {ci.hardware.kernel};
    }
    for (const std::string& k : named)
      if (std::find(kernels->begin(), kernels->end(), k) == kernels->end()) kernels->push_back(k);
  }
  if (all) kernels->clear();
  return read;
}

std::vector<std::string> atomicsKernelsToCount(const Task& task, const TaskRubric& taskRubric) {
  std::vector<std::string> kernels;
  for (const CheckInfo& ci : task.info().checks)
    if (ci.hardware.kind == HardwareRule::Kind::AtomicsPerWorkItem && taskRubric.needsCheck(ci.id) &&
        std::find(kernels.begin(), kernels.end(), ci.hardware.kernel) == kernels.end())
      kernels.push_back(ci.hardware.kernel);
  return kernels;
}

namespace {

/// Spec 5c, on a machine without the simulator: the technique at a grade's drawn analysis case,
/// judged from its counters (the same session's, HardwareRun::drawnCounts) by each check's hardware
/// rule, and counted only where the device computed the right values there. A check the simulator
/// judged at the drawn case keeps that outcome; atomics at the drawn case are not counted (said).
void judgeDrawnWithHardware(const Runtime& rt, const Task& task, const TaskRubric& taskRubric, const Rubric& rubric,
                            const HardwareRun& run, std::map<std::string, CheckResult>* checks) {
  CaseSpec spec;
  if (!run.drawnAsked || run.outcome != HardwareRun::Outcome::Ran || !taskRubric.drawnAnalysisCase(&spec)) return;
  const std::string prefix = "analysis (" + taskRubric.analysis.drawnCaseId + " at ";
  const std::string caseId = prefix + spec.params["width"] + "x" + spec.params["height"] + ")";
  HardwareRun drawn = run;
  drawn.counts = run.drawnCounts;
  const std::string device = rt.device.info.name;
  for (const CheckInfo& ci : task.info().checks) {
    if (!ci.simulated || !taskRubric.needsCheck(ci.id)) continue;
    std::vector<CaseOutcome>& cases = (*checks)[ci.id].cases;
    if (std::any_of(cases.begin(), cases.end(), [&](const CaseOutcome& c) { return c.caseId.rfind(prefix, 0) == 0; }))
      continue;
    const HardwareRule& rule = ci.hardware;
    const auto atomics = std::find_if(run.drawnAtomics.begin(), run.drawnAtomics.end(),
                                      [&](const AtomicsRun& a) { return a.kernel == rule.kernel; });
    const bool countsAtomics = rule.kind == HardwareRule::Kind::AtomicsPerWorkItem && atomics != run.drawnAtomics.end();
    if (rule.kind != HardwareRule::Kind::AccessCounts && rule.kind != HardwareRule::Kind::StoreConflicts &&
        !countsAtomics) {
      for (CaseOutcome& c : cases)
        c.details.push_back("the technique at the drawn case: " + ci.id +
                            " is judged by the simulator only there, which is not here (the counters judge " +
                            "the rubric's analysis case)");
      continue;
    }
    // The simulator's absence was said on each outcome; the counters answer it now.
    for (CaseOutcome& c : cases)
      c.details.erase(std::remove_if(c.details.begin(), c.details.end(),
                                     [](const std::string& d) {
                                       return d.rfind("the technique at the drawn case is judged by the simulator", 0) == 0;
                                     }),
                      c.details.end());
    CaseOutcome o;
    o.caseId = caseId;
    o.visible = false;
    o.status = Status::NotMeasured;
    if (countsAtomics) {
      judgeAtomicsFromHardware(task, ci.id, spec, *atomics, device, &o);
      if (o.status == Status::NotMeasured && atomics->outcome == HardwareRun::Outcome::Failed) {  // in a session that counted
        o.status = Status::Error;
        o.message = "the atomics at the drawn case could not be counted: " + atomics->message;
      }
    } else if (run.drawnCounts.empty()) {
      o.status = Status::Error;
      o.message = run.countedBy + " counted no launch of the drawn case's kernels (see hardware.log)";
    } else if (rule.kind == HardwareRule::Kind::AccessCounts) {
      task.judgeSimulation(ci.id, hardwareAccessReport(drawn, device), spec, &o);
      o.message += " (shared-memory instructions counted by " + run.countedBy + " on " + device + " at the drawn case)";
    } else {
      judgeStoreConflictsFromHardware(rule, drawn.counts, rubric.settings.hardwareConflictTolerance, &o);
    }
    std::string wrong;
    if (o.status == Status::Passed &&
        deviceWrongAt(task, taskRubric.analysis.drawnCaseId, valuesOfTechnique(task, taskRubric, ci.id), *checks,
                      &wrong)) {
      o.status = Status::Failed;
      o.message = "the technique counts only where the result is right (spec 5c), and the device computed wrong "
                  "values at the drawn case: " + wrong;
    }
    if (!run.logPath.empty()) o.evidence.push_back({"hardware counters (CSV, " + run.countedBy + ")", run.logPath});
    cases.push_back(o);
  }
}

}  // namespace

void judgeWithHardware(const Runtime& rt, const Task& task, const TaskRubric& taskRubric, const Rubric& rubric,
                       const AnalysisFolders& folders, std::map<std::string, CheckResult>* checks,
                       std::vector<CounterRow>* counters, const HardwareRun* given) {
  if (!taskRubric.analysis.present) return;
  const HardwareRun run =
      given ? *given : runHardwareCounters(rt, folders.tools, folders.kernels, rubric, taskRubric, folders.report);
  if (run.outcome == HardwareRun::Outcome::Unavailable && rt.device.info.type != "gpu") return;  // nothing to say
  const std::vector<CounterRow> rows = hardwareRows(run, rt.device.info.name);
  counters->insert(counters->end(), rows.begin(), rows.end());
  if (given && !run.drawnCounts.empty()) {
    HardwareRun drawn = run;
    drawn.counts = run.drawnCounts;
    for (CounterRow row : hardwareRows(drawn, rt.device.info.name)) {
      row.provider += " at the drawn case";
      counters->push_back(row);
    }
  }
  // No simulator here: checks on atomics are judged from the session's count per work-item.
  std::map<std::string, AtomicsRun> atomics;  // by check id
  CaseSpec spec;                              // the analysis case: the hardware counted what it ran
  const bool haveSpec = taskRubric.analysisCase(&spec);
  if ((given || run.outcome != HardwareRun::Outcome::Unavailable) && haveSpec) {
    for (const CheckInfo& ci : task.info().checks) {
      if (ci.hardware.kind != HardwareRule::Kind::AtomicsPerWorkItem || !taskRubric.needsCheck(ci.id)) continue;
      const std::vector<CaseOutcome>& cases = (*checks)[ci.id].cases;
      if (std::none_of(cases.begin(), cases.end(),
                       [](const CaseOutcome& o) { return o.status == Status::NotMeasured; }))
        continue;
      if (given) {
        // Counted by the profiler session beside the counters (the runner, given none, judges nothing).
        const auto counted = std::find_if(given->atomics.begin(), given->atomics.end(),
                                          [&](const AtomicsRun& a) { return a.kernel == ci.hardware.kernel; });
        if (counted != given->atomics.end()) {
          atomics[ci.id] = *counted;
        } else {
          atomics[ci.id].kernel = ci.hardware.kernel;
          atomics[ci.id].message = "the profiler session counted no atomics of " + ci.hardware.kernel +
                                   (given->message.empty() ? "" : ": " + given->message);
        }
      } else {
        // Atomics are counted only in the keeper's profiler session; without one, this run's counters
        // say why (no ncu, not an NVIDIA GPU).
        atomics[ci.id].kernel = ci.hardware.kernel;
        atomics[ci.id].message = run.message.empty() ? "no profiler session counted them" : run.message;
      }
      const std::vector<CounterRow> atomicRows = hardwareAtomicsRows(atomics[ci.id], rt.device.info.name);
      counters->insert(counters->end(), atomicRows.begin(), atomicRows.end());
    }
  }
  for (const CheckInfo& ci : task.info().checks) {
    if (!ci.simulated) continue;
    for (CaseOutcome& o : (*checks)[ci.id].cases) {
      // The counters are the analysis case's: the drawn case's outcome is the simulator's alone.
      if (o.caseId.find(taskRubric.analysis.drawnCaseId.empty() ? "\n" : "(" + taskRubric.analysis.drawnCaseId + " at ") !=
          std::string::npos)
        continue;
      if (run.outcome != HardwareRun::Outcome::Ran) {
        o.details.push_back("hardware counters: " + run.message);
      } else {
        if (!run.logPath.empty()) o.evidence.push_back({"hardware counters (CSV, " + run.countedBy + ")", run.logPath});
        char took[160];
        std::snprintf(took, sizeof took, "hardware counters run (%s%s): %.1f s", run.countedBy.c_str(),
                      given ? ", one session for every task" : "", run.seconds);
        o.timings.push_back(took);
        if (!run.countedBecause.empty()) o.details.push_back("counted by " + run.countedBy + ": " + run.countedBecause);
        for (const HardwareCounts& c : run.counts) {
          char line[384];
          std::snprintf(line, sizeof line,
                        "hardware (%s, %s): %s: %.0f shared store conflicts in %.0f store instructions, %.0f load "
                        "conflicts in %.0f load instructions",
                        run.countedBy.c_str(), rt.device.info.name.c_str(), c.kernel.c_str(), c.sharedStoreConflicts,
                        c.sharedStoreInstructions, c.sharedLoadConflicts, c.sharedLoadInstructions);
          o.details.push_back(line);
        }
      }
      if (const auto a = atomics.find(ci.id); a != atomics.end() && o.status == Status::NotMeasured)
        judgeAtomicsFromHardware(task, ci.id, spec, a->second, rt.device.info.name, &o);
      if (run.outcome != HardwareRun::Outcome::Ran) continue;
      // No simulator here: a rule that only asks whether kernels use local memory is the task's own
      // rule, judged on the hardware's shared load and store counts.
      const HardwareRule& rule = ci.hardware;
      if (haveSpec && rule.kind == HardwareRule::Kind::AccessCounts && o.status == Status::NotMeasured) {
        const std::string simulator = o.message;
        task.judgeSimulation(ci.id, hardwareAccessReport(run, rt.device.info.name), spec, &o);
        o.message += " (shared-memory instructions counted by " + run.countedBy + " on " + rt.device.info.name + ")";
        if (!simulator.empty()) o.details.push_back("not simulated: " + simulator);
      }
      // No simulator here: the hardware decides a store-conflict check, with a tolerance for its noise.
      if (rule.kind == HardwareRule::Kind::StoreConflicts && o.status == Status::NotMeasured)
        judgeStoreConflictsFromHardware(rule, run.counts, rubric.settings.hardwareConflictTolerance, &o);
    }
  }
  if (given) judgeDrawnWithHardware(rt, task, taskRubric, rubric, run, checks);
}

void judgeStoreConflictsFromHardware(const HardwareRule& rule, const std::vector<HardwareCounts>& counts,
                                     double tolerance, CaseOutcome* o) {
  for (const HardwareCounts& c : counts) {
    if (c.kernel != rule.kernel) continue;
    if (c.sharedStoreInstructions == 0) {
      o->status = Status::Failed;
      o->message = rule.kernel + " stores nothing into shared (local) memory on the GPU";
      return;
    }
    // The taps first, as the simulated rule does: a tile nobody reads from is not the technique,
    // however cleanly it is stored.
    if (rule.tileHalo > 0) {
      GlobalReads reads;
      reads.sectors = c.globalLoadSectors;
      reads.requests = c.globalLoadRequests;
      reads.workGroups = c.workGroups;
      reads.groupSize[0] = c.groupSize[0];
      reads.groupSize[1] = c.groupSize[1];
      if (!judgeTileReadsFromHardware(reads, rule.kernel, rule.tileHalo, rule.tileElementBytes, o)) return;
    }
    const double perStore = c.sharedStoreConflicts / c.sharedStoreInstructions;
    char message[200];
    std::snprintf(message, sizeof message,
                  "%.3f bank conflicts per shared store instruction on the GPU (tolerance %.3f)", perStore, tolerance);
    o->status = perStore <= tolerance ? Status::Passed : Status::Failed;
    o->message = message;
    return;
  }
}

std::vector<CounterRow> hardwareRows(const HardwareRun& run, const std::string& deviceName) {
  std::vector<CounterRow> rows;
  for (const HardwareCounts& c : run.counts) {
    rows.push_back({c.kernel,
                    "hardware (" + run.countedBy + ", " + deviceName + ")",
                    {{"launches", double(c.launches)},
                     {"shared_store_conflicts", c.sharedStoreConflicts},
                     {"shared_store_instructions", c.sharedStoreInstructions},
                     {"shared_load_conflicts", c.sharedLoadConflicts},
                     {"shared_load_instructions", c.sharedLoadInstructions}}});
    // Only what was counted: an older ncu without the global sector metric leaves the row without it.
    if (c.globalLoadSectors >= 0) rows.back().values.push_back({"global_load_sectors", c.globalLoadSectors});
    if (c.globalLoadRequests >= 0) rows.back().values.push_back({"global_load_requests", c.globalLoadRequests});
    if (c.workGroups > 0) rows.back().values.push_back({"work_groups", double(c.workGroups)});
  }
  return rows;
}

std::vector<CounterRow> hardwareAtomicsRows(const AtomicsRun& run, const std::string& deviceName) {
  if (run.outcome != HardwareRun::Outcome::Ran) return {};
  return {{run.kernel,
           "hardware atomics per work-item (counted on the GPU, " + deviceName + ")",
           {{"launches", double(run.counts.blocks)},
            {"work_groups", double(run.workGroups)},
            {"local_atomics", run.counts.sharedAtomics},
            {"global_atomics", run.counts.globalAtomics},
            {"local_atomic_instructions_ptx", double(run.counts.sharedInstructions)},
            {"global_atomic_instructions_ptx", double(run.counts.globalInstructions)}}}};
}

}  // namespace clgrade
