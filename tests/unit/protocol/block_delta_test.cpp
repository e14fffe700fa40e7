// A buffer read back as the blocks that differ from the host's own upload (protocol/block_delta.h): it
// rebuilds exactly, and a damaged or forged encoding is refused, never half-applied.
#include <gtest/gtest.h>

#include "protocol/block_delta.h"

namespace clgrade {
namespace {

std::string roundTrip(const std::string& now, const std::string& base, size_t* encodedSize = nullptr) {
  const std::string enc = encodeBlockDelta(now.data(), DeltaBaseline{base.data(), false}, now.size());
  if (encodedSize) *encodedSize = enc.size();
  std::string out(base.size(), '?'), why;
  EXPECT_TRUE(decodeBlockDelta(enc, DeltaBaseline{base.data(), false}, base.size(), out.data(), &why)) << why;
  return out;
}

TEST(BlockDelta, RebuildsExactlyAndKeepsOnlyTheChangedBlocks) {
  const size_t n = 10 * kDeltaBlockBytes + 123;  // a partial last block
  const std::string base(n, 'g');
  size_t size = 0;
  EXPECT_EQ(roundTrip(base, base, &size), base);
  EXPECT_LT(size, 100u) << "an unchanged buffer costs its map only";

  std::string now = base;
  now[0] = 'a';                     // the first block
  now[5 * kDeltaBlockBytes] = 'b';  // a middle one
  now[n - 1] = 'c';                 // the partial last block
  EXPECT_EQ(roundTrip(now, base, &size), now);
  EXPECT_EQ(size, 16 + 11 + 2 * kDeltaBlockBytes + 123);
  std::string all(n, 'x');
  EXPECT_EQ(roundTrip(all, base), all);
  EXPECT_EQ(roundTrip("", ""), "");
}

/// A fill with one value is one block repeated: no copy of the buffer is made to compare with.
TEST(BlockDelta, AFillIsOneBlockRepeated) {
  const size_t n = 5 * kDeltaBlockBytes + 100;
  const std::string block(kDeltaBlockBytes, 's');
  std::string now(n, 's');
  now[2 * kDeltaBlockBytes + 7] = 'w';
  now[n - 1] = 'w';
  const DeltaBaseline fill{block.data(), true};
  const std::string enc = encodeBlockDelta(now.data(), fill, n);
  EXPECT_EQ(enc.size(), 16 + 6 + kDeltaBlockBytes + 100);
  std::string out(n, '?'), why;
  ASSERT_TRUE(decodeBlockDelta(enc, fill, n, out.data(), &why)) << why;
  EXPECT_EQ(out, now);
}

TEST(BlockDelta, ForgedOrDamagedEncodingsAreRefused) {
  const size_t n = 3 * kDeltaBlockBytes;
  const std::string base(n, 'g');
  std::string now = base;
  now[kDeltaBlockBytes] = 'x';
  const std::string good = encodeBlockDelta(now.data(), DeltaBaseline{base.data(), false}, n);
  std::string out(n, '?'), why;
  auto refused = [&](const std::string& enc, size_t size = 3 * kDeltaBlockBytes) {
    why.clear();
    return !decodeBlockDelta(enc, DeltaBaseline{base.data(), false}, size, out.data(), &why) && !why.empty();
  };
  EXPECT_TRUE(refused(good, n - 4)) << "another buffer size";
  EXPECT_TRUE(refused(good.substr(0, 10))) << "shorter than its header";
  EXPECT_TRUE(refused(good.substr(0, good.size() - 1))) << "a block byte missing";
  EXPECT_TRUE(refused(good + "z")) << "a byte too many";
  std::string map = good;
  map[16] = 2;
  EXPECT_TRUE(refused(map)) << "a map value other than 0 or 1";
  std::string flipped = good;
  flipped[16] = 1;  // claims a block it does not carry
  EXPECT_TRUE(refused(flipped));
  std::string block = good;
  block[8] = 1;  // another block size
  EXPECT_TRUE(refused(block));
}

}  // namespace
}  // namespace clgrade
