// A batch's hidden inputs and CPU results made once for all its keepers (tasks/batch_share.h,
// issue 29 item 2): the same images, hashes and results as a grade of its own makes; only for the
// seed it was made for; never the visible cases'; a failure is not kept for the next asker.
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

TEST(BatchShare, NeitherAnotherSeedNorAVisibleCaseUsesIt) {
  const auto share = std::make_shared<BatchShare>(42);
  InputCache other(43), runner(hiddenSeedsOf(42));
  other.useBatchShare(share);
  runner.useBatchShare(share);  // a runner's cache has no run seed: it makes its own
  const Image& mine = other.forCase(caseOf(false)).photo(32, 16);
  runner.forCase(caseOf(false)).photo(32, 16);
  InputCache batch(42);
  batch.useBatchShare(share);
  batch.forCase(caseOf(true)).photo(32, 16);
  EXPECT_EQ(share->made(), 0u);
  const Image& shared = batch.forCase(caseOf(false)).photo(32, 16);
  EXPECT_EQ(share->made(), 1u);
  EXPECT_NE(shared.pixels, mine.pixels) << "another seed, another image";
}

TEST(BatchShare, AHiddenResultIsComputedOnceForTheBatchAVisibleOnePerGrade) {
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
  for (auto& k : keepers) k->reference(ResultKey{"conv3x3 photo 2x1", false}, make);
  EXPECT_EQ(computed.load(), 5) << "visible results are the store's, never the batch's memory";
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
