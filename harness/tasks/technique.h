// Technique criteria judged from simulated counters: how a kernel uses local memory, not what it
// computes. Shared by the tasks so each rule is written once.
#pragma once

#include <string>
#include <vector>

#include "model/status.h"
#include "counters/counters.h"

namespace clgrade {

/// The tile (and halo) is stored into local memory, the taps are read from it (global loads at
/// most twice the tile and halo per work-group, when the simulator counted the group size), and
/// the tile's stores (before the first barrier) are free of bank conflicts.
void judgeTileLoad(const CounterReport& counters, const std::string& kernel, CaseOutcome* outcome);

/// Every kernel named reads local memory (its tile).
void judgeLocalReads(const CounterReport& counters, const std::vector<std::string>& kernels, CaseOutcome* outcome);

/// What the histogram's technique rule needs to know of the case the counts come from.
struct HistogramShape {
  int bins = 64;
  long pixels = 0;      ///< of the image
  long hostGroups = 0;  ///< work-groups of the assignment's launch (16 x 16 over the image)
};

/// Every pixel passes through a local atomic (at least one per pixel), and the merge makes at most
/// one global atomic per bin and work-group, counted at the assignment's group size: a kernel that
/// shrinks its groups (reqd_work_group_size(8,8,1)) to allow a global atomic per pixel fails.
void judgeLocalHistogram(const CounterReport& counters, const std::string& kernel, const HistogramShape& shape,
                         CaseOutcome* outcome);

}  // namespace clgrade
