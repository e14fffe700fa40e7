#include "cli/task_progress.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>

#include "util/markup.h"

namespace clgrade::cli {

std::string taskRunWords(const TaskRun& run) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f s", run.seconds);
  if (run.outcome == "ok") return std::string("done in ") + seconds;
  if (run.outcome == "refused") return "refused: " + run.message;
  return run.outcome + " (after " + seconds + ")";
}

std::function<void(const std::string&, const TaskRun*)> terminalTaskProgress(size_t taskCount, bool quiet) {
  if (quiet || !isatty(STDERR_FILENO)) return {};
  struct State {
    std::mutex mutex;
    size_t ended = 0;
  };
  auto state = std::make_shared<State>();
  return [state, taskCount](const std::string& task, const TaskRun* run) {
    std::lock_guard<std::mutex> lock(state->mutex);
    if (!run) {
      std::cerr << "clgrade: " << terminalText(task) << " started\n";
      return;
    }
    ++state->ended;
    std::cerr << "clgrade: " << terminalText(task) << " " << terminalText(taskRunWords(*run)) << " (" << state->ended
              << " of " << taskCount << " tasks)\n";
  };
}

}  // namespace clgrade::cli
