// How one task's part of a runner of several tasks ended (`clgrade run-tasks`): the runner writes it
// into the part's folder as the part ends (channel::kPartEnded), the keeper reads it once the runner
// has ended. A part stands for the task's own runner only when it ended well and no device step of
// it failed but a build's: anything else may have come from what the tasks before it left in the
// process, or may leave the process unfit for the tasks after it, so the keeper runs that task and
// the ones after it again, each in a runner of its own (keeper/runner_process.h).
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

/// Whether a part that ended so counts as the task's own runner would have: exit 0, and its failed
/// steps (if any) only builds, build options, or kernels the program lacks, which a student's file
/// causes without touching the device.
bool partStandsForItsTask(const RunnerPartEnd& end);

}  // namespace clgrade
