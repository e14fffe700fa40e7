// `clgrade hwsession`'s command line (keeper/hardware_session.h's sessionArgv writes it): the options
// of the internal command, and the same line read back where `run-tasks --session` runs the session
// in its own process (protocol/session_part.h). One reading for both, so that a session run after a
// submission's tasks is the session its own process would have run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runner/runner.h"

namespace CLI {
class App;
}

namespace clgrade {

struct SessionArgs {
  std::string ncu, clgrade, kernelsDir, rubric, out, csv, counters = "ncu";
  std::vector<std::string> tasks, atomics, profile;
  bool profileNone = false;
  double timeout = 300;
  std::vector<uint64_t> seeds;
};

void addSessionOptions(CLI::App* command, SessionArgs* args);
ProfilerSessionArgs sessionArgsOf(const SessionArgs& args);

/// `argv`: `<clgrade> hwsession ...` as a whole; false with `err` where it does not read as one.
bool parseSessionCommandLine(const std::vector<std::string>& argv, ProfilerSessionArgs* args, std::string* err);

}  // namespace clgrade
