// A buffer read back, written as the blocks that differ from what the host knows is there (its own
// upload or sentinel fill). A runner reads back every plane of every case, guards as large as the
// plane on each side, and most of those bytes are what the host wrote: the separable task's record
// shrank from 1.4 GB to 231 MB with this. Both sides hold the same baseline (the keeper replays the
// same host code), so nothing is lost: the keeper rebuilds exactly the bytes the runner read.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace clgrade {

/// The encoding's block: small enough that a stray write costs little, large enough that the map is
/// a thousandth of the buffer.
constexpr size_t kDeltaBlockBytes = 4096;

/// What the host knows is in a buffer: its bytes, one block repeated (a fill with one value, which
/// then costs 4 KiB instead of the buffer's size), or blocks made when asked for (an upload's layout:
/// no copy of a 96 MB plane is laid out to compare with, and a keeper whose record says no block
/// changed makes none).
struct DeltaBaseline {
  static DeltaBaseline of(const char* bytes) { return {bytes, false, {}}; }
  static DeltaBaseline repeating(const char* block) { return {block, true, {}}; }
  static DeltaBaseline madeBy(std::function<void(size_t b, char* out)> make) {
    return {nullptr, false, std::move(make)};
  }

  const char* bytes = nullptr;
  bool repeated = false;  ///< `bytes` is one block (kDeltaBlockBytes) that every block starts as
  /// Where set (and `bytes` null): writes block b (kDeltaBlockBytes, fewer for the last) to `out`.
  std::function<void(size_t b, char* out)> make;
  /// Block b's bytes; `scratch` (kDeltaBlockBytes) holds a made one.
  const char* block(size_t b, char* scratch) const {
    if (make) {
      make(b, scratch);
      return scratch;
    }
    return repeated ? bytes : bytes + b * kDeltaBlockBytes;
  }
};

/// `now` (n bytes) against `base`: the size, the block size, one byte per block (1: the block
/// follows, 0: as in `base`), then the differing blocks in order.
std::string encodeBlockDelta(const char* now, const DeltaBaseline& base, size_t n);

/// Rebuilds the n bytes into `out` from `encoded` and `base`. False with `why` for anything another
/// encoder would not have written (another size or block size, a map value other than 0/1, too few
/// or too many block bytes): a record is untrusted. `out` is then left unspecified.
bool decodeBlockDelta(const std::string& encoded, const DeltaBaseline& base, size_t n, char* out, std::string* why);

/// An encoding checked as decodeBlockDelta checks it, read block by block without rebuilding the
/// buffer: what differs from the baseline is all a reader of a sentinel fill or of an upload needs.
class BlockDeltaView {
 public:
  /// False with `why` for what decodeBlockDelta refuses. `encoded` must outlive the view.
  bool open(const std::string& encoded, size_t n, std::string* why);
  size_t blocks() const { return offsets_.size(); }
  /// Bytes of block b (kDeltaBlockBytes, fewer for the last).
  size_t blockBytes(size_t b) const { return std::min(kDeltaBlockBytes, n_ - b * kDeltaBlockBytes); }
  /// Block b as read, where it differs from the baseline; null where it is the baseline's.
  const char* changed(size_t b) const { return offsets_[b] == kSame ? nullptr : encoded_->data() + offsets_[b]; }

 private:
  static constexpr size_t kSame = ~size_t(0);
  const std::string* encoded_ = nullptr;
  size_t n_ = 0;
  std::vector<size_t> offsets_;  ///< each block's bytes in the encoding, kSame where unchanged
};

}  // namespace clgrade
