// A task of the assignment: its data row (file, kernels, checks) and the fixed host side that runs it.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cl/launch.h"
#include "counters/counters.h"
#include "model/status.h"
#include "tasks/case_spec.h"
#include "tasks/inputs.h"

namespace clgrade {

class TaskContext;

/// How a simulated check is judged from an NVIDIA GPU's own counters (ncu) where the simulator did
/// not run; the rule lives with the task, the counting with grading/hardware.
struct HardwareRule {
  enum class Kind {
    None,                ///< only the simulator can judge it
    AccessCounts,        ///< the task's own rule (judgeSimulation) on shared load and store counts
    StoreConflicts,      ///< `kernel`'s shared stores free of bank conflicts, within the rubric's tolerance
    AtomicsPerWorkItem,  ///< the task's own rule on `kernel`'s atomics per work-item (one more ncu run)
  };
  Kind kind = Kind::None;
  std::string kernel;  ///< StoreConflicts, AtomicsPerWorkItem: the kernel counted
  /// StoreConflicts: > 0 when each work-group must read its taps from a local tile of its own size plus
  /// this halo (global reads bounded by the tile, tasks/technique.h); 0 no bound.
  int tileHalo = 0;
  int tileElementBytes = 4;  ///< of one element of that tile
  /// AccessCounts: the kernels whose counts the task's rule reads (only those are profiled); empty: all.
  std::vector<std::string> kernels;
};

/// A check a task offers to the rubric. A non-empty `notMeasuredReason` means clgrade cannot
/// measure it yet: the check is reported as not_measured with that reason, never as passed.
/// A `simulated` check is judged from the counters of a run in the simulator (Oclgrind with
/// clgrade's plugin), not from the device's outputs.
struct CheckInfo {
  std::string id;     ///< "horizontal"
  std::string title;  ///< "ConvHorizontal alone against the CPU's horizontal pass"
  std::string notMeasuredReason;
  bool simulated = false;
  /// Judged by the rubric's <sweep> (the case rerun over parameter values, with a chart), not by a case.
  bool swept = false;
  /// A simulated check: how the hardware's counters judge it without the simulator (none: they cannot).
  HardwareRule hardware{};
  /// Judged from what the other checks of a case saw (the stray writes): never run on its own,
  /// so never a reason to run a task again without a kernel.
  bool fromOtherChecks = false;
};

/// The check "writes" every task offers: no kernel wrote outside its output image (rows below
/// it where the kernel knows the height, before or past a buffer) or into its inputs. Judged per
/// case from what the value checks audited (TaskContext::judgeWrites); it never fails them.
CheckInfo strayWritesCheck();

/// One kernel launch made ready for timing: inputs uploaded, every argument set. The performance
/// code enqueues it repeatedly; `bytes` is what the launch must move at the least (each input
/// element read once, each output element written once), for the effective bandwidth.
/// A judging step: what is wrong ("" when nothing is), decided from what was read back before.
using Judgement = std::function<std::string()>;

struct TimedLaunch {
  std::string kernel;  ///< "ConvHorizontal"
  std::string what;    ///< "one channel", "one gray plane"
  cl::Kernel handle;
  Geometry geometry;
  double bytes = 0;
  double pixels = 0;
  std::shared_ptr<void> keepAlive;  ///< the buffers the arguments point to
  /// Called once the launch has been timed: reads back the output it left at this size (a device
  /// step) and returns its judging step, what is wrong with that output ("" when it matches the
  /// CPU's). A kernel is checked at every size it is timed at (spec 5b), so one that skips its work
  /// at the timing size earns no speed points. perf/ runs the judging step only where the grade
  /// judges (a task's runner only reads back). Empty: not checked (the reference kernels; launches
  /// whose output a later launch of the same case checks).
  std::function<Judgement()> verify;
  std::vector<WrittenBuffer> written;  ///< every buffer the kernel can write, inputs too (none: the rooflines)
  /// Its roofline is reading its bytes (the histogram), not copying them (spec 5c).
  bool readsOnly = false;
};

struct TaskInfo {
  std::string id;     ///< "separable"
  std::string title;  ///< "Separable convolution"
  std::string file;   ///< "ConvolutionSeparable.cl"
  /// The kernels' signatures as the spec fixes them: "ConvVertical(__global float* d_Dst, ...)".
  std::vector<std::string> kernels;
  std::vector<CheckInfo> checks;
  /// Kernel name -> the checks its correctness decides: a sanitizer finding in the kernel fails them.
  std::map<std::string, std::vector<std::string>> kernelChecks;
};

class Task {
 public:
  virtual ~Task() = default;
  virtual const TaskInfo& info() const = 0;
  /// Reads a case's parameters; false with a message naming the bad or unknown parameter.
  virtual bool validateCase(const CaseSpec& spec, std::string* err) const = 0;
  /// Runs one case: one CaseOutcome per measurable check, keyed by check id.
  virtual void runCase(TaskContext& ctx, const CaseSpec& spec, std::map<std::string, CaseOutcome>* out) const = 0;
  /// The CPU reference results of a case as named byte strings ("output" -> PFM bytes), for the
  /// golden manifest: the same computation runCase compares against.
  virtual std::vector<std::pair<std::string, std::string>> referenceOutputs(InputCache& inputs,
                                                                            const CaseSpec& spec) const = 0;
  /// The launches to time for case `spec` (built from the context's source), in launch order.
  /// Throws CheckFailure like runCase when the source does not build or lacks a kernel.
  virtual std::vector<TimedLaunch> timedLaunches(TaskContext& ctx, const CaseSpec& spec) const {
    (void)ctx;
    (void)spec;
    return {};
  }
  /// Reads or makes the input images case `spec` launches on (InputCache, where the grade's other
  /// threads find them), and nothing else: the keeper has the inputs of its timed launches ready while
  /// it waits on its runner (grading/performance.h). None by default.
  virtual void prepareInputs(InputCache& inputs, const CaseSpec& spec) const {
    (void)inputs;
    (void)spec;
  }
  /// The build options of the programs case `spec` builds, where the task knows them before running
  /// it: the sweep compiles the next point's while the current one runs (none by default).
  virtual std::vector<std::string> buildOptions(const CaseSpec& spec) const {
    (void)spec;
    return {};
  }
  /// The smallest image of case `spec`'s configuration that every launch covers with whole
  /// work-groups, as the assignment launches them (width, height): the sizes every honest kernel is
  /// written for are its multiples (spec 5c; grading/drawn_analysis.h).
  virtual std::array<int, 2> wholeGroupsSize(const CaseSpec& spec) const {
    (void)spec;
    return {32, 16};
  }
  /// Judges simulated check `checkId` from the counters of the analysis run of `spec`:
  /// sets the outcome's status, message and details.
  virtual void judgeSimulation(const std::string& checkId, const CounterReport& counters, const CaseSpec& spec,
                               CaseOutcome* outcome) const {
    (void)counters;
    (void)spec;
    outcome->status = Status::NotMeasured;
    outcome->message = "task has no simulated check '" + checkId + "'";
  }
};

/// The four tasks, in the order of the assignment sheet.
const std::vector<const Task*>& allTasks();
/// nullptr when no task has this id.
const Task* findTask(const std::string& id);

}  // namespace clgrade
