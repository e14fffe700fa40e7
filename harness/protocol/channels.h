// The map of the wall: everything that crosses between the keeper (trusted, keeper/) and the
// processes that run student code (untrusted, runner/), with who writes it and who reads it. The
// keeper alone decides verdicts; what comes back from inside is data, read with bounded sizes and
// without following links, and a channel that does not parse makes the task an error, never points.
//
// | channel              | file (runner's scratch folder S, keeper's control folder C) | writer          | reader |
// |----------------------|-------------------------------------------------------------|-----------------|------------------------|
// | runner request       | C/<task>.request        (runner_request.h)                  | keeper          | runner
// (run-task)      | |   its stop record    | the request's `stopped` (stop_info.h)                       | keeper's
// rerun  | runner, keeper's replay| | progress file        | S/progress              (progress.h) | runner          |
// keeper's progress watch| | device tape          | S/record                (tape.h, block_delta.h)             |
// runner (cl/)    | keeper's replay        | | last words           | C/<task>.stderr         (the runner's stderr) |
// runner          | keeper (runner_end.h)  | | kernel output        | evidence/<task>/kernel_output.txt (the runner's
// stdout)     | the kernels     | people (report.html)   | | trace                | S/trace.json (util/trace.h) |
// runner          | keeper (adopted field by field) | | exit code            | RunnerExit below | runner          |
// keeper (runner_end.h)  | | profiler session     | counters CSV, log, atomics records (profiler_files.h)       |
// hwsession       | keeper's hardware session |
//
// `clgrade run-tasks` (several tasks' runners in one process) keeps each task's tape, progress file,
// kernel output and last words in S/<task>/ with the part's end (runner_part.h, written by the
// runner, read by the keeper's RunnerProcess::runTogether), and the keeper moves a part that stands for
// its task to the places above before the task is judged. With `--session C/tasks/session.json`
// (session_part.h, written by the keeper) the same runner then runs the submission's counters
// session: its files in S/hardware, its output and end in S/session/; the keeper's hardware session
// moves them to its own places once the runner has ended (keeper/hardware_session.h, servedFirst).
//
// The runner's own evidence folder (S/out) and the simulator's outcomes file stay inside the wall: a
// runner's evidence is never used (the keeper writes the report's evidence when it replays the tape),
// and the simulator's outcomes reach the keeper on the tape.
#pragma once

namespace clgrade {

/// The files of a runner's scratch folder that the keeper reads (the table above).
namespace channel {
constexpr const char* kTapeFile = "record";
constexpr const char* kProgressFile = "progress";
constexpr const char* kTraceFile = "trace.json";
constexpr const char* kRunnerOutFolder = "out";  ///< the runner's own evidence: discarded
/// A runner of several tasks (`clgrade run-tasks`, keeper/runner_process.h) keeps each task's part
/// in the folder of its tape: what the kernels printed, its messages, and how the part ended
/// (RunnerPart below), written as the part ends.
constexpr const char* kPartStdout = "stdout";
constexpr const char* kPartStderr = "stderr";
constexpr const char* kPartEnded = "ended";
/// The counters session's part of such a runner (run-tasks --session) prints into one file, as its
/// own process's stdout and stderr did.
constexpr const char* kSessionOutput = "output";
}  // namespace channel

/// The first line of such a session's output (each counted task's hardware.log).
constexpr const char* kSessionInTasksProcess =
    "clgrade run-tasks: the counters session runs in the submission's one process, after its tasks";

/// How `clgrade run-task` ends. Any other end (a signal, a limit, another code) is the keeper's to
/// judge from the progress file and the last words (keeper/runner_end.h).
enum RunnerExit {
  kRunnerOk = 0,            ///< the tape is complete
  kRunnerBadRequest = 2,    ///< the request or the rubric it names cannot be read
  kRunnerNoDevice = 3,      ///< the device of the request cannot be opened
  kRunnerCannotRecord = 4,  ///< the tape cannot be written
  kRunnerCannotReach = 5,   ///< a path of the request cannot be read or written in the sandbox
};

}  // namespace clgrade
