#include "protocol/block_delta.h"

#include <cstdint>
#include <cstring>

namespace clgrade {
namespace {

void putU64(std::string& s, uint64_t v) {
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t getU64(const std::string& s, size_t at) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(static_cast<unsigned char>(s[at + i])) << (8 * i);
  return v;
}

}  // namespace

std::string encodeBlockDelta(const char* now, const DeltaBaseline& base, size_t n) {
  const size_t blocks = (n + kDeltaBlockBytes - 1) / kDeltaBlockBytes;
  std::string map(blocks, '\0');
  size_t changedBytes = 0;
  alignas(16) char scratch[kDeltaBlockBytes];
  for (size_t b = 0; b < blocks; ++b) {
    const size_t at = b * kDeltaBlockBytes, len = std::min(kDeltaBlockBytes, n - at);
    if (std::memcmp(now + at, base.block(b, scratch), len) != 0) {
      map[b] = 1;
      changedBytes += len;
    }
  }
  std::string out;
  out.reserve(16 + blocks + changedBytes);
  putU64(out, n);
  putU64(out, kDeltaBlockBytes);
  out += map;
  for (size_t b = 0; b < blocks; ++b)
    if (map[b]) out.append(now + b * kDeltaBlockBytes, std::min(kDeltaBlockBytes, n - b * kDeltaBlockBytes));
  return out;
}

bool BlockDeltaView::open(const std::string& encoded, size_t n, std::string* why) {
  const size_t blocks = (n + kDeltaBlockBytes - 1) / kDeltaBlockBytes;
  encoded_ = &encoded;
  n_ = n;
  offsets_.clear();
  if (encoded.size() < 16 || getU64(encoded, 0) != n || getU64(encoded, 8) != kDeltaBlockBytes ||
      encoded.size() - 16 < blocks) {
    *why = "a buffer of another size or encoding";
    return false;
  }
  offsets_.assign(blocks, kSame);
  size_t from = 16 + blocks;
  for (size_t b = 0; b < blocks; ++b) {
    const unsigned char m = static_cast<unsigned char>(encoded[16 + b]);
    if (m > 1) {
      *why = "a damaged block map";
      offsets_.clear();
      return false;
    }
    if (m) {
      offsets_[b] = from;
      from += blockBytes(b);
    }
  }
  if (encoded.size() != from) {
    *why = "a buffer with too few or too many bytes";
    offsets_.clear();
    return false;
  }
  return true;
}

bool decodeBlockDelta(const std::string& encoded, const DeltaBaseline& base, size_t n, char* out, std::string* why) {
  BlockDeltaView view;
  if (!view.open(encoded, n, why)) return false;
  for (size_t b = 0; b < view.blocks(); ++b) {
    char* to = out + b * kDeltaBlockBytes;
    const char* changed = view.changed(b);
    if (base.make && !changed)
      base.make(b, to);  // made in place: never a block larger than its own
    else
      std::memcpy(to, changed ? changed : base.block(b, nullptr), view.blockBytes(b));
  }
  return true;
}

}  // namespace clgrade
