#include "util/subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

namespace clgrade {

std::string ProcessResult::describe() const {
  if (!started) return "could not start: " + error;
  if (timedOut) return "timed out after " + std::to_string(static_cast<int>(seconds)) + " s";
  if (signal) return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit code " + std::to_string(exitCode);
}

std::string selfExecutable() {
  std::error_code ec;
  return std::filesystem::read_symlink("/proc/self/exe", ec).string();
}

namespace {
int openOutput(const std::string& path) {
  return open(path.empty() ? "/dev/null" : path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}
}  // namespace

ProcessResult runProcess(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                         double timeoutSeconds, const std::string& stdoutPath, const std::string& stderrPath) {
  ProcessResult result;
  const auto start = std::chrono::steady_clock::now();
  const int out = openOutput(stdoutPath), err = openOutput(stderrPath);
  if (out < 0 || err < 0 || argv.empty()) {
    result.error = argv.empty() ? "no command" : "cannot open the output files";
    if (out >= 0) close(out);
    if (err >= 0) close(err);
    return result;
  }
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    result.error = std::strerror(errno);
    close(out);
    close(err);
    return result;
  }
  if (pid == 0) {
    // Child: own process group (so a time-out kills its children too), outputs, environment.
    setpgid(0, 0);
    dup2(out, 1);
    dup2(err, 2);
    for (const auto& [name, value] : env) setenv(name.c_str(), value.c_str(), 1);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  setpgid(pid, pid);  // also here: the child may not have run its own setpgid yet
  close(out);
  close(err);
  result.started = true;
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (done == pid) break;
    if (result.seconds > timeoutSeconds) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      result.timedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace clgrade
