// What the keeper asks of a task's runner, as one record (`clgrade run-task REQUEST`, inside the
// sandbox): run one task of one submission on the device, record every device step, judge nothing.
// It holds everything the runner needs of the submission and the rubric: the task's kernel file as
// the keeper read it and the rubric's settings with that one task, so the runner reads neither the
// kernels folder nor the rubric file (neither is in its sandbox). The keeper keeps its own copy and
// replays the record with it; what the runner does with its copy cannot change a verdict.
#pragma once

#include <cstdint>
#include <string>

#include "intake/source_policy.h"
#include "model/hidden_seeds.h"
#include "protocol/stop_info.h"

namespace clgrade {

struct RunnerRequest {
  std::string kernelsDir;  ///< the submission's folder, for messages (the runner cannot read it)
  std::string rubricPath;  ///< the rubric's file, for messages (the runner cannot read it)
  std::string rubricText;  ///< the rubric with its settings and this task only (rubricForTask)
  std::string sourceFile;  ///< the task's kernel file ("Convolution3x3.cl")
  KernelSource source;     ///< ... as the keeper's source policy read it
  std::string task;        ///< the one task to run
  std::string device = "auto";
  /// The keeper's device (deviceIdentity): the runner ends with kRunnerNoDevice when the device it
  /// opens is another. Empty: any.
  std::string expectedDevice;
  /// The keeper's probe before anything is graded (keeper/sandbox_probe.h): open the device and
  /// every path of the request, build and run nothing, write an empty tape.
  bool probe = false;
  bool visibleOnly = false;  ///< `check`: the visible cases only
  /// What the hidden cases' inputs and checks are made from, derived one way from the run's hidden
  /// seed, which never crosses the wall (spec 5c); the keeper replays with the same. `check`: none.
  HiddenSeeds hiddenSeeds;
  std::string outDir;        ///< the runner's own files (its evidence is discarded)
  std::string recordPath;    ///< where every device step goes (protocol/tape.h)
  std::string progressPath;  ///< its steps, for the keeper's messages when it must be stopped
  std::string timingLock;    ///< a file locked while timing (parallel jobs on one GPU); empty: none
  StopInfo stopped;          ///< what stopped an earlier runner of the task: left out this time
  /// The bank-conflict counters are read by the submission's one profiler session, which the keeper
  /// runs (keeper/hardware_session.h): the runner starts no ncu for them.
  bool hardwareElsewhere = false;
  /// The batch's figures of the trusted kernels (model/trusted_timings.h, as JSON; empty: none): the
  /// runner times only the submission's kernels, and the keeper replays with its own copy.
  std::string trustedTimings;
  /// The course's inputs as the keeper stored them (store/course_store.h), mounted read-only in the
  /// sandbox; empty: the runner makes every input itself.
  std::string inputStore;
};

/// The request as JSON text, and back (false with the reason for anything else).
std::string runnerRequestJson(const RunnerRequest& request);
bool readRunnerRequest(const std::string& text, RunnerRequest* request, std::string* err);

}  // namespace clgrade
