// The keeper's one way to run a task's runner (and the trusted timing beside them): a small interface, so that what the keeper decides
// from a runner's end (keeper/task_keeper.h) is tested with scripted runners, without a process or a
// device (tests/keeper, FakeRunner). RunnerProcess (keeper/runner_process.h) is the real one.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "keeper/trusted_child.h"
#include "protocol/progress.h"
#include "protocol/runner_request.h"
#include "util/subprocess.h"

namespace clgrade {

/// One runner to start: what it is asked and where its files go.
struct RunnerLaunch {
  RunnerRequest request;    ///< its tape and progress paths lie in `scratch`
  std::string requestPath;  ///< where the request is written for the runner
  std::string scratch;      ///< the only folder the runner may write (cleared first)
  std::string stdoutPath;   ///< what the kernels print
  std::string stderrPath;   ///< the runner's messages (its last line ends a task's message)
  /// Called just before the runner starts (the keeper starts following its tape); not called when
  /// the runner cannot be started.
  std::function<void()> starting;
};

/// How a runner ended, and where its progress file last put it.
struct RunnerEnded {
  ProcessResult process;
  progress::Position at;
};

/// How a task's part of a runner of several tasks ended, for the task.
struct PartEnd {
  std::optional<RunnerEnded> ended;  ///< the part ended: it stands for the task's own runner
  std::string alone;                 ///< else why the task runs in a runner of its own ("" none ran together)
};
using PartEnded = std::function<void(size_t part, PartEnd end)>;

/// A submission's counters session (keeper/hardware_session.h) run by the runner of several tasks
/// after their parts, on their context: one GPU process a submission instead of two.
struct SessionLaunch {
  std::vector<std::string> argv;  ///< `clgrade hwsession ...` as a process of its own would run it
  std::string workDir;            ///< its --out, as its own process would have it (the runner's is elsewhere)
  std::string inputs;             ///< the keeper's copies of what it counts: read-only in the sandbox
  std::string outputPath;         ///< where its output (stdout and stderr) is handed over
  double timeoutSeconds = 0;      ///< its own limit, as a process of its own has it
  /// Called once, when the runner has ended: how the session ended (its exit code the session's)
  /// and the folder that holds what it left in its --out (to be moved there by the session); or
  /// nullopt where it did not run or did not end, and then it runs in a process of its own.
  std::function<void(std::optional<ProcessResult>, const std::string& files)> ended;
  /// Says it did not run there: it runs in a process of its own (a no-op after its first end).
  void runsAlone() const {
    if (ended) ended(std::nullopt, "");
  }
};

class RunnerLauncher {
 public:
  virtual ~RunnerLauncher() = default;
  /// Runs the runner to its end (or stops it at a limit). Thread-safe: tasks run side by side.
  virtual RunnerEnded run(const RunnerLaunch& launch) = 0;
  /// Several tasks' first runners in one process, one after another (`clgrade run-tasks`,
  /// KeeperSettings::tasksTogether), its files in `scratch` (cleared first) and the requests in
  /// `requestsFolder`. `partEnded` is called once for every launch, in order, as soon as it is
  /// known: with the part's end where it ended (protocol/runner_part.h), its tape, progress, output and
  /// messages where the launch names them as its own runner would have left them; else with why the
  /// task runs alone, for that task and every one after it (the runner is stopped). `starting` is not
  /// called. `session` (none: nullptr): the counters session as the last part, its `ended` called
  /// once. This one runs none together.
  virtual void runTogether(const std::vector<RunnerLaunch>& launches, const std::string& scratch,
                           const std::string& requestsFolder, const PartEnded& partEnded,
                           const SessionLaunch* session = nullptr) {
    (void)scratch, (void)requestsFolder;
    for (size_t i = 0; i < launches.size(); ++i) partEnded(i, PartEnd{});
    if (session) session->runsAlone();
  }
  /// Times the trusted kernels for this grade in a process that runs no student code
  /// (keeper/trusted_child.h), its messages into `logPath`. Thread-safe.
  virtual TrustedChildResult timeTrusted(const TrustedTimingRequest& request, const std::string& logPath) = 0;
};

}  // namespace clgrade
