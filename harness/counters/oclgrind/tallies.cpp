#include "tallies.h"

#include <algorithm>
#include <tuple>

namespace clgrade::counters {

const char* kindName(AccessKind kind) {
  switch (kind) {
    case AccessKind::Load:
      return "load";
    case AccessKind::Store:
      return "store";
    case AccessKind::Atomic:
      return "atomic";
  }
  return "?";
}

const char* phaseName(Phase phase) { return phase == Phase::Load ? "load" : "compute"; }

void BankTally::add(const BankTally& other) {
  requests += other.requests;
  wavefronts += other.wavefronts;
  conflicts += other.conflicts;
}

void AccessCounts::count(AccessKind kind, size_t bytes) {
  switch (kind) {
    case AccessKind::Load:
      ++loads;
      loadBytes += bytes;
      break;
    case AccessKind::Store:
      ++stores;
      break;
    case AccessKind::Atomic:
      ++atomics;
      loadBytes += bytes;  // an atomic reads its word: a tap read with atomic_cmpxchg is a read
      break;
  }
}

void AccessCounts::add(const AccessCounts& other) {
  loads += other.loads;
  loadBytes += other.loadBytes;
  stores += other.stores;
  atomics += other.atomics;
  sharedLoads += other.sharedLoads;
  atomicsAdded += other.atomicsAdded;
}

bool LineKey::operator<(const LineKey& other) const {
  return std::tie(line, kind, phase) < std::tie(other.line, other.kind, other.phase);
}

void Sighting::note(uint32_t where) {
  // The least line that says where (0: the compiler kept none).
  if (!seen || (where && (!line || where < line))) line = where;
  seen = true;
}

void Sighting::merge(const Sighting& other) {
  if (other.seen) note(other.line);
}

void KernelTally::merge(const KernelTally& other) {
  invocations += other.invocations;
  workGroups += other.workGroups;
  global.add(other.global);
  constant.add(other.constant);
  local.add(other.local);
  if (other.groupSize[0]) std::copy(other.groupSize, other.groupSize + 3, groupSize);
  pointerValue.merge(other.pointerValue);
  unsetLocal.merge(other.unsetLocal);
  undefinedOperation.merge(other.undefinedOperation);
  orderDependentWrite.merge(other.orderDependentWrite);
  for (const auto& [key, tally] : other.lines) lines[key].add(tally);
}

BankTally KernelTally::bankTotal(AccessKind kind) const {
  BankTally sum;
  for (const auto& [key, tally] : lines)
    if (key.kind == kind) sum.add(tally);
  return sum;
}

BankTally KernelTally::bankTotal(AccessKind kind, Phase phase) const {
  BankTally sum;
  for (const auto& [key, tally] : lines)
    if (key.kind == kind && key.phase == phase) sum.add(tally);
  return sum;
}

}  // namespace clgrade::counters
