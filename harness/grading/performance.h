// The performance part of grading a task: the rubric's <performance> case timed against the
// reference kernels and the copy roofline, and the <sweep> that decides the swept check.
#pragma once

#include <future>
#include <map>
#include <string>
#include <vector>

#include "grading/grader.h"
#include "grading/phase_clock.h"
#include "model/trusted_timings.h"
#include "tasks/task.h"

namespace clgrade {

/// Runs the task's <sweep> (the swept checks' result goes into *checks) and times its
/// <performance> case (into report->performance). `source` is the submission's file. The two are
/// the phases "sweep" and "timing" of `clock` (each with its wait for the timing lock).
void judgePerformance(const Runtime& rt, const Task& task, const TaskRubric& taskRubric, const Rubric& rubric,
                      const GradeOptions& options, const std::string& source, const GradeSettings& settings,
                      InputCache& inputs, EvidenceWriter& evidence, std::map<std::string, CheckResult>* checks,
                      TaskReport* report, PhaseClock& clock);

/// Reads or makes the inputs of the task's timed launches (its <performance> case and its <sweep>, at
/// the device's timing size; a check's visible ones only) into `inputs`. The keeper follows its
/// runner and mostly waits on it: done meanwhile, judging the timed outputs (4096 x 4096 inputs on a
/// GPU, 1.1 s of stored reads for the bilateral task) no longer waits for them once the runner is
/// done. An input asked for here is in the grade's input records even if its launches never came.
void prepareTimedInputs(const DeviceInfo& device, const Task& task, const TaskRubric& taskRubric, bool visibleOnly,
                        InputCache& inputs);

/// The inputs of every task's performance case (of `onlyTasks`, or all) read or made into `inputs`,
/// each task's on a thread of its own, while the caller opens the device: the trusted timing's
/// stored reads (4096 x 4096 on a GPU, 0.6 s of its 2.9 s on an H200, one task after another) no
/// longer come between its launches. Each future ends when its task's inputs are there; the caller
/// waits for all of them before its first timed launch, so that none is made beside the figures. A
/// failure is left to the timing, which asks for them again and says what is wrong. No thread to
/// spare: done where they are used.
std::vector<std::future<void>> prepareTrustedInputs(const DeviceInfo& device, const Rubric& rubric,
                                                    const std::vector<std::string>& onlyTasks, InputCache& inputs);

/// The trusted kernels of every task's performance case (of `onlyTasks`, or all) timed on `rt` as
/// measureTrusted does, for a batch to hand its grades (model/trusted_timings.h), or for one grade
/// (`forOneGrade`: figures whose spread is above the limit are kept, and judged as such); taken now.
TrustedTimings timeTrustedKernels(const Runtime& rt, const Rubric& rubric, const std::vector<std::string>& onlyTasks,
                                  const std::string& referenceKernelsDir, InputCache& inputs, bool forOneGrade = false);

/// Why a task's trusted figures may not serve a batch (empty: they may): no reference figure, a failed
/// launch, or on a GPU a figure a grade could not be scored against (its spread, say).
std::string unfitForBatch(const DeviceInfo& device, const PerformanceReport& figures);

/// The speed of a performance criterion's kernels from the task's report.
SpeedMeasure speedFor(const Criterion& criterion, const TaskReport& report);

/// Where the reference kernels are when GradeOptions names none: the source tree's reference/kernels.
std::string defaultReferenceKernelsDir();

/// The naive kernels (every tap read from global memory), timed beside the submission's for the
/// speed-up of tiling: the source tree's reference/naive.
std::string defaultNaiveKernelsDir();

}  // namespace clgrade
