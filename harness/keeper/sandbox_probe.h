// Before anything of a submission is graded, the keeper asks one runner, in exactly the sandbox its
// tasks' runners get (the same launcher, mounts, limits and environment), to open the grade's device
// and every path a runner uses, and nothing else: no kernel is built or run. Where it cannot, the
// machine is at fault (ICD files or libraries the sandbox does not hold, a store or lock it cannot
// reach), and no task is graded: each is "not graded" with the probe's reason, never a 0 (spec 5c,
// issue 27). A batch probes once before its first submission.
#pragma once

#include <string>

#include "keeper/control_folder.h"
#include "keeper/keeper.h"
#include "keeper/runner_launcher.h"
#include "model/device_info.h"
#include "rubric/rubric.h"

namespace clgrade {

/// Runs the probe through `launcher` as a runner of the rubric's first task, its request and
/// messages in `folders`' control folder; "" when the sandbox saw the device and every path, else why
/// not (the machine's fault, said for the instructor).
std::string probeRunnerSandbox(const Rubric& rubric, const DeviceInfo& device, const KeeperSettings& settings,
                               ControlFolder& folders, RunnerLauncher& launcher);

}  // namespace clgrade
