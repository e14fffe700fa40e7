// A buffer read back, written as the blocks that differ from what the host knows is there (its own
// upload or sentinel fill). A runner reads back every plane of every case, guards as large as the
// plane on each side, and most of those bytes are what the host wrote: the separable task's record
// shrank from 1.4 GB to 231 MB with this. Both sides hold the same baseline (the keeper replays the
// same host code), so nothing is lost: the keeper rebuilds exactly the bytes the runner read.
#pragma once

#include <cstddef>
#include <string>

namespace clgrade {

/// The encoding's block: small enough that a stray write costs little, large enough that the map is
/// a thousandth of the buffer.
constexpr size_t kDeltaBlockBytes = 4096;

/// What the host knows is in a buffer: its bytes, or one block repeated (a fill with one value,
/// which then costs 4 KiB instead of the buffer's size).
struct DeltaBaseline {
  const char* bytes = nullptr;
  bool repeated = false;  ///< `bytes` is one block (kDeltaBlockBytes) that every block starts as
  const char* block(size_t b) const { return repeated ? bytes : bytes + b * kDeltaBlockBytes; }
};

/// `now` (n bytes) against `base`: the size, the block size, one byte per block (1: the block
/// follows, 0: as in `base`), then the differing blocks in order.
std::string encodeBlockDelta(const char* now, DeltaBaseline base, size_t n);

/// Rebuilds the n bytes into `out` from `encoded` and `base`. False with `why` for anything another
/// encoder would not have written (another size or block size, a map value other than 0/1, too few
/// or too many block bytes): a record is untrusted. `out` is then left unspecified.
bool decodeBlockDelta(const std::string& encoded, DeltaBaseline base, size_t n, char* out, std::string* why);

}  // namespace clgrade
