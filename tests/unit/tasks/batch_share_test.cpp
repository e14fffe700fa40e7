// A batch's inputs and CPU results made once for all its keepers (tasks/batch_share.h, issue 29
// item 2): the same images, hashes and results as a grade of its own makes; the hidden ones only for
// the seed they were made for, the visible ones whatever the seed; a failure is not kept for the
// next asker.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "case_of.h"
#include "image/pfm.h"
#include "tasks/batch_share.h"
#include "tasks/inputs.h"
#include "util/sha256.h"

namespace clgrade {
namespace {

using testing_cases::caseOf;

std::string recordedHash(const InputCache& cache, const std::string& name) {
  for (const InputRecord& r : cache.records())
    if (r.name == name) return r.sha256;
  return "";
}

TEST(BatchShare, TwoKeepersOfABatchGetTheInputsAGradeOfItsOwnMakesMadeOnce) {
  const auto share = std::make_shared<BatchShare>(42);
  InputCache alone(42), first(42), second(42);
  first.useBatchShare(share);
  second.useBatchShare(share);
  const Image& own = alone.forCase(caseOf(false)).photo(64, 48);
  const Image& a = first.forCase(caseOf(false)).photo(64, 48);
  const Image& b = second.forCase(caseOf(false)).photo(64, 48);
  EXPECT_EQ(share->made(), 1u);
  EXPECT_EQ(a.pixels, own.pixels);
  EXPECT_EQ(b.pixels, own.pixels);
  const std::string hash = sha256Hex(pfmBytes(own));
  EXPECT_EQ(recordedHash(first, "hidden_photo_64x48"), hash);
  EXPECT_EQ(recordedHash(second, "hidden_photo_64x48"), hash);

  // A scene, its three images and hashes alike.
  const Scene& ownScene = alone.forCase(caseOf(false)).scene(40, 30);
  const Scene& sharedScene = second.forCase(caseOf(false)).scene(40, 30);
  first.forCase(caseOf(false)).scene(40, 30);
  EXPECT_EQ(share->made(), 2u);
  EXPECT_EQ(sharedScene.depth.pixels, ownScene.depth.pixels);
  EXPECT_EQ(recordedHash(first, "hidden_scene_40x30.normals"), sha256Hex(pfmBytes(ownScene.normals)));
}

// Another seed's cache makes its own hidden inputs (as a runner's, which has no run seed); the
// visible cases are the course's, whatever the seed: one image for the batch, below the store's
// megapixel too (a keeper made each of those itself).
TEST(BatchShare, AnotherSeedMakesItsOwnHiddenInputsAVisibleOneIsTheBatchsWhateverTheSeed) {
  const auto share = std::make_shared<BatchShare>(42);
  InputCache other(43), runner(hiddenSeedsOf(42));
  other.useBatchShare(share);
  runner.useBatchShare(share);  // a runner's cache has no run seed: it makes its own
  const Image& mine = other.forCase(caseOf(false)).photo(32, 16);
  runner.forCase(caseOf(false)).photo(32, 16);
  EXPECT_EQ(share->made(), 0u);
  InputCache batch(42), alone(42);
  batch.useBatchShare(share);
  const Image& visible = batch.forCase(caseOf(true)).photo(32, 16);
  EXPECT_EQ(share->made(), 1u);
  EXPECT_EQ(&other.forCase(caseOf(true)).photo(32, 16), &visible) << "the same image, without a copy";
  EXPECT_EQ(visible.pixels, alone.forCase(caseOf(true)).photo(32, 16).pixels);
  EXPECT_EQ(recordedHash(other, "photo_32x16"), sha256Hex(pfmBytes(visible)));
  const Scene& scene = batch.forCase(caseOf(true)).scene(20, 10);
  EXPECT_EQ(&other.forCase(caseOf(true)).scene(20, 10), &scene);
  EXPECT_EQ(share->made(), 2u);
  const Image& shared = batch.forCase(caseOf(false)).photo(32, 16);
  EXPECT_EQ(share->made(), 3u);
  EXPECT_NE(shared.pixels, mine.pixels) << "another seed, another image";
}

TEST(BatchShare, AResultIsComputedOnceForTheBatchHiddenOrVisible) {
  const auto share = std::make_shared<BatchShare>(7);
  std::atomic<int> computed{0};
  const auto make = [&] {
    ++computed;
    Image image(2, 1, 1);
    image.pixels = {1.0f, 2.0f};
    return image;
  };
  std::vector<std::unique_ptr<InputCache>> keepers;
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    keepers.push_back(std::make_unique<InputCache>(7));
    keepers.back()->useBatchShare(share);
  }
  for (auto& k : keepers)
    threads.emplace_back([&, cache = k.get()] {
      EXPECT_EQ(cache->reference(ResultKey{"conv3x3 photo 2x1", true}, make)->pixels, (std::vector<float>{1, 2}));
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(computed.load(), 1);
  // A visible result under the same text is another result (another case's inputs), once too; so
  // is another seed's cache's, which a visible result does not depend on.
  for (auto& k : keepers) k->reference(ResultKey{"conv3x3 photo 2x1", false}, make);
  EXPECT_EQ(computed.load(), 2);
  InputCache other(8);
  other.useBatchShare(share);
  EXPECT_EQ(other.reference(ResultKey{"conv3x3 photo 2x1", false}, make),
            keepers.front()->reference(ResultKey{"conv3x3 photo 2x1", false}, make));
  EXPECT_EQ(computed.load(), 2);
  other.reference(ResultKey{"conv3x3 photo 2x1", true}, make);
  EXPECT_EQ(computed.load(), 3) << "another seed's hidden result is its own";
}

TEST(BatchShare, HiddenFlagsAreComputedOnceAndHeldByEveryKeeperWithoutACopy) {
  const auto share = std::make_shared<BatchShare>(9);
  int computed = 0;
  const auto make = [&] {
    ++computed;
    return std::vector<int32_t>{1, 0, 1};
  };
  InputCache first(9), second(9);
  first.useBatchShare(share);
  second.useBatchShare(share);
  const ResultKey key{"bilateral scene 3x1 flags", true};
  const auto a = first.referenceFlags(key, make);
  const auto b = second.referenceFlags(key, make);
  EXPECT_EQ(a, b) << "one vector for the batch";
  EXPECT_EQ(*a, (std::vector<int32_t>{1, 0, 1}));
  EXPECT_EQ(computed, 1);
  InputCache other(10);  // another seed: its own
  other.useBatchShare(share);
  EXPECT_NE(other.referenceFlags(key, make), a);
  EXPECT_EQ(computed, 2);
  // A visible case's flags under the same text: another entry, once for the batch whatever the seed.
  const ResultKey visible{"bilateral scene 3x1 flags", false};
  const auto v = other.referenceFlags(visible, make);
  EXPECT_NE(v, a);
  EXPECT_EQ(first.referenceFlags(visible, make), v);
  EXPECT_EQ(computed, 3);
}

TEST(BatchShare, AFailureIsNotKeptForTheNextAsker) {
  BatchShare share(1);
  int calls = 0;
  const auto failOnce = [&]() -> Image {
    if (++calls == 1) throw std::runtime_error("no memory now");
    return Image(1, 1, 1);
  };
  EXPECT_THROW(share.input("hidden_photo_1x1", failOnce), std::runtime_error);
  EXPECT_EQ(share.made(), 0u);
  EXPECT_EQ(share.input("hidden_photo_1x1", failOnce)->image.width, 1);
  EXPECT_EQ(share.made(), 1u);
}

}  // namespace
}  // namespace clgrade
