#include "batch/shard.h"

#include <cstdint>

#include "util/sha256.h"

namespace clgrade {
namespace {

/// A whole decimal number of at most 9 digits (so it fits an int), nothing else; -1 otherwise.
int wholeNumber(const std::string& s) {
  if (s.empty() || s.size() > 9) return -1;
  int n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + (c - '0');
  }
  return n;
}

}  // namespace

bool parseShard(const std::string& text, Shard* shard, std::string* err) {
  const size_t slash = text.find('/');
  const int k = slash == std::string::npos ? -1 : wholeNumber(text.substr(0, slash));
  const int n = slash == std::string::npos ? -1 : wholeNumber(text.substr(slash + 1));
  if (k < 0 || n < 0) {
    *err = "--shard '" + text + "': expected K/N, two whole numbers (shard K of N, e.g. 2/8)";
    return false;
  }
  if (n < 1 || n > kMaxShards) {
    *err = "--shard " + text + ": the number of shards N must be between 1 and " + std::to_string(kMaxShards);
    return false;
  }
  if (k < 1 || k > n) {
    *err = "--shard " + text + ": K must be between 1 and N (" + std::to_string(n) +
           "); shards count from 1, as "
           "Slurm's SLURM_ARRAY_TASK_ID in --array=1-N";
    return false;
  }
  *shard = Shard{k, n};
  return true;
}

int shardOf(const std::string& name, int count) {
  if (count <= 1) return 1;
  const std::string hex = sha256Hex(name);
  uint64_t h = 0;
  for (int i = 0; i < 15; ++i) h = h * 16 + uint64_t(std::stoi(hex.substr(i, 1), nullptr, 16));
  return int(h % uint64_t(count)) + 1;
}

}  // namespace clgrade
