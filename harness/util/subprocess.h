// Running a child process with extra environment, a time limit and its output in files:
// how clgrade isolates work that may hang or crash (a simulator run, later a whole submission).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace clgrade {

struct ProcessResult {
  bool started = false;
  bool timedOut = false;
  int exitCode = -1;  ///< when it exited normally
  int signal = 0;     ///< when a signal ended it (SIGKILL after a time-out too)
  double seconds = 0;
  std::string error;  ///< why it could not start

  bool ok() const { return started && !timedOut && signal == 0 && exitCode == 0; }
  /// "exit code 3", "killed by signal 11 (Segmentation fault)", "timed out after 60 s".
  std::string describe() const;
};

/// Runs argv[0] with argv, the current environment plus `env`, stdout and stderr into the given
/// files (empty: /dev/null). After `timeoutSeconds` the child's whole process group is killed.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                         double timeoutSeconds, const std::string& stdoutPath, const std::string& stderrPath);

/// The path of the running executable (/proc/self/exe).
std::string selfExecutable();

}  // namespace clgrade
