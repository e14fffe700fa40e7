// Rebuilds warp instructions from what Oclgrind reports. Oclgrind runs the work-items of a group
// one after the other, each up to the next barrier, so the lanes of one warp instruction arrive
// far apart; this class pairs them up again and tallies each request's cost. Plain C++: an
// instruction is only an opaque pointer here.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "bank_model.h"
#include "tallies.h"

namespace clgrade::counters {

/// Where a lane's access belongs in the warp's instruction stream: the instruction, a hash of its
/// dynamic context (the calls that led to it and the lane's iteration in each loop around it; 0 in
/// the kernel body outside loops) and the kind, since one call (an atomic, a builtin) can load and store.
struct Site {
  const void* instruction = nullptr;
  uint64_t context = 0;
  AccessKind kind = AccessKind::Load;
  bool operator==(const Site& other) const;
};

/// Collects one work-group's local accesses into requests: lanes of one warp whose accesses have the
/// same site (same loop iterations included) form one request. Lane i's k-th access at a site pairs
/// with lane j's k-th one since the last barrier, which tells apart several accesses of one
/// instruction (a builtin that accesses memory twice) and stands in for loops LLVM does not see.
class WarpRegrouper {
 public:
  /// Starts a work-group: phase "load", requests tallied into `out`.
  void begin(const BankModel& model, KernelTally* out);
  /// Lane `lane` (linear local id) accessed [address, address + size) at `site`, on source `line`.
  void record(uint32_t lane, const Site& site, uint32_t line, uint64_t address, uint32_t size);
  /// The group passed a barrier: every pending request is complete; later ones are phase "compute".
  void barrier();
  /// The group finished: tallies what is pending.
  void finish();
  /// True if a warp came back after a later warp had run in the same barrier interval, which
  /// Oclgrind's linear schedule never does; its requests were then split and undercounted.
  bool sawOutOfOrderLanes() const { return outOfOrder_; }

 private:
  struct LaneSite {
    uint32_t lane;
    Site site;
    bool operator==(const LaneSite& other) const { return lane == other.lane && site == other.site; }
  };
  struct RequestKey {
    Site site;
    uint64_t occurrence;
    bool operator==(const RequestKey& other) const { return occurrence == other.occurrence && site == other.site; }
  };
  struct Request {
    uint32_t line = 0;
    std::vector<LaneAccess> lanes;
  };
  struct Hash {
    size_t operator()(const LaneSite& k) const;
    size_t operator()(const RequestKey& k) const;
  };

  /// Tallies the requests of the warp in flight and forgets its lanes' occurrence counts. Lanes run
  /// in linear order, so once a lane of another warp shows up, the warp is done until the barrier.
  void flushWarp();

  BankModel model_;
  KernelTally* out_ = nullptr;
  Phase phase_ = Phase::Load;
  int64_t warp_ = -1;          // the warp whose requests are pending
  std::vector<bool> flushed_;  // warps already tallied in this barrier interval
  bool outOfOrder_ = false;
  std::unordered_map<LaneSite, uint64_t, Hash> occurrences_;
  std::unordered_map<RequestKey, Request, Hash> requests_;
  CostScratch scratch_;
};

}  // namespace clgrade::counters
