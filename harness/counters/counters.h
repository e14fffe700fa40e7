// Counts of memory accesses and local-memory bank conflicts per kernel, as the Oclgrind plugin
// (harness/counters/oclgrind) writes them: the evidence for the technique criteria.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/report.h"

namespace clgrade {

struct AccessCounts {
  long loads = 0, stores = 0, atomics = 0;
  long loadBytes = -1;  ///< bytes the loads read (hardware: the 32-byte sectors they asked for); < 0: not counted
  /// Local loads of a word another work-item of the group stored (the simulator's); < 0: not counted.
  long sharedLoads = -1;
  /// What the atomics added up to (atomic_inc 1, atomic_add(p, v) v; the simulator's); -1: not counted.
  long atomicsAdded = -1;
};

/// Warp requests to local memory, the wavefronts they took, and the conflicts:
/// wavefronts - ceil(distinct words / banks) summed over requests (0 when conflict-free).
struct BankTally {
  long requests = 0, wavefronts = 0, conflicts = 0;
};

struct BankCounts {
  BankTally load, store, atomic;
};

/// A source line responsible for conflicts.
struct LineConflicts {
  int line = 0;
  std::string kind;   ///< load, store, atomic
  std::string phase;  ///< load (before the first barrier) or compute
  long requests = 0, wavefronts = 0, conflicts = 0;
};

struct KernelCounters {
  std::string name;
  long invocations = 0;
  long workGroups = 0;
  AccessCounts global, local;
  AccessCounts constant;          ///< __constant (the weights), apart from the image data in global memory
  long groupSize[3] = {0, 0, 0};  ///< the launches' work-group size; 0 when not counted (hardware)
  BankCounts bank;
  BankCounts loadPhase;     ///< before the first barrier a work-item passes: the tile load
  BankCounts computePhase;  ///< after it
  std::vector<LineConflicts> lines;
  /// The simulated kernel read a pointer's value (at `pointerValueLine`, 0 when the compiler kept no
  /// line): the simulator's addresses are not the device's, so its run may not be the device's.
  bool pointerValueRead = false;
  int pointerValueLine = 0;
  /// A work-item loaded local memory no work-item of its group had stored (at `unsetLocalLine`): the
  /// simulator's is zeros, a device's what another group left, so its run may not be the device's.
  bool unsetLocalRead = false;
  int unsetLocalLine = 0;
  /// An operation whose result is undefined (a float converted out of its integer's range, a division
  /// by zero): each compiler gives its own value, so its run may not be the device's.
  bool undefinedOperation = false;
  int undefinedOperationLine = 0;
  /// Work-items exchanged different values into one local word with no barrier between (atomics):
  /// the word keeps whichever came last, in an order no device promises; a race the simulator's race
  /// detector never reports.
  bool orderDependentWrite = false;
  int orderDependentWriteLine = 0;
};

struct CounterReport {
  int banks = 32, bankBytes = 4, warpSize = 32;
  /// Empty: simulated in Oclgrind (the plugin's full counts). Else where the counts were measured,
  /// "hardware (ncu, NVIDIA H100 80GB HBM3)": such a report holds only what the hardware counted
  /// (shared loads and stores, or atomics and work-groups), so that the simulated rules judge
  /// hardware figures, and `notes` says per kernel what that was.
  std::string origin;
  std::map<std::string, std::string> notes;  ///< hardware: kernel -> the counts as a line
  std::vector<KernelCounters> kernels;
  /// nullptr when the kernel never ran.
  const KernelCounters* find(const std::string& name) const;
};

/// The simulated counts of every kernel as rows.
std::vector<CounterRow> counterRows(const CounterReport& report);

/// Parses the plugin's JSON; false with a message when the file is missing or malformed.
bool readCounters(const std::string& path, CounterReport* report, std::string* err);

}  // namespace clgrade
