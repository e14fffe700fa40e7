#include "tasks/technique.h"

#include <cstdio>

namespace clgrade {
namespace {

std::string counts(const char* space, const AccessCounts& a) {
  return std::string(space) + " loads " + std::to_string(a.loads) + ", stores " + std::to_string(a.stores) +
         ", atomics " + std::to_string(a.atomics);
}

std::string tally(const char* what, const BankTally& t) {
  return std::string(what) + ": " + std::to_string(t.requests) + " requests, " + std::to_string(t.wavefronts) +
         " wavefronts, " + std::to_string(t.conflicts) + " conflicts";
}

/// The evidence lines every technique outcome carries: the model and the counts.
void describe(const CounterReport& counters, const KernelCounters& k, CaseOutcome* o) {
  if (!counters.origin.empty()) {  // hardware: only what it counted, as the report says it
    const auto note = counters.notes.find(k.name);
    o->details.push_back(counters.origin + ": " + k.name + ": " + (note == counters.notes.end() ? "" : note->second));
    return;
  }
  o->details.push_back(k.name + " (simulated in Oclgrind, " + std::to_string(counters.banks) + " banks of " +
                       std::to_string(counters.bankBytes) + " bytes, warps of " + std::to_string(counters.warpSize) +
                       "; " + std::to_string(k.workGroups) + " work-groups in " + std::to_string(k.invocations) +
                       " launches)");
  o->details.push_back("  " + counts("global", k.global) + "; " + counts("local", k.local));
  o->details.push_back("  " + tally("local stores before the first barrier", k.loadPhase.store));
  o->details.push_back("  " + tally("local loads after it", k.computePhase.load));
  for (const LineConflicts& l : k.lines) {
    o->details.push_back("  line " + std::to_string(l.line) + ": " + std::to_string(l.conflicts) + " conflicts in " +
                         std::to_string(l.requests) + " " + l.kind + " requests (" + l.phase + " phase)");
  }
}

const KernelCounters* ran(const CounterReport& counters, const std::string& kernel, CaseOutcome* o) {
  const KernelCounters* k = counters.find(kernel);
  if (!k) {
    o->status = Status::Failed;
    o->message = kernel + (counters.origin.empty() ? " never ran in the simulator (see the analysis log)"
                                                   : " never ran under " + counters.origin);
  }
  return k;
}

}  // namespace

void judgeTileLoad(const CounterReport& counters, const std::string& kernel, CaseOutcome* o) {
  const KernelCounters* k = ran(counters, kernel, o);
  if (!k) return;
  describe(counters, *k, o);
  const BankTally& stores = k->loadPhase.store;
  if (k->local.stores == 0) {
    o->status = Status::Failed;
    o->message = kernel + " stores nothing into local memory: the tile and halo must be loaded into a local tile";
  } else if (stores.conflicts > 0) {
    char perRequest[32];
    std::snprintf(perRequest, sizeof perRequest, "%.2f", double(stores.conflicts) / double(std::max(1L, stores.requests)));
    o->status = Status::Failed;
    o->message = std::to_string(stores.conflicts) + " bank conflicts while storing the tile (" + perRequest +
                 " per warp request)" +
                 (k->lines.empty() ? "" : "; worst at line " + std::to_string(k->lines.front().line));
  } else {
    o->status = Status::Passed;
    o->message = "tile stored into local memory without bank conflicts (" + std::to_string(stores.requests) +
                 " warp requests, 0 conflicts)";
  }
}

void judgeLocalReads(const CounterReport& counters, const std::vector<std::string>& kernels, CaseOutcome* o) {
  o->status = Status::Passed;
  std::string without;
  for (const std::string& name : kernels) {
    const KernelCounters* k = ran(counters, name, o);
    if (!k) return;
    describe(counters, *k, o);
    if (k->local.loads == 0) without += (without.empty() ? "" : ", ") + name;
  }
  if (!without.empty()) {
    o->status = Status::Failed;
    o->message = without + " read no local memory: the normals and depths are read straight from global memory";
  } else {
    o->message = "every discontinuity kernel reads its tile from local memory";
  }
}

void judgeLocalHistogram(const CounterReport& counters, const std::string& kernel, int bins, CaseOutcome* o) {
  const KernelCounters* k = ran(counters, kernel, o);
  if (!k) return;
  describe(counters, *k, o);
  const long mergeLimit = k->workGroups * bins;
  if (k->local.atomics == 0) {
    o->status = Status::Failed;
    o->message = kernel + " uses no local atomics: count into the local histogram first";
  } else if (k->global.atomics > mergeLimit) {
    o->status = Status::Failed;
    o->message = kernel + " makes " + std::to_string(k->global.atomics) + " global atomics, more than one per bin and " +
                 "work-group (" + std::to_string(mergeLimit) + "): merge the local histogram once per group";
  } else {
    o->status = Status::Passed;
    o->message = std::to_string(k->local.atomics) + " local atomics, " + std::to_string(k->global.atomics) +
                 " global atomics for " + std::to_string(k->workGroups) + " work-groups";
  }
}

}  // namespace clgrade
