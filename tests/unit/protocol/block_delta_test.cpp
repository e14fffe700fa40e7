// A buffer read back as the blocks that differ from the host's own upload (protocol/block_delta.h): it
// rebuilds exactly, and a damaged or forged encoding is refused, never half-applied.
#include <gtest/gtest.h>

#include <cstring>

#include "protocol/block_delta.h"

namespace clgrade {
namespace {

std::string roundTrip(const std::string& now, const std::string& base, size_t* encodedSize = nullptr) {
  const std::string enc = encodeBlockDelta(now.data(), DeltaBaseline::of(base.data()), now.size());
  if (encodedSize) *encodedSize = enc.size();
  std::string out(base.size(), '?'), why;
  EXPECT_TRUE(decodeBlockDelta(enc, DeltaBaseline::of(base.data()), base.size(), out.data(), &why)) << why;
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
  const DeltaBaseline fill = DeltaBaseline::repeating(block.data());
  const std::string enc = encodeBlockDelta(now.data(), fill, n);
  EXPECT_EQ(enc.size(), 16 + 6 + kDeltaBlockBytes + 100);
  std::string out(n, '?'), why;
  ASSERT_TRUE(decodeBlockDelta(enc, fill, n, out.data(), &why)) << why;
  EXPECT_EQ(out, now);
}

/// A baseline made block by block (an upload's layout) encodes and rebuilds as its bytes do, and the
/// view hands back exactly the changed blocks, the last one partial.
TEST(BlockDelta, AMadeBaselineAndTheViewOfChangedBlocks) {
  const size_t n = 7 * kDeltaBlockBytes + 300;
  std::string base(n, '\0');
  for (size_t i = 0; i < n; ++i) base[i] = char('a' + i % 23);
  size_t made = 0;
  const DeltaBaseline byBlock = DeltaBaseline::madeBy([&](size_t b, char* out) {
    ++made;
    const size_t at = b * kDeltaBlockBytes;
    std::memcpy(out, base.data() + at, std::min(kDeltaBlockBytes, n - at));
  });
  std::string now = base;
  now[3 * kDeltaBlockBytes + 1] = '!';
  now[n - 2] = '?';
  const std::string enc = encodeBlockDelta(now.data(), byBlock, n);
  EXPECT_EQ(enc, encodeBlockDelta(now.data(), DeltaBaseline::of(base.data()), n));
  EXPECT_EQ(made, 8u);
  std::string out(n, '#'), why;
  ASSERT_TRUE(decodeBlockDelta(enc, byBlock, n, out.data(), &why)) << why;
  EXPECT_EQ(out, now);

  BlockDeltaView view;
  ASSERT_TRUE(view.open(enc, n, &why)) << why;
  ASSERT_EQ(view.blocks(), 8u);
  for (size_t b = 0; b < view.blocks(); ++b) {
    if (b == 3 || b == 7) {
      ASSERT_NE(view.changed(b), nullptr) << b;
      EXPECT_EQ(std::string(view.changed(b), view.blockBytes(b)), now.substr(b * kDeltaBlockBytes, view.blockBytes(b)));
    } else {
      EXPECT_EQ(view.changed(b), nullptr) << b;
    }
  }
  EXPECT_EQ(view.blockBytes(7), 300u);
  EXPECT_FALSE(view.open(enc.substr(0, enc.size() - 1), n, &why));
}

TEST(BlockDelta, ForgedOrDamagedEncodingsAreRefused) {
  const size_t n = 3 * kDeltaBlockBytes;
  const std::string base(n, 'g');
  std::string now = base;
  now[kDeltaBlockBytes] = 'x';
  const std::string good = encodeBlockDelta(now.data(), DeltaBaseline::of(base.data()), n);
  std::string out(n, '?'), why;
  auto refused = [&](const std::string& enc, size_t size = 3 * kDeltaBlockBytes) {
    why.clear();
    return !decodeBlockDelta(enc, DeltaBaseline::of(base.data()), size, out.data(), &why) && !why.empty();
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
