#include "bank_model.h"

#include <algorithm>

namespace clgrade::counters {

RequestCost requestCost(const BankModel& model, const std::vector<LaneAccess>& lanes, CostScratch* scratch) {
  std::vector<uint64_t>& words = scratch->words;
  words.clear();
  for (const LaneAccess& lane : lanes) {
    if (lane.size == 0) continue;
    const uint64_t first = lane.address / model.bankBytes;
    const uint64_t last = (lane.address + lane.size - 1) / model.bankBytes;
    for (uint64_t w = first; w <= last; ++w) words.push_back(w);
  }
  RequestCost cost;
  if (words.empty()) return cost;
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());

  std::vector<uint32_t>& perBank = scratch->perBank;
  perBank.assign(model.banks, 0);
  for (uint64_t w : words) cost.wavefronts = std::max<uint64_t>(cost.wavefronts, ++perBank[w % model.banks]);
  const uint64_t minimum = (words.size() + model.banks - 1) / model.banks;
  cost.conflicts = cost.wavefronts - minimum;
  return cost;
}

}  // namespace clgrade::counters
