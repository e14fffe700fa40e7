// The trusted kernels' figures of a lone grade kept on the machine for the grades that follow, as a
// batch keeps its own (batch/trusted_timer.h, the same policy): a student's checks one after another,
// an instructor's regrades, time the reference kernels once every 15 minutes instead of in every
// grade, where their timings took turns with the submission's on the GPU and lengthened its longest
// path (on an H100, `check` 8.5 s -> 10.2 s when every grade timed them beside its runners).
// Figures are kept per clgrade build, device, rubric part and (where a performance case is hidden)
// hidden seed, in the keeper's cache folder, which no sandbox can reach.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/device_info.h"
#include "model/trusted_timings.h"
#include "rubric/rubric.h"

namespace clgrade {

/// The figures are timed again once they are this old.
constexpr double kReuseTrustedMinutes = 15;

/// What the figures depend on: clgrade's build, the device (its platform, name, driver and version,
/// not its clocks of the moment), the rubric's part of `tasks`, the reference and naive kernel files,
/// and the seed when one of their performance cases is hidden.
std::string trustedFiguresKey(const Rubric& rubric, const std::vector<std::string>& tasks, const DeviceInfo& device,
                              uint64_t hiddenSeed);

/// The figures kept under `key`, when taken less than kReuseTrustedMinutes ago; null otherwise.
std::shared_ptr<const TrustedTimings> keptTrustedFigures(const std::string& key);

/// Keeps `timings` under `key` (best effort: a cache folder that cannot be written keeps nothing).
void keepTrustedFigures(const std::string& key, const TrustedTimings& timings);

}  // namespace clgrade
