// A batch split into N shards (`clgrade batch --shard K/N`): each shard grades a deterministic share
// of the submissions, so N machines (a Slurm job array, `clgrade slurm`) grade one class and
// `clgrade merge` puts the shares back together.
#pragma once

#include <string>

namespace clgrade {

/// Shard `index` of `count` (1 <= index <= count); count 0: no split, every submission.
struct Shard {
  int index = 0, count = 0;
  bool active() const { return count > 0; }
  std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

/// "K/N" with 1 <= K <= N <= kMaxShards (whole decimal numbers, nothing around them); false with a
/// message that says what is wrong otherwise.
bool parseShard(const std::string& text, Shard* shard, std::string* err);
constexpr int kMaxShards = 10000;  ///< Slurm's default MaxArraySize is 1001; far beyond any class

/// The shard (1..count) a submission of this name belongs to: the first 60 bits of the SHA-256 of the
/// name (the batch's name, in Unicode NFC) modulo count, plus 1, so it depends on nothing but the name
/// and the count (and never changes between clgrade versions: a test pins it). Not the
/// position in the sorted list: the tasks of a job array start minutes or hours apart, and a
/// submission added to (or removed from) the folder in between would shift every later one into
/// another shard, grading some twice and others never. The price is an uneven split for a handful of
/// submissions (binomial: 200 submissions in 10 shards hold 20 +- 4 each).
int shardOf(const std::string& name, int count);

}  // namespace clgrade
