// Every step of a grading run that touches the device goes through deviceStep, so that a sandboxed
// runner records what the device handed back and the trusted keeper replays it (protocol/tape.h): in
// the keeper the step is never run, its recorded result is returned (or its OpenCL error thrown),
// and everything computed from it, every verdict included, is the keeper's own.
#pragma once

#include <functional>
#include <string>

#include "cl/runtime.h"
#include "protocol/tape.h"

namespace clgrade {

/// Runs `step` and returns the bytes it hands back. Recording: the bytes (or the cl::Error it threw,
/// rethrown) go on the tape. Replaying: `step` is not run; the tape's entry for `op` is returned,
/// or its cl::Error thrown. Without a tape: just `step()`.
std::string deviceStep(const Runtime& rt, const std::string& op, const std::function<std::string()>& step);

/// A step that hands nothing back (creating a buffer, setting an argument, writing a buffer).
void deviceAction(const Runtime& rt, const std::string& op, const std::function<void()>& step);

}  // namespace clgrade
