// Atomics per work-item counted on the GPU without a profiler (issue 29): the kernel's PTX with a
// counter added before each atomic instruction, a global 64-bit add under the atomic's own guard, so
// that every work-item that executes an atomic adds one to that instruction's counter (two counters
// for a generic atomic: one for the work-items whose address is in local memory, one for the rest).
// The counted launch is a copy of the replayed launch that writes nothing back; what it counts is the
// atomics of the graded code as the compiler wrote them (spec 5c), per work-item as the rules read
// them. It replaced ncu's SourceCounters run (two ncu processes and two exports per grade, 3-4 s
// each on the profiler lock).
#pragma once

#include <string>
#include <vector>

namespace clgrade {

/// Where a counted atomic's address lies.
enum class PtxAtomicSpace { Shared, Global, Generic };

/// One atomic instruction of the module and its counters.
struct PtxAtomicSite {
  std::string entry;  ///< the kernel (`.entry`) it is in
  int line = 0;       ///< 1-based, in the PTX given to instrumentPtxAtomics
  std::string text;   ///< the instruction, trimmed
  PtxAtomicSpace space = PtxAtomicSpace::Global;
  /// Its counters in kPtxAtomicCounters: `slot` counts Shared or Global sites; a Generic site's
  /// work-items with a local address go to `slot`, the others to `slot + 1`.
  int slot = 0;
  /// What its local executions added: an integer add's value sums into `addedSlot` (after every
  /// site's counting slots); an inc adds one an execution (its local count); any other operation
  /// adds nothing. -1: no slot (not an add, or a value operand not read here: `addedKnown` false).
  int addedSlot = -1;
  bool addedKnown = true;
};

/// The most one local add counts on the GPU (PtxAtomicSite::addedSlot): a work-item's run of equal
/// bins is a few pixels; the simulator caps each work-item by what it read instead.
constexpr int kMostAddedAtOnce = 64;

/// The module-scope array of 64-bit counters the instrumented PTX adds (8 bytes a slot).
extern const char* const kPtxAtomicCounters;

/// `ptx` (patched, before the parameters are rebased) with the counters added; `sites` the atomic
/// instructions found, in order. False with a message when an atomic is written in a way this does
/// not understand (so that an atomic is never left uncounted without a word).
bool instrumentPtxAtomics(const std::string& ptx, std::string* out, std::vector<PtxAtomicSite>* sites,
                          int* slots, std::string* err);

}  // namespace clgrade
