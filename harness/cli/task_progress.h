// What `grade` and `check` say while they run: a line on stderr as each task starts and as its
// child ends, so a person at a terminal sees where a grade of a minute is. Nothing when stderr is
// not a terminal (CI logs, Gradescope, PrairieLearn get the table and the files only) or with --quiet.
#pragma once

#include <functional>
#include <string>

#include "keeper/keeper.h"

namespace clgrade::cli {

/// The KeeperSettings::onTask of a grade of `taskCount` tasks; empty when nothing is to be shown.
std::function<void(const std::string& task, const TaskRun* run)> terminalTaskProgress(size_t taskCount, bool quiet);

/// The words for how a task's child ended: "done in 3.2 s", "timed out (after 300.0 s)", ...
std::string taskRunWords(const TaskRun& run);

}  // namespace clgrade::cli
