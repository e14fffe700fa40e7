// The counters session that a runner of several tasks runs after their parts (`clgrade run-tasks
// --session FILE`): the keeper writes FILE, the runner reads it. It holds the session's folder (its
// output and end, as a part's: channels.h) and the `clgrade hwsession` command line the keeper would
// otherwise run in a process of its own, which the runner reads as hwsession reads its arguments.
#pragma once

#include <string>
#include <vector>

namespace clgrade {

std::string sessionPartText(const std::string& folder, const std::vector<std::string>& argv);
/// False with `err` where `text` is not what sessionPartText writes.
bool readSessionPartText(const std::string& text, std::string* folder, std::vector<std::string>* argv,
                         std::string* err);

}  // namespace clgrade
