#include "warp_regrouper.h"

namespace clgrade::counters {
namespace {

/// splitmix64's finaliser: spreads pointer bits, whose low bits are mostly alignment zeros.
uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t siteHash(const Site& s) {
  return mix(reinterpret_cast<uintptr_t>(s.instruction) ^ mix(s.context + static_cast<uint64_t>(s.kind)));
}

}  // namespace

bool Site::operator==(const Site& other) const {
  return instruction == other.instruction && context == other.context && kind == other.kind;
}

size_t WarpRegrouper::Hash::operator()(const LaneSite& k) const { return mix(siteHash(k.site) + k.lane); }

size_t WarpRegrouper::Hash::operator()(const RequestKey& k) const { return mix(siteHash(k.site) + k.occurrence); }

void WarpRegrouper::begin(const BankModel& model, KernelTally* out) {
  model_ = model;
  out_ = out;
  phase_ = Phase::Load;
  warp_ = -1;
  flushed_.clear();
  outOfOrder_ = false;
  occurrences_.clear();
  requests_.clear();
}

void WarpRegrouper::record(uint32_t lane, const Site& site, uint32_t line, uint64_t address, uint32_t size) {
  const int64_t warp = lane / model_.warpSize;
  if (warp != warp_) {
    flushWarp();
    warp_ = warp;
    if (static_cast<size_t>(warp) < flushed_.size() && flushed_[warp]) outOfOrder_ = true;
  }
  const uint64_t occurrence = occurrences_[LaneSite{lane, site}]++;
  Request& request = requests_[RequestKey{site, occurrence}];
  if (request.lanes.empty()) request.line = line;
  request.lanes.push_back(LaneAccess{address, size});
}

void WarpRegrouper::flushWarp() {
  if (warp_ < 0) return;
  for (const auto& [key, request] : requests_) {
    const RequestCost cost = requestCost(model_, request.lanes, &scratch_);
    BankTally& tally = out_->lines[LineKey{request.line, key.site.kind, phase_}];
    tally.add(BankTally{1, cost.wavefronts, cost.conflicts});
  }
  if (static_cast<size_t>(warp_) >= flushed_.size()) flushed_.resize(warp_ + 1, false);
  flushed_[warp_] = true;
  warp_ = -1;
  occurrences_.clear();
  requests_.clear();
}

void WarpRegrouper::barrier() {
  flushWarp();
  flushed_.clear();
  phase_ = Phase::Compute;
}

void WarpRegrouper::finish() { flushWarp(); }

}  // namespace clgrade::counters
