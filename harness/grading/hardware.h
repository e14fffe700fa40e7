// Hardware bank-conflict counters on NVIDIA GPUs: the task's analysis case runs in a child process
// under NVIDIA's profiler (ncu), and every OpenCL launch is replayed through the CUDA driver from the
// program's PTX, because ncu does not see OpenCL kernels.
#pragma once

#include <optional>

#include <string>
#include <vector>

#include "counters/counters.h"
#include "counters/nvidia/ncu_csv.h"
#include "grading/analysis.h"
#include "model/hidden_seeds.h"
#include "rubric/rubric.h"

namespace clgrade {

struct AtomicsRun;

struct HardwareRun {
  enum class Outcome { Ran, Unavailable, Failed } outcome = Outcome::Unavailable;
  std::string message;  ///< why not, or what went wrong
  std::string logPath;  ///< ncu's output, relative to the report folder
  /// Who counted: "ncu", "CUPTI" or "clgrade's PTX counters" (the CSV's first line says).
  std::string countedBy = "ncu";
  /// Why another than the session's first choice counted (the PTX counters could not); "" if not.
  std::string countedBecause;
  std::vector<HardwareCounts> counts;
  double seconds = 0;
  /// The task's atomics (AtomicsRun) counted by the submission's profiler session beside its
  /// counters (hardware_session.h), one per kernel it was asked for.
  std::vector<AtomicsRun> atomics;
  /// Not counted for the machine's reasons, before any kernel ran: the profiler session could not
  /// start (its sandbox, ncu or a library it needs missing: exit 126/127), ncu failed before the
  /// profiled process connected, or the counters are not permitted to this user (ERR_NVGPUCTRPERM).
  /// A technique left unjudged by it is not a grade.
  bool machineFault = false;
  /// A grade's drawn analysis case (spec 5c), counted in the same session under kernel names with
  /// hardwareDrawnPrefix: whether it was asked (the session had the grade's hidden seeds), and its
  /// launches' counts.
  bool drawnAsked = false;
  std::vector<HardwareCounts> drawnCounts;
  std::vector<AtomicsRun> drawnAtomics;  ///< the atomics runs at the drawn case, one per kernel
};

/// How the profiler session names the kernels of a task's drawn analysis case: drawn_<task>__.
inline std::string hardwareDrawnPrefix(const std::string& task) { return "drawn_" + task + "__"; }

/// ncu: $CLGRADE_NCU, else on PATH, else under /usr/local/cuda or /opt/nvidia/nsight-compute.
std::string findNcu();

/// ncu, when `device` is an NVIDIA GPU and ncu is found; else "" and why not.
std::string ncuFor(const DeviceInfo& device, std::string* why);

/// Runs `clgrade hwcount` for the task under ncu when the runtime's device is an NVIDIA GPU (a device
/// step: recorded by a runner; the keeper parses the CSV it hands back).
HardwareRun runHardwareCounters(const Runtime& rt, const std::string& toolsDir, const std::string& kernelsDir,
                                const Rubric& rubric, const TaskRubric& task, const std::string& reportDir);

/// A kernel's atomics, per work-item, in one launch.
struct AtomicCounts {
  std::string kernel;
  long blocks = 0;              ///< launches counted (the first replayed one: 1)
  double sharedAtomics = 0;     ///< work-items' executions of shared (local) atomics
  double globalAtomics = 0;     ///< work-items' executions of global atomics
  long sharedInstructions = 0;  ///< atomic instructions that executed on local memory
  long globalInstructions = 0;  ///< atomic instructions that executed on global memory
  /// What the shared atomics added (an inc 1, an integer add its value); < 0 when a site's was not read.
  double sharedAdded = -1;
};

/// Exact atomics of one kernel, counted per work-item on the GPU by the profiler session's replay:
/// a copy of its first launch with a counter before each atomic instruction of its PTX
/// (counters/nvidia/ptx_atomics.h). The hardware's own atomics counters count warp instructions, too
/// coarse for "one global atomic per bin and work-group".
struct AtomicsRun {
  HardwareRun::Outcome outcome = HardwareRun::Outcome::Unavailable;
  std::string message;  ///< why not, or what went wrong
  std::string kernel;
  AtomicCounts counts;
  long workGroups = 0;     ///< of the counted launch
  std::string recordPath;  ///< the count per PTX atomic instruction (evidence), relative to the report
};

/// The run from the record `clgrade hwcount` wrote (protocol/atomics_record.h), kept below
/// `reportDir` as evidence (evidence/<task>/atomics.txt, atomics_drawn.txt). The record comes from a
/// sandbox: one that does not read is a failed run, with the reason.
AtomicsRun readAtomicsRun(const std::string& record, const std::string& reportDir, const std::string& taskId,
                          const std::string& kernel, bool drawn = false);

/// The kernels whose hardware counters (ncu's, or CUPTI's) a rule of the task reads, for the checks
/// its rubric needs: false when none does (its atomics are counted apart, AtomicsPerWorkItem, and a
/// check without a hardware rule reads no counters); else `kernels` names them, empty for all of the
/// task's kernels (a rule on the task's own access counts, AccessCounts).
bool countersReadBy(const Task& task, const TaskRubric& taskRubric, std::vector<std::string>* kernels);

/// The kernels whose atomics the task's rubric needs counted per work-item (its checks with an
/// AtomicsPerWorkItem rule that a criterion uses): what the profiler session counts for it.
std::vector<std::string> atomicsKernelsToCount(const Task& task, const TaskRubric& taskRubric);

/// The run's counts as a counter report of one kernel (origin "hardware (ncu, <device>)"), so
/// that the simulated rules (tasks/technique.h) judge them.
CounterReport hardwareAtomicsReport(const AtomicsRun& run, const std::string& deviceName);

/// The shared-memory counts of the first ncu run as a CounterReport: local loads and stores are ncu's
/// shared load and store warp instructions (enough for rules that ask whether a kernel reads or
/// writes local memory at all, not for counts per work-item).
CounterReport hardwareAccessReport(const HardwareRun& run, const std::string& deviceName);

/// Judges simulated check `checkId` from an atomics run with the task's own rule
/// (Task::judgeSimulation on hardwareAtomicsReport, `spec` the analysis case). A run that did not
/// succeed leaves the outcome as it was (not measured) with the reason in its details.
void judgeAtomicsFromHardware(const Task& task, const std::string& checkId, const CaseSpec& spec, const AtomicsRun& run,
                              const std::string& deviceName, CaseOutcome* outcome);

/// On an NVIDIA GPU: the hardware counts of the task's analysis case go to `counters` next to the
/// simulated ones and into the simulated checks' details; where the simulator is missing, the
/// tile-load check is judged from them (conflicts per shared store instruction within the rubric's
/// tolerance), the discontinuity technique from the shared loads, and the histogram's local atomics
/// counted per work-item in the submission's profiler session (AtomicsRun).
/// `given`: the counts read by the submission's one profiler session (hardware_session.h) instead of
/// a run of ncu here, the atomics runs among them: none is made here then, so that a runner (given
/// nothing) and the keeper's replay (given the counts) make the same device steps.
void judgeWithHardware(const Runtime& rt, const Task& task, const TaskRubric& taskRubric, const Rubric& rubric,
                       const AnalysisFolders& folders, std::map<std::string, CheckResult>* checks,
                       std::vector<CounterRow>* counters, const HardwareRun* given = nullptr);

/// A store-conflict check judged from the hardware's counts of `rule.kernel` (no simulator): fails a
/// kernel that stores nothing into shared memory, then, where the rule bounds the taps
/// (`rule.tileHalo`), one that reads more global memory than its tiles and halos
/// (judgeTileReadsFromHardware), then one with more bank conflicts per shared store than `tolerance`.
void judgeStoreConflictsFromHardware(const HardwareRule& rule, const std::vector<HardwareCounts>& counts,
                                     double tolerance, CaseOutcome* outcome);

/// The hardware counts as report rows.
std::vector<CounterRow> hardwareRows(const HardwareRun& run, const std::string& deviceName);

/// An atomics run's counts as a report row (none when it did not run).
std::vector<CounterRow> hardwareAtomicsRows(const AtomicsRun& run, const std::string& deviceName);

}  // namespace clgrade
