// Technique criteria judged from simulated counters: how a kernel uses local memory, not what it
// computes. Shared by the tasks so each rule is written once.
#pragma once

#include <string>
#include <vector>

#include "model/status.h"
#include "counters/counters.h"

namespace clgrade {

/// The tile (and halo) is stored into local memory, and those stores (before the first barrier)
/// are free of bank conflicts.
void judgeTileLoad(const CounterReport& counters, const std::string& kernel, CaseOutcome* outcome);

/// Every kernel named reads local memory (its tile).
void judgeLocalReads(const CounterReport& counters, const std::vector<std::string>& kernels, CaseOutcome* outcome);

/// Counts with local atomics and merges with at most one global atomic per bin and work-group.
void judgeLocalHistogram(const CounterReport& counters, const std::string& kernel, int bins, CaseOutcome* outcome);

}  // namespace clgrade
