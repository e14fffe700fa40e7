// What the plugin counts, per kernel name: accesses by address space, and local-memory requests,
// wavefronts and conflicts per source line, access kind and phase. Plain C++ with no Oclgrind.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace clgrade::counters {

/// How a lane touched memory. Atomics are their own kind: Oclgrind reports an atomic as a load
/// and a store, the plugin counts it once.
enum class AccessKind : uint8_t { Load, Store, Atomic };

/// "load": before the first barrier of the work-group; "compute": after it. For a tiled kernel
/// that separates filling the tile from reading it.
enum class Phase : uint8_t { Load, Compute };

/// "load", "store", "atomic": the names report.json uses.
const char* kindName(AccessKind kind);
/// "load", "compute".
const char* phaseName(Phase phase);

/// Whether something happened in a kernel, and the least source line where (0: the compiler kept
/// none): what the simulator saw that may make its run not the device's.
struct Sighting {
  bool seen = false;
  uint32_t line = 0;
  void note(uint32_t where);
  void merge(const Sighting& other);
};

/// Local-memory requests (warp instructions) and what they cost.
struct BankTally {
  uint64_t requests = 0;
  uint64_t wavefronts = 0;
  uint64_t conflicts = 0;
  void add(const BankTally& other);
};

/// Number of accesses (one per lane and instruction, whatever its size) in one address space.
struct AccessCounts {
  uint64_t loads = 0;
  uint64_t stores = 0;
  uint64_t atomics = 0;
  uint64_t loadBytes = 0;  ///< bytes loads and atomics read: a float4 is one load, or four of one float each
  /// Local loads that read a word another work-item of the group (or a group copy) stored: what a
  /// tile is for. A work-item reading back its own stores shares nothing (spec 5c).
  uint64_t sharedLoads = 0;
  /// What the atomics added up to: +1 an atomic_inc, +v an atomic_add(p, v), minus for dec and sub;
  /// nothing for the others. A histogram's local atomics count each pixel once, whether one at a time
  /// or a work-item's run of equal bins at once; atomic_add(p, 0) counts nothing. Local: each lane's
  /// sum, between 0 and the global words it read (a lane cannot count more pixels than it read).
  int64_t atomicsAdded = 0;
  void count(AccessKind kind, size_t bytes);
  void add(const AccessCounts& other);
};

/// Where requests come from: a source line (0 when the instruction has none), kind and phase.
struct LineKey {
  uint32_t line = 0;
  AccessKind kind = AccessKind::Load;
  Phase phase = Phase::Load;
  bool operator<(const LineKey& other) const;
};

/// Everything counted for one kernel name (all its launches summed), or for one work-group
/// before it is merged into its kernel.
struct KernelTally {
  uint64_t invocations = 0;
  uint64_t workGroups = 0;
  AccessCounts global;    // __global (Oclgrind keeps __constant in the same memory: told apart by the pointer)
  AccessCounts constant;  // __constant: the weights every work-item reads, not its image data
  AccessCounts local;
  uint64_t groupSize[3] = {0, 0, 0};   // the work-group size of the last launch (the tile's size)
  std::map<LineKey, BankTally> lines;  // every line with local requests, conflicting or not
  /// Where the kernel read a pointer's value: a cast of a pointer to an integer, a pointer stored and
  /// loaded back as a number, a comparison with a fixed address. The simulator's buffers lie at other
  /// addresses than the device's (spec 5c).
  Sighting pointerValue;
  /// Where a work-item loaded a word of local memory no work-item of its group had stored: undefined
  /// in OpenCL, zeros in the simulator, what another group left on a device (spec 5c).
  Sighting unsetLocal;
  /// Where an operation's result is undefined: a float converted to an integer out of its range (or a
  /// NaN), an integer division by zero or of the least value by -1. Each compiler gives its own value.
  Sighting undefinedOperation;
  /// Where work-items exchanged different values into one local word (atomic_xchg) with no barrier
  /// between: the word keeps whichever came last, in an order no device promises. Oclgrind's
  /// race detector never pairs two atomics.
  Sighting orderDependentWrite;

  void merge(const KernelTally& other);
  /// Sum over lines of one kind; with a phase, of that phase only.
  BankTally bankTotal(AccessKind kind) const;
  BankTally bankTotal(AccessKind kind, Phase phase) const;
};

/// Kernel name -> its tally; std::map so the output is in a stable order.
using KernelTallies = std::map<std::string, KernelTally>;

}  // namespace clgrade::counters
