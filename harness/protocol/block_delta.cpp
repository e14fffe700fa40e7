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

std::string encodeBlockDelta(const char* now, DeltaBaseline base, size_t n) {
  const size_t blocks = (n + kDeltaBlockBytes - 1) / kDeltaBlockBytes;
  std::string map(blocks, '\0');
  size_t changedBytes = 0;
  for (size_t b = 0; b < blocks; ++b) {
    const size_t at = b * kDeltaBlockBytes, len = std::min(kDeltaBlockBytes, n - at);
    if (std::memcmp(now + at, base.block(b), len) != 0) {
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

bool decodeBlockDelta(const std::string& encoded, DeltaBaseline base, size_t n, char* out, std::string* why) {
  const size_t blocks = (n + kDeltaBlockBytes - 1) / kDeltaBlockBytes;
  if (encoded.size() < 16 || getU64(encoded, 0) != n || getU64(encoded, 8) != kDeltaBlockBytes ||
      encoded.size() - 16 < blocks) {
    *why = "a buffer of another size or encoding";
    return false;
  }
  size_t changedBytes = 0;
  for (size_t b = 0; b < blocks; ++b) {
    const unsigned char m = static_cast<unsigned char>(encoded[16 + b]);
    if (m > 1) {
      *why = "a damaged block map";
      return false;
    }
    if (m) changedBytes += std::min(kDeltaBlockBytes, n - b * kDeltaBlockBytes);
  }
  if (encoded.size() != 16 + blocks + changedBytes) {
    *why = "a buffer with too few or too many bytes";
    return false;
  }
  size_t from = 16 + blocks;
  for (size_t b = 0; b < blocks; ++b) {
    const size_t len = std::min(kDeltaBlockBytes, n - b * kDeltaBlockBytes);
    if (encoded[16 + b]) {
      std::memcpy(out + b * kDeltaBlockBytes, encoded.data() + from, len);
      from += len;
    } else {
      std::memcpy(out + b * kDeltaBlockBytes, base.block(b), len);
    }
  }
  return true;
}

}  // namespace clgrade
