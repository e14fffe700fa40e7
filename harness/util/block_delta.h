// A buffer read back, written as the blocks that differ from what the host knows is there (its own
// upload or sentinel fill). A runner reads back every plane of every case, guards as large as the
// plane on each side, and most of those bytes are what the host wrote: the separable task's record
// shrank from 1.4 GB to a fraction with this. Both sides hold the same baseline (the keeper replays
// the same host code), so nothing is lost: the keeper rebuilds exactly the bytes the runner read.
#pragma once

#include <cstddef>
#include <string>

namespace clgrade {

/// The encoding's block: small enough that a stray write costs little, large enough that the map is
/// a thousandth of the buffer.
constexpr size_t kDeltaBlockBytes = 4096;

/// `now` (n bytes) against `base` (n bytes): the size, the block size, one byte per block (1: the
/// block follows, 0: as in `base`), then the differing blocks in order.
std::string encodeBlockDelta(const char* now, const char* base, size_t n);

/// Rebuilds the n bytes from `encoded` and `base`. False with `why` for anything another encoder
/// would not have written (another size or block size, a map value other than 0/1, too few or too
/// many block bytes): a record is untrusted.
bool decodeBlockDelta(const std::string& encoded, const char* base, size_t n, std::string* out, std::string* why);

}  // namespace clgrade
