// A task's performance case measured in one run: the submission's kernels, the reference kernels
// and the copy roofline, on the same device, inputs and geometry.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "perf/figures.h"
#include "tasks/task_context.h"

namespace clgrade {

/// What measuring needs besides the device.
struct PerfRequest {
  const Task* task = nullptr;
  CaseSpec spec;                ///< the performance case (at the size it runs)
  std::string source;           ///< the submission's kernel file
  std::string referenceSource;  ///< the reference kernel file (empty: no ratio; `referenceNote` says why)
  std::string referenceNote;
  /// The naive kernel file (no local memory), timed for the speed-up of tiling (empty: none;
  /// `naiveNote` says why).
  std::string naiveSource;
  std::string naiveNote;
  PerfSettings settings;
  GradeSettings grade;
  /// The batch's figures of the trusted kernels for this case (model/trusted_timings.h): used instead
  /// of timing the copy, reference and naive kernels here, when of the same plane size. Null: timed here.
  const PerformanceReport* trusted = nullptr;
  /// Past the sandbox wall, where `trusted` has none of this case: the reference's and naive kernels'
  /// figures from the keeper's trusted process (keeper/trusted_child.h), which the replay waits for
  /// here, instead of timing `referenceSource` and `naiveSource` (which a runner never holds; its
  /// figures leave them out). Its copy is still timed in this run. Null: timed here from the sources.
  std::function<std::optional<PerformanceReport>(std::string* problem)> trustedBeside;
};

/// The launch floor of each geometry (see emptyLaunch), timed once per geometry and remembered.
class LaunchFloors {
 public:
  LaunchFloors(const Runtime& rt, const PerfSettings& settings) : rt_(rt), settings_(settings) {}
  /// Median milliseconds of an empty kernel on `geometry`; 0 when it could not be timed.
  double of(const Geometry& geometry);

 private:
  const Runtime& rt_;
  PerfSettings settings_;
  std::map<std::string, double> byGeometry_;
};

/// Times one launch (the CPU's launch counts on a CPU device); a spread above the limit on a GPU gets
/// one more try with three times the runs (a clock ramping up, another process), which is kept.
/// With `floors`, the figure also gets the launch floor of its geometry.
/// A failing launch becomes the figure's `error`; never throws.
KernelFigure measureLaunch(const Runtime& rt, const TimedLaunch& launch, const PerfSettings& settings,
                           LaunchFloors* floors = nullptr);

/// Only the trusted kernels of the case: the reference's, the naive ones and the copy of one plane of
/// the reference's size (`kernels` stays empty), for a batch to hand every grade (`trusted`).
/// `request.source` is not used. Never throws.
PerformanceReport measureTrusted(const Runtime& rt, const PerfRequest& request, InputCache& inputs,
                                 EvidenceWriter& evidence);

/// Times every launch of the case (TimedLaunch order), the reference's, the naive kernels', and the
/// copy of one plane, each with the launch floor of its geometry (the last three from
/// `request.trusted` when given).
/// Never throws: a build failure or a failing launch becomes `problem` or a figure's `error`.
PerformanceReport measurePerformance(const Runtime& rt, const PerfRequest& request, InputCache& inputs,
                                     EvidenceWriter& evidence);

}  // namespace clgrade
