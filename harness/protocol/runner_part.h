// How one task's part of a runner of several tasks ended (`clgrade run-tasks`): the runner writes it
// into the part's folder as the part ends (channel::kPartEnded), the keeper reads it as it appears.
// A part that ended (its tape whole) stands for the task's own runner, device steps that failed
// included: they are the task's own, judged from its tape as a runner of its own would have had them
// judged. A device step that failed other than a build may leave the process's context unfit for the
// tasks after it: those then run each in a runner of its own, as does a task whose part never ended
// (the process crashed or was stopped: keeper/runner_process.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace clgrade {

struct RunnerPartEnd {
  int exitCode = -1;        ///< what `clgrade run-task` would have exited with (RunnerExit)
  uint64_t peakBytes = 0;   ///< the runner's resident peak so far (getrusage): what the report shows
  std::vector<int> errors;  ///< the OpenCL error codes of the part's failed device steps
};

std::string runnerPartText(const RunnerPartEnd& end);
/// False with `err` where `text` is not what runnerPartText writes.
bool readRunnerPart(const std::string& text, RunnerPartEnd* end, std::string* err);

/// Whether the part ended as the task's own runner would have ended well (exit 0, its tape whole).
bool partEndedWell(const RunnerPartEnd& end);

/// Whether the process is fit for the next task after the part: its failed steps (if any) only
/// builds, build options, or kernels the program lacks, which a student's file causes without
/// touching the device.
bool partLeavesProcessFit(const RunnerPartEnd& end);

}  // namespace clgrade
