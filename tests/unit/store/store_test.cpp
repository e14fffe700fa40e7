// The store of inputs (store/image_store.h, store/course_store.h) and the input cache reading it
// (tasks/inputs.h): what is read back is what was written, byte for byte, or nothing; a store other
// users can write is not used; hidden inputs and small ones are never written; a tampered input is
// made again.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>
#include <vector>

#include "../../scratch.h"
#include "image/generator.h"
#include "image/pfm.h"
#include "store/course_store.h"
#include "tasks/batch_share.h"
#include "tasks/inputs.h"
#include "util/cache_home.h"
#include "util/files.h"
#include "util/sha256.h"
#include "util/work_time.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

fs::path freshFolder(const std::string& name) { return test::freshFolder("clgrade_store", name); }

Image sample(int w, int h, int c) {
  Image image(w, h, c);
  for (size_t i = 0; i < image.pixels.size(); ++i) image.pixels[i] = float(i % 97) * 0.125f - 3.0f;
  return image;
}

std::string text(const fs::path& p) {
  std::string t;
  readFile(p.string(), &t, nullptr);
  return t;
}

double workSeconds(const std::string& what) {
  const auto totals = work_time::totals();
  const auto it = totals.find(what);
  return it == totals.end() ? 0 : it->second;
}

CaseSpec visibleCase(bool visible) {
  CaseSpec spec;
  spec.id = visible ? "course" : "secret";
  spec.visible = visible;
  return spec;
}

TEST(ImageStore, KeepsAnImageAsPfmWithTheLineSha256sumChecks) {
  const fs::path dir = freshFolder("keeps");
  const ImageStore store(dir.string(), true);
  const Image image = sample(8, 4, 3);
  ASSERT_TRUE(store.keep("photo_8x4", image));
  const std::string golden = sha256Hex(pfmBytes(image));
  EXPECT_EQ(text(dir / "photo_8x4.pfm"), pfmBytes(image));
  EXPECT_EQ(text(dir / "photo_8x4.pfm.sha256"), golden + "  photo_8x4.pfm\n");
  std::string hash;
  const std::optional<Image> back = store.image("photo_8x4", &hash);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->pixels, image.pixels);
  EXPECT_EQ(back->channels, 3);
  EXPECT_EQ(hash, golden);
  EXPECT_FALSE(store.image("photo_4x8"));
}

TEST(ImageStore, AnImageThatDoesNotMatchItsLineIsNotReturned) {
  const fs::path dir = freshFolder("mismatch");
  const ImageStore store(dir.string(), true);
  ASSERT_TRUE(store.keep("depth", sample(16, 16, 1)));
  std::string bytes = text(dir / "depth.pfm");
  bytes[bytes.size() - 3] ^= 1;  // one bit of one pixel
  ASSERT_TRUE(writeFileAtomically((dir / "depth.pfm").string(), bytes, nullptr));
  EXPECT_FALSE(store.image("depth"));
  // Put back, then a line that names another file, or none at all.
  ASSERT_TRUE(store.keep("depth", sample(16, 16, 1)));
  ASSERT_TRUE(store.image("depth"));
  const std::string line = text(dir / "depth.pfm.sha256");
  ASSERT_TRUE(writeFileAtomically((dir / "depth.pfm.sha256").string(), line.substr(0, 64) + "  other.pfm\n", nullptr));
  EXPECT_FALSE(store.image("depth"));
  fs::remove(dir / "depth.pfm.sha256");
  EXPECT_FALSE(store.image("depth"));
}

TEST(ImageStore, AReadOnlyViewWritesNothingAndNamesStayInTheFolder) {
  const fs::path dir = freshFolder("readonly");
  const ImageStore view(dir.string(), false);
  EXPECT_TRUE(view.keep("photo_8x4", sample(8, 4, 3)));  // nothing to do is no failure
  EXPECT_TRUE(fs::is_empty(dir));
  const ImageStore store(dir.string(), true);
  for (const std::string name : {"", "../photo", "a/b", ".hidden", "name with space"}) {
    std::string err;
    EXPECT_FALSE(store.keep(name, sample(2, 2, 1), "", &err)) << name;
    EXPECT_FALSE(err.empty());
    EXPECT_FALSE(store.image(name)) << name;
  }
  EXPECT_TRUE(fs::is_empty(dir));
}

TEST(CourseStore, EachBuildHasItsFoldersTheInputsReadableByOthersTheResultsNot) {
  const fs::path root = freshFolder("course");
  std::string why;
  const CourseStore store = openCourseStore(root.string(), &why);
  ASSERT_TRUE(store) << why;
  EXPECT_EQ(store.inputs->folder(), (root / buildId() / "inputs").string());
  EXPECT_EQ(store.results->folder(), (root / buildId() / "results").string());
  EXPECT_TRUE(store.inputs->writable());
  EXPECT_EQ(store.root, root.string());
  struct stat st;
  ASSERT_EQ(stat(store.inputs->folder().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);
  ASSERT_EQ(stat(store.results->folder().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  EXPECT_FALSE(openCourseStore("none", &why));
  EXPECT_EQ(openCourseStore("none", &why).root, "none");
}

TEST(CourseStore, AFolderOtherUsersCanWriteIntoIsNotUsed) {
  const fs::path root = freshFolder("shared");
  ASSERT_EQ(chmod(root.c_str(), 0777), 0);
  std::string why;
  EXPECT_FALSE(openCourseStore(root.string(), &why));
  EXPECT_NE(why.find("can be written by other users"), std::string::npos) << why;
}

/// A folder of another build below `root`, as clgrade makes them, last opened `ago`.
void otherBuild(const fs::path& root, const std::string& id, std::chrono::minutes ago, bool marker = true) {
  fs::create_directories(root / id / "inputs");
  if (!marker) return;
  { std::ofstream(root / id / ".clgrade-store"); }
  fs::last_write_time(root / id / ".clgrade-store", fs::file_time_type::clock::now() - ago);
}

TEST(CourseStore, OtherBuildsIdleForTenMinutesAreRemovedButTheLastOpened) {
  const fs::path root = freshFolder("builds");
  otherBuild(root, "0000000000000000000000000000000000000001", std::chrono::minutes(120));
  otherBuild(root, "0000000000000000000000000000000000000002", std::chrono::minutes(60));
  otherBuild(root, "0000000000000000000000000000000000000003", std::chrono::minutes(30));
  otherBuild(root, "0000000000000000000000000000000000000004", std::chrono::minutes(2));  // opened lately
  ASSERT_TRUE(openCourseStore(root.string(), nullptr));
  EXPECT_TRUE(fs::exists(root / "0000000000000000000000000000000000000004"));
  EXPECT_FALSE(fs::exists(root / "0000000000000000000000000000000000000003"));  // idle, not the last
  EXPECT_FALSE(fs::exists(root / "0000000000000000000000000000000000000002"));
  EXPECT_FALSE(fs::exists(root / "0000000000000000000000000000000000000001"));
  EXPECT_TRUE(fs::exists(root / buildId() / "inputs"));
  // Alone, an idle build is kept: an instructor switching between two versions.
  fs::remove_all(root / "0000000000000000000000000000000000000004");
  otherBuild(root, "00000000000000000000000000000000000000ff", std::chrono::minutes(600));
  ASSERT_TRUE(openCourseStore(root.string(), nullptr));
  EXPECT_TRUE(fs::exists(root / "00000000000000000000000000000000000000ff"));
}

TEST(CourseStore, NothingIsRemovedThatClgradeDidNotMakeOrThatAGradeHolds) {
  const fs::path root = freshFolder("foreign");
  otherBuild(root, "0000000000000000000000000000000000000001", std::chrono::minutes(60));          // the last opened
  otherBuild(root, "notes", std::chrono::minutes(600));                                            // not a build's name
  otherBuild(root, "00000000000000000000000000000000000000aa", std::chrono::minutes(600), false);  // no marker
  otherBuild(root, "00000000000000000000000000000000000000bb", std::chrono::minutes(600));
  // A grade of that build holds it (a shared lock on its marker, as openCourseStore takes).
  const int held = open((root / "00000000000000000000000000000000000000bb" / ".clgrade-store").c_str(), O_RDONLY);
  ASSERT_GE(held, 0);
  ASSERT_EQ(flock(held, LOCK_SH), 0);
  ASSERT_TRUE(openCourseStore(root.string(), nullptr));
  EXPECT_TRUE(fs::exists(root / "notes"));
  EXPECT_TRUE(fs::exists(root / "00000000000000000000000000000000000000aa"));
  EXPECT_TRUE(fs::exists(root / "00000000000000000000000000000000000000bb"));
  close(held);
  ASSERT_TRUE(openCourseStore(root.string(), nullptr));
  EXPECT_FALSE(fs::exists(root / "00000000000000000000000000000000000000bb"));  // no longer held
  EXPECT_TRUE(fs::exists(root / "0000000000000000000000000000000000000001"));
}

TEST(CourseStore, ARootTheUserNamedIsCheckedNotChangedAndAUmaskDoesNotMatter) {
  const fs::path root = freshFolder("named");
  ASSERT_EQ(chmod(root.c_str(), 0700), 0);
  const mode_t old = umask(002);
  std::string why;
  const CourseStore store = openCourseStore(root.string(), &why);
  umask(old);
  ASSERT_TRUE(store) << why;
  struct stat st;
  ASSERT_EQ(stat(root.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);  // left as the user made it
  ASSERT_EQ(stat((root / buildId()).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);  // made by clgrade: exactly its mode
  // A folder every user can write into, above the root, lets them swap the store for theirs.
  const fs::path open = freshFolder("open");
  ASSERT_EQ(chmod(open.c_str(), 0777), 0);
  EXPECT_FALSE(openCourseStore((open / "store").string(), &why));
  EXPECT_NE(why.find("can be written by every user"), std::string::npos) << why;
  ASSERT_EQ(chmod(open.c_str(), 01777), 0);  // sticky, as /tmp: no one removes another's folder
  EXPECT_TRUE(openCourseStore((open / "store").string(), &why)) << why;
}

TEST(BuildId, NamesThisBuildInHex) {
  const std::string id = buildId();
  EXPECT_GE(id.size(), 16u);
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
  EXPECT_EQ(buildId(), id);
}

// The size at which the store is used: a megapixel.
constexpr int kSide = 1024;

TEST(InputCacheStore, VisibleInputsOfAMegapixelAreReadBackNotMadeAgain) {
  const fs::path root = freshFolder("inputs");
  std::vector<InputRecord> first;
  Image photo;
  {
    InputCache inputs(5);
    inputs.useStore(openCourseStore(root.string(), nullptr));
    CaseInputs course = inputs.forCase(visibleCase(true));
    photo = course.photo(kSide, kSide);
    course.scene(kSide, kSide);
    first = inputs.records();
  }  // the writes are waited for
  const CourseStore store = openCourseStore(root.string(), nullptr);
  for (const char* name :
       {"photo_1024x1024", "scene_1024x1024.colour", "scene_1024x1024.normals", "scene_1024x1024.depth"})
    EXPECT_TRUE(fs::exists(fs::path(store.inputs->folder()) / (std::string(name) + ".pfm.sha256"))) << name;

  const double made = workSeconds("inputs"), read = workSeconds("stored reads");
  InputCache again(6);
  again.useStore(readOnlyInputs(store.inputs->folder()));  // a runner's view
  CaseInputs course = again.forCase(visibleCase(true));
  EXPECT_EQ(course.photo(kSide, kSide).pixels, photo.pixels);
  EXPECT_EQ(course.scene(kSide, kSide).normals.pixels, makeScene(kSide, kSide, kSceneSeed).normals.pixels);
  EXPECT_EQ(workSeconds("inputs"), made);  // nothing generated
  EXPECT_GT(workSeconds("stored reads"), read);
  const std::vector<InputRecord> second = again.records();
  ASSERT_EQ(second.size(), first.size());
  for (size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(second[i].name, first[i].name);
    EXPECT_EQ(second[i].sha256, first[i].sha256);  // the golden hash, from the line beside the file
  }
}

TEST(InputCacheStore, HiddenAndSmallInputsAreNeverWritten) {
  const fs::path root = freshFolder("hidden");
  const CourseStore store = openCourseStore(root.string(), nullptr);
  {
    InputCache inputs(7);
    inputs.useStore(store);
    inputs.forCase(visibleCase(false)).photo(kSide, kSide);
    inputs.forCase(visibleCase(false)).scene(kSide, kSide);
    inputs.forCase(visibleCase(true)).photo(kSide - 1, kSide);  // just under a megapixel
    inputs.reference(ResultKey{"separable photo 1024x1024 H 1", true}, [] { return Image(kSide, kSide, 1); });
  }
  EXPECT_TRUE(fs::is_empty(store.inputs->folder()));
  EXPECT_TRUE(fs::is_empty(store.results->folder()));
}

TEST(InputCacheStore, ATamperedInputIsMadeAgainAndReplaced) {
  const fs::path root = freshFolder("tampered");
  const CourseStore store = openCourseStore(root.string(), nullptr);
  {
    InputCache inputs(1);
    inputs.useStore(store);
    inputs.forCase(visibleCase(true)).photo(kSide, kSide);
  }
  const fs::path file = fs::path(store.inputs->folder()) / "photo_1024x1024.pfm";
  const std::string good = text(file);
  std::string bad = good;
  bad[bad.size() / 2] ^= 0x40;
  ASSERT_TRUE(writeFileAtomically(file.string(), bad, nullptr));
  Image photo;
  {
    InputCache inputs(2);
    inputs.useStore(store);
    photo = inputs.forCase(visibleCase(true)).photo(kSide, kSide);
  }
  EXPECT_EQ(photo.pixels, makePhoto(kSide, kSide, kPhotoSeed).pixels);
  EXPECT_EQ(text(file), good);
}

TEST(InputCacheStore, CpuResultsOfVisibleInputsAreReadBack) {
  const fs::path root = freshFolder("results");
  const CourseStore store = openCourseStore(root.string(), nullptr);
  const ResultKey key{"conv3x3 photo 1024x1024 offset 0 weights", false};
  const Image result = sample(kSide, kSide, 1);
  std::atomic<int> made{0};
  auto make = [&] {
    ++made;
    return result;
  };
  {
    InputCache inputs(1);
    inputs.useStore(store);
    EXPECT_EQ(inputs.reference(key, make)->pixels, result.pixels);
  }
  InputCache inputs(2);
  inputs.useStore(store);
  EXPECT_EQ(inputs.reference(key, make)->pixels, result.pixels);
  EXPECT_EQ(made.load(), 1);
  // Another key is another result; a runner's view has no results at all.
  inputs.reference(key + " 2", make);
  EXPECT_EQ(made.load(), 2);
  InputCache runner(3);
  runner.useStore(readOnlyInputs(store.inputs->folder()));
  runner.reference(key, make);
  EXPECT_EQ(made.load(), 3);
}

// A batch's keepers (tasks/batch_share.h): each stored input and CPU result is read once for the
// whole batch, made and written once where the store lacks it, and held by every keeper without a
// copy; whatever the keepers' seed, and with the hashes a grade of its own records.
TEST(InputCacheStore, ABatchReadsEachStoredInputAndResultOnceAndItsKeepersHoldTheSameImages) {
  const fs::path root = freshFolder("batch");
  const CourseStore store = openCourseStore(root.string(), nullptr);
  const ResultKey key{"conv3x3 photo 1024x1024 offset 0 weights", false};
  std::atomic<int> computed{0};
  const auto make = [&] {
    ++computed;
    return sample(kSide, kSide, 1);
  };
  std::vector<InputRecord> alone;
  {
    // The first batch of a build: nothing stored yet. Made once, written once.
    const auto share = std::make_shared<BatchShare>(11);
    InputCache a(11), b(11);
    for (InputCache* c : {&a, &b}) {
      c->useStore(store);
      c->useBatchShare(share);
    }
    const Image& pa = a.forCase(visibleCase(true)).photo(kSide, kSide);
    const Image& pb = b.forCase(visibleCase(true)).photo(kSide, kSide);
    EXPECT_EQ(&pa, &pb) << "one image for the batch, not a copy per keeper";
    EXPECT_EQ(&a.forCase(visibleCase(true)).scene(kSide, kSide).depth,
              &b.forCase(visibleCase(true)).scene(kSide, kSide).depth);
    EXPECT_EQ(pa.pixels, makePhoto(kSide, kSide, kPhotoSeed).pixels);
    EXPECT_EQ(a.reference(key, make), b.reference(key, make));
    EXPECT_EQ(computed.load(), 1);
    EXPECT_EQ(share->made(), 3u);
    alone = a.records();
    EXPECT_EQ(b.records()[0].sha256, alone[0].sha256);
  }  // the writes are waited for
  EXPECT_TRUE(fs::exists(fs::path(store.inputs->folder()) / "photo_1024x1024.pfm"));

  // The next batch, of another seed: read once from the store for all its keepers, nothing made.
  const double made = workSeconds("inputs"), reads = workSeconds("stored reads");
  const auto share = std::make_shared<BatchShare>(12);
  std::vector<std::unique_ptr<InputCache>> keepers;
  for (int i = 0; i < 3; ++i) {
    keepers.push_back(std::make_unique<InputCache>(12));
    keepers.back()->useStore(store);
    keepers.back()->useBatchShare(share);
  }
  std::vector<const Image*> photos(3), normals(3);
  std::vector<std::shared_ptr<const Image>> results(3);
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i)
    threads.emplace_back([&, i] {
      CaseInputs course = keepers[i]->forCase(visibleCase(true));
      photos[i] = &course.photo(kSide, kSide);
      normals[i] = &course.scene(kSide, kSide).normals;
      results[i] = keepers[i]->reference(key, make);
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(share->made(), 3u) << "a photo, a scene and a result, each read once";
  EXPECT_EQ(computed.load(), 1);
  EXPECT_EQ(workSeconds("inputs"), made);
  EXPECT_GT(workSeconds("stored reads"), reads);
  for (int i = 1; i < 3; ++i) {
    EXPECT_EQ(photos[i], photos[0]);
    EXPECT_EQ(normals[i], normals[0]);
    EXPECT_EQ(results[i], results[0]);
  }
  EXPECT_EQ(normals[0]->pixels, makeScene(kSide, kSide, kSceneSeed).normals.pixels);
  EXPECT_EQ(keepers[2]->records()[0].sha256, alone[0].sha256) << "the stored hash, as the first batch recorded it";
}

}  // namespace
}  // namespace clgrade
