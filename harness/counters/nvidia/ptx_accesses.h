// Shared-memory bank conflicts and global-load sectors counted on the GPU without a profiler
// (issue 29): the kernel's PTX with a few warp-wide instructions before each shared load and store
// and each global load, which see the addresses of the lanes that run it together (activemask,
// match.any.sync) and add to that instruction's counters what the profiler's metrics would count:
// - a shared access: one warp instruction, and its bank conflicts under counters/oclgrind's bank
//   model (32 banks of 4 bytes: the most distinct words one bank must deliver, beyond the least any
//   request of that many words needs), as the simulator counts them;
// - a global load: one request, and the distinct 32-byte sectors its lanes ask for.
// Counting runs in the replay's own process, so no profiler session holds the GPU or the host: a
// batch's submissions no longer take turns on it. What is counted is the graded code's PTX as the
// compiler wrote it (spec 5c); exact where the hardware's load-conflict counters are noisy
// (spec section 9). A memory instruction this does not understand is refused with the reason, never
// left uncounted: the session then counts with ncu.
#pragma once

#include <string>
#include <vector>

namespace clgrade {

/// What a counted instruction does.
enum class PtxAccessKind {
  SharedLoad,
  SharedStore,
  GlobalLoad,
  GenericLoad,   ///< a generic address: counted as a shared load or a global load, lane by lane
  GenericStore,  ///< a generic address: counted where it lies in shared memory
};

/// One counted instruction of the module and its counters in kPtxAccessCounters.
struct PtxAccessSite {
  std::string entry;  ///< the kernel (`.entry`) or helper (`.func`) it is in
  int line = 0;       ///< 1-based, in the PTX given to instrumentPtxAccesses
  std::string text;   ///< the instruction, trimmed
  PtxAccessKind kind = PtxAccessKind::SharedLoad;
  int bytes = 0;  ///< per lane
  /// Shared: `slot` the warp instructions, `slot + 1` their bank conflicts. Global: `slot` the
  /// requests, `slot + 1` the sectors. Generic loads: the shared pair at `slot`, the global pair at
  /// `slot + 2`.
  int slot = 0;
  /// A global load that continues a vector load the compiler split into scalar loads (ld.global at
  /// [%rd8], then [%rd8+4], [%rd8+8], [%rd8+12]): the PTX line of the split load's first part, and
  /// the bytes the whole vector spans; 0 for any other access. Where every lane's vector is aligned to
  /// its span (as a vector load must be), its sectors are the first part's and this part counts
  /// nothing: the warp moved each sector once, as the one vector load would; else it counts as usual.
  int splitFrom = 0;
  int splitSpan = 0;
  int splitPart = 0;  ///< which part (1 to 3) of the split load, 0 the first or none
};

/// How the counts' CSV and log say who counted.
extern const char* const kPtxCountersNote;

/// Begins a refusal of instrumentPtxAccesses that the module's code caused (inline assembly, a
/// memory instruction the counters do not follow), not the machine (an old target): without ncu to
/// count it instead, its technique is not measured; the machine's refusals are the machine's fault.
extern const char* const kPtxItsOwnCode;

/// The module-scope array of 64-bit counters the instrumented PTX adds (8 bytes a slot).
extern const char* const kPtxAccessCounters;

/// `ptx` (patched, before the parameters are rebased) with the counters added; `sites` the counted
/// instructions, in order. False with a message when a memory instruction is written in a way this
/// does not understand, or the target has no warp-wide match (before sm_70, PTX 6.2).
bool instrumentPtxAccesses(const std::string& ptx, std::string* out, std::vector<PtxAccessSite>* sites, int* slots,
                           std::string* err);

/// One counted launch's counts summed over the module's sites (its kernel's and the helpers' it
/// called; the counters start at zero for each counted launch): the metrics clgrade reads of the
/// hardware (hardwareCounterMetrics(), ncu_csv.h), in that order.
std::vector<double> accessMetricValues(const std::vector<PtxAccessSite>& sites,
                                       const std::vector<unsigned long long>& counts);

}  // namespace clgrade
