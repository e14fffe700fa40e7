// Where one lane is in its loops: for each loop it is inside, how many iterations it has started.
// A warp runs iteration k of a loop with the lanes still in it, so two lanes' executions of an
// instruction pair up when they happen in the same iteration of every loop around it: for nested
// loops whose inner trip count differs per lane, counting a lane's executions of the instruction
// would pair different rows. A template over the loop and block types, so it is tested without LLVM.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace clgrade::counters {

/// One call level of a lane's position: the block it is in at that level (for a caller, the block
/// of the call) and a hash of the calls that led there.
template <typename Block>
struct Frame {
  const Block* block = nullptr;
  uint64_t chain = 0;
};

/// `Loop` needs `bool contains(const Block*) const`, as llvm::Loop has.
template <typename Loop, typename Block>
class LaneLoops {
 public:
  using Frames = std::vector<Frame<Block>>;  // outermost call level first; back() is where the lane is

  void clear() { entries_.clear(); }

  /// The lane entered the header of `loop` at `frames`: a new iteration if it was in the loop
  /// already, else the first one.
  void enterHeader(const Loop* loop, const Frames& frames) {
    dropExited(frames);
    const size_t level = frames.size() - 1;
    if (!entries_.empty() && entries_.back().loop == loop && entries_.back().level == level)
      ++entries_.back().iteration;
    else
      entries_.push_back(Entry{loop, level, frames.back().chain, 0});
  }

  /// A hash of the iteration the lane is in for each loop around `frames` (caller loops included);
  /// 0 outside loops.
  uint64_t iterationHash(const Frames& frames) {
    dropExited(frames);
    uint64_t hash = 0;
    for (const Entry& e : entries_)
      hash = (hash ^ (reinterpret_cast<uintptr_t>(e.loop) + e.iteration * 0x9e3779b97f4a7c15ull)) * 0x100000001b3ull;
    return hash;
  }

 private:
  struct Entry {
    const Loop* loop;
    size_t level;    // call level of the loop's function
    uint64_t chain;  // the calls that led to that function
    uint64_t iteration;
  };

  /// Forgets loops the lane has left: those of functions it returned from (a deeper level, or the
  /// same level reached through other calls) and those no longer around its block at their level.
  void dropExited(const Frames& frames) {
    entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                  [&](const Entry& e) {
                                    return e.level >= frames.size() || frames[e.level].chain != e.chain ||
                                           !e.loop->contains(frames[e.level].block);
                                  }),
                   entries_.end());
  }

  std::vector<Entry> entries_;
};

}  // namespace clgrade::counters
