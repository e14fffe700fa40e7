// The bank model of local memory: how many wavefronts one warp instruction needs and how many of
// them are conflicts. Plain C++ with no Oclgrind, so the arithmetic is tested on its own.
#pragma once

#include <cstdint>
#include <vector>

namespace clgrade::counters {

/// Local memory as banks of words, and how many lanes issue one instruction together.
struct BankModel {
  uint32_t banks = 32;
  uint32_t bankBytes = 4;
  uint32_t warpSize = 32;
};

/// One lane's part of a request: the bytes [address, address + size).
struct LaneAccess {
  uint64_t address = 0;
  uint32_t size = 0;
};

/// What one request (one warp instruction's active lanes) costs.
struct RequestCost {
  uint64_t wavefronts = 0;
  uint64_t conflicts = 0;
};

/// Buffers requestCost reuses from one request to the next, to spare allocations.
struct CostScratch {
  std::vector<uint64_t> words;
  std::vector<uint32_t> perBank;
};

/// Each lane covers the words [address / bankBytes, (address + size - 1) / bankBytes].
/// Wavefronts = the most distinct words any one bank must deliver (lanes reading the same word
/// share it: a broadcast is free). Conflicts = wavefronts beyond what the number of distinct words
/// needs anyway, ceil(words / banks), so a conflict-free float4 access (4 words a lane) counts 0,
/// as Nsight Compute counts it.
RequestCost requestCost(const BankModel& model, const std::vector<LaneAccess>& lanes, CostScratch* scratch);

}  // namespace clgrade::counters
