// The seeding of generated inputs (tasks/inputs.h): visible cases keep the course's images whatever
// the run's hidden seed; hidden cases get images of their own, the same for the same seed and
// different for another; a visible and a hidden case of one kind and size never share an image.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "image/pfm.h"
#include "case_of.h"
#include "tasks/inputs.h"
#include "util/sha256.h"

namespace clgrade {
namespace {

using testing_cases::caseOf;

std::string pfmHash(const Image& image) { return sha256Hex(pfmBytes(image)); }

TEST(HiddenSeed, DrawnSeedsFitAJsonNumberAndDiffer) {
  std::set<uint64_t> seeds;
  for (int i = 0; i < 16; ++i) {
    const uint64_t s = drawHiddenSeed();
    EXPECT_LE(s, kMaxHiddenSeed);
    seeds.insert(s);
  }
  EXPECT_GT(seeds.size(), 14u);  // 16 draws of 53 bits: a repeat means no randomness
}

TEST(HiddenSeed, EachKindAndRunSeedGetsItsOwnStream) {
  const HiddenSeeds one = hiddenSeedsOf(1);
  EXPECT_EQ(one, hiddenSeedsOf(1));
  EXPECT_NE(one.photo, hiddenSeedsOf(2).photo);
  const std::set<uint64_t> distinct{one.photo, one.scene, one.extremes, one.rows};
  EXPECT_EQ(distinct.size(), 4u);
  EXPECT_EQ(one.forKind(kSceneSeed), one.scene);
  EXPECT_EQ(one.forKind(12345), 0u);
  for (uint64_t run : {uint64_t(0), uint64_t(1), kGoldenHiddenSeed})
    for (uint64_t course : {kPhotoSeed, kSceneSeed, kExtremesSeed}) {
      EXPECT_NE(hiddenSeedsOf(run).forKind(course), course);
      EXPECT_LE(hiddenSeedsOf(run).forKind(course), kMaxHiddenSeed);
    }
}

// Spec 5c: a runner gets the derived seeds, never the run's. Knowing one derived seed must not give
// the run's seed back the way the old mix (an invertible splitmix finaliser) did.
TEST(HiddenSeed, ARunnersCacheMakesTheSameInputsWithoutTheRunSeed) {
  InputCache keeper(42), runner(hiddenSeedsOf(42));
  EXPECT_EQ(pfmHash(keeper.forCase(caseOf(false)).photo(64, 48)), pfmHash(runner.forCase(caseOf(false)).photo(64, 48)));
  EXPECT_EQ(keeper.rowsSeed(), runner.rowsSeed());
  ASSERT_TRUE(keeper.runSeed().has_value());
  EXPECT_EQ(*keeper.runSeed(), 42u);
  EXPECT_FALSE(runner.runSeed().has_value());
  // Nothing derived equals the seed, nor the seed's neighbours (a cheap check against leaking it).
  const HiddenSeeds s = hiddenSeedsOf(42);
  for (uint64_t d : {s.photo, s.scene, s.extremes, s.rows}) EXPECT_GT(d > 42 ? d - 42 : 42 - d, 1000u);
}

TEST(InputCache, VisibleCasesKeepTheCourseImagesWhateverTheSeed) {
  InputCache one(1), other(2);
  const Image& a = one.forCase(caseOf(true)).photo(100, 37);
  const Image& b = other.forCase(caseOf(true)).photo(100, 37);
  EXPECT_EQ(pfmHash(a), pfmHash(makePhoto(100, 37, kPhotoSeed)));
  EXPECT_EQ(pfmHash(a), pfmHash(b));
  ASSERT_EQ(one.records().size(), 1u);
  EXPECT_EQ(one.records()[0].name, "photo_100x37");
}

TEST(InputCache, HiddenCasesFollowTheRunSeed) {
  InputCache one(1), again(1), other(2);
  const std::string a = pfmHash(one.forCase(caseOf(false)).photo(100, 37));
  EXPECT_EQ(a, pfmHash(again.forCase(caseOf(false)).photo(100, 37)));
  EXPECT_NE(a, pfmHash(other.forCase(caseOf(false)).photo(100, 37)));
  EXPECT_EQ(a, pfmHash(makePhoto(100, 37, hiddenSeedsOf(1).photo)));
  EXPECT_NE(a, pfmHash(makePhoto(100, 37, kPhotoSeed)));
  ASSERT_EQ(one.records().size(), 1u);
  EXPECT_EQ(one.records()[0].name, "hidden_photo_100x37");
  EXPECT_EQ(one.records()[0].sha256, a);
}

TEST(InputCache, AVisibleAndAHiddenCaseOfOneKindAndSizeAreBothKept) {
  InputCache inputs(7);
  CaseInputs visible = inputs.forCase(caseOf(true)), hidden = inputs.forCase(caseOf(false));
  EXPECT_FALSE(visible.hidden());
  EXPECT_TRUE(hidden.hidden());
  const Image& v = visible.colour("photo", 64, 48);
  const Image& h = hidden.colour("photo", 64, 48);
  EXPECT_NE(&v, &h);
  EXPECT_NE(pfmHash(v), pfmHash(h));
  // Asked again, each is the one already made (no new record).
  EXPECT_EQ(&visible.colour("photo", 64, 48), &v);
  EXPECT_EQ(&hidden.colour("photo", 64, 48), &h);
  EXPECT_EQ(inputs.records().size(), 2u);
  EXPECT_EQ(inputs.find("photo_64x48"), &v);
  EXPECT_EQ(inputs.find("hidden_photo_64x48"), &h);
}

TEST(InputCache, HiddenScenesAndExtremesAreRecordedAndFound) {
  InputCache inputs(3);
  CaseInputs hidden = inputs.forCase(caseOf(false));
  const Scene& scene = hidden.scene(48, 24);
  const Image& extremes = hidden.colour("extremes", 48, 24);
  std::set<std::string> names;
  for (const InputRecord& r : inputs.records()) names.insert(r.name);
  EXPECT_EQ(names, (std::set<std::string>{"hidden_scene_48x24.colour", "hidden_scene_48x24.normals",
                                          "hidden_scene_48x24.depth", "hidden_extremes_48x24"}));
  EXPECT_EQ(inputs.find("hidden_scene_48x24.normals"), &scene.normals);
  EXPECT_EQ(inputs.find("hidden_extremes_48x24"), &extremes);
  EXPECT_EQ(inputs.find("scene_48x24.normals"), nullptr);
  EXPECT_NE(pfmHash(scene.depth), pfmHash(makeScene(48, 24, kSceneSeed).depth));
  // The histogram's clamping still has exact 0 and 1 to count, whatever the seed.
  bool zero = false, one = false;
  for (float v : extremes.pixels) zero = zero || v == 0.0f, one = one || v == 1.0f;
  EXPECT_TRUE(zero && one);
}

TEST(InputCache, TheLibraryDefaultIsTheGoldenSeed) {
  EXPECT_EQ(InputCache().runSeed(), std::optional<uint64_t>(kGoldenHiddenSeed));
  EXPECT_LE(kGoldenHiddenSeed, kMaxHiddenSeed);
}

// The keeper replays a submission's tasks side by side on one cache: an input is made once, every
// thread gets the same image, and it is recorded once.
TEST(InputCache, ThreadsAskingForTheSameInputShareOneImage) {
  InputCache inputs(7);
  CaseSpec visible;
  visible.visible = true;
  std::vector<const Image*> got(8, nullptr);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < got.size(); ++i)
    threads.emplace_back([&, i] { got[i] = &inputs.forCase(visible).photo(320, 200); });
  for (std::thread& t : threads) t.join();
  for (const Image* image : got) EXPECT_EQ(image, got.front());
  ASSERT_EQ(inputs.records().size(), 1u);
  EXPECT_EQ(inputs.records()[0].name, "photo_320x200");
}

// The keeper hashes each input as it is made; the hashes are those made when asked for, and threads
// asking for the records at once all get them.
TEST(InputCache, HashesMadeAheadAreTheSameAsHashesMadeWhenAsked) {
  CaseSpec hidden;
  hidden.visible = false;
  InputCache asked(7), ahead(7);
  ahead.hashAhead();
  asked.forCase(hidden).scene(64, 48);
  asked.forCase(hidden).photo(64, 48);
  ahead.forCase(hidden).scene(64, 48);
  ahead.forCase(hidden).photo(64, 48);
  std::vector<std::vector<InputRecord>> seen(4);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i) threads.emplace_back([&, i] { seen[i] = ahead.records(); });
  for (std::thread& t : threads) t.join();
  const std::vector<InputRecord> expected = asked.records();
  ASSERT_EQ(expected.size(), 4u);
  for (const std::vector<InputRecord>& records : seen) {
    ASSERT_EQ(records.size(), expected.size());
    for (size_t i = 0; i < records.size(); ++i) {
      EXPECT_EQ(records[i].name, expected[i].name);
      EXPECT_EQ(records[i].sha256, expected[i].sha256);
      EXPECT_EQ(records[i].sha256.size(), 64u);
    }
  }
}

// The CPU's results at the timing size are made once per key for the whole grade (the sweep's
// points, the timing phase and the reference kernels ask for the same ones), by one thread.
TEST(InputCache, ACpuResultIsMadeOnceForEveryThreadThatAsks) {
  InputCache inputs(7);
  std::atomic<int> made{0};
  std::vector<std::shared_ptr<const Image>> got(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < got.size(); ++i)
    threads.emplace_back([&, i] {
      got[i] = inputs.reference(ResultKey{"separable photo 64x48 H 0.5 0.5"}, [&] {
        ++made;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return Image(64, 48, 1);
      });
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(made.load(), 1);
  for (const auto& image : got) EXPECT_EQ(image, got.front());
  EXPECT_NE(inputs.reference(ResultKey{"separable photo 64x48 H 0.25 0.75"}, [] { return Image(64, 48, 1); }),
            got.front());
  // A result that could not be made says so to every asker, and is not made again.
  int failing = 0;
  auto broken = [&]() -> std::vector<int32_t> {
    ++failing;
    throw std::runtime_error("no such scene");
  };
  EXPECT_THROW(inputs.referenceFlags(ResultKey{"bilateral 64x48 flags"}, broken), std::runtime_error);
  EXPECT_THROW(inputs.referenceFlags(ResultKey{"bilateral 64x48 flags"}, broken), std::runtime_error);
  EXPECT_EQ(failing, 1);
}

}  // namespace
}  // namespace clgrade

namespace clgrade {
namespace {

// An input is read or made without the cache's lock (a 4096 x 4096 one takes a second, and the
// keeper's other tasks ask for theirs meanwhile): threads asking for one input at once still get
// the one image, made once and recorded once.
TEST(InputCacheThreads, OneInputAskedForAtOnceIsMadeOnce) {
  InputCache cache;
  std::vector<std::thread> threads;
  std::vector<const Image*> photos(8, nullptr);
  std::vector<const Scene*> scenes(8, nullptr);
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      photos[i] = &cache.forCase(CaseSpec{}).photo(300, 200);
      scenes[i] = &cache.forCase(CaseSpec{}).scene(64, 48);
    });
  for (std::thread& t : threads) t.join();
  for (int i = 1; i < 8; ++i) {
    EXPECT_EQ(photos[i], photos[0]);
    EXPECT_EQ(scenes[i], scenes[0]);
  }
  EXPECT_EQ(cache.records().size(), 4u);  // the photo and the scene's three images
}

}  // namespace
}  // namespace clgrade
