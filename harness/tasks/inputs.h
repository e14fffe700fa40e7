// The generated inputs of a grading run, made once per kind, size and seed and remembered.
//
// Visible cases (the students' self-check) get the course's fixed images, so their golden hashes
// never change. Hidden cases get images made from the run's hidden seed (drawn per grade and per
// batch, recorded in the instructor's report.json), so a kernel cannot know them in advance
// (spec section 5b). A task asks for the inputs of the case it runs: inputs.forCase(spec).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "image/generator.h"
#include "model/hidden_seeds.h"
#include "model/report.h"
#include "store/course_store.h"
#include "tasks/batch_share.h"
#include "tasks/case_spec.h"

namespace clgrade {

/// The hidden seed of runs that draw none: `clgrade golden` (golden/manifest.tsv covers the hidden
/// cases at this seed), the library's GradeOptions, bench and sweep. `clgrade grade` and `batch` draw
/// their own (drawHiddenSeed) unless given --seed.
constexpr uint64_t kGoldenHiddenSeed = 0x5eed0100ULL;

/// A hidden seed from the system's random source (std::random_device), in [0, kMaxHiddenSeed].
uint64_t drawHiddenSeed();

class InputCache;

/// What a CPU result depends on: `text` names the task, the inputs and every parameter; `hidden` when
/// the inputs are a hidden case's (made from the run's seed: the result is kept for this grade only).
struct ResultKey {
  std::string text;
  bool hidden = false;
  ResultKey operator+(const std::string& more) const { return {text + more, hidden}; }
};

/// Inputs and CPU results smaller than this are made every time, never stored: below a megapixel,
/// making one takes about as long as reading and checking it (tasks/inputs.cpp).
constexpr long kStoredMinPixels = long(1) << 20;

/// The inputs of one case (InputCache::forCase): the course's images for a visible case, the run's
/// hidden ones for a hidden case. A small handle: pass it by value; what it returns lives in the cache.
class CaseInputs {
 public:
  /// kind: "photo" (3 channels), "extremes" (3 channels with exact 0 and 1), "scene".
  const Image& photo(int width, int height);
  const Image& extremes(int width, int height);
  const Scene& scene(int width, int height);
  /// The 3-channel colour image of a kind ("photo", "extremes", "scene").
  const Image& colour(const std::string& kind, int width, int height);
  bool hidden() const { return hidden_; }

 private:
  friend class InputCache;
  CaseInputs(InputCache* cache, bool hidden) : cache_(cache), hidden_(hidden) {}
  /// The input of `kind` and size, read from the store or made by `make`, once.
  const Image& image(const std::string& kind, int width, int height, const std::function<Image()>& make);
  InputCache* cache_;
  bool hidden_;
};

/// Safe to share between threads (the keeper replays a submission's tasks side by side): an input
/// is made once, by the first thread that asks for it, while the others wait.
class InputCache {
 public:
  /// `hiddenSeed`: the run's seed, from which every hidden case's inputs are made (hiddenSeedsOf).
  explicit InputCache(uint64_t hiddenSeed = kGoldenHiddenSeed)
      : runSeed_(hiddenSeed), seeds_(hiddenSeedsOf(hiddenSeed)) {}
  /// A runner's: the seeds the keeper derived, without the run's seed.
  explicit InputCache(const HiddenSeeds& seeds) : seeds_(seeds) {}
  // Records point into the cache's own images: a copy would point into the original.
  InputCache(const InputCache&) = delete;
  InputCache& operator=(const InputCache&) = delete;
  ~InputCache();  ///< waits for the store's writes

  /// Reads the visible cases' inputs of a megapixel or more (kStoredMinPixels) from `store` instead of
  /// making them, and the CPU's results on them; what it lacks is made and, where the store is
  /// writable, written to it in the background (store/course_store.h). Call before the first input.
  void useStore(CourseStore store) { store_ = std::move(store); }
  /// Takes from `share` (a batch's: every keeper of it grades the same cases) the visible cases'
  /// inputs and CPU results of every size (read once for the batch where useStore's store has them,
  /// else made once), and the hidden cases' inputs and CPU results when it was made for this
  /// cache's run seed (made once for the batch). Held here without a copy. Call before the first input.
  void useBatchShare(std::shared_ptr<BatchShare> share);

  /// The inputs of `spec` (hidden or visible, as the rubric says).
  CaseInputs forCase(const CaseSpec& spec) { return CaseInputs(this, !spec.visible); }
  /// The run's hidden seed, when this cache was made from it (never in a runner).
  std::optional<uint64_t> runSeed() const { return runSeed_; }
  /// The seed of the rows a timed launch's output is checked on (sampleRows).
  uint64_t rowsSeed() const { return seeds_.rows; }
  /// What the hidden cases' inputs are made from.
  const HiddenSeeds& seeds() const { return seeds_; }

  /// Everything made so far, with hashes. A hidden case's inputs are named "hidden_" + the name
  /// ("hidden_photo_780x575"): a visible and a hidden case of one kind and size get different images.
  /// The hashes are computed here, when first asked for (a runner, whose report nobody reads, never
  /// spends seconds hashing its 4096 x 4096 inputs).
  std::vector<InputRecord> records() const;  ///< a copy: other threads may add to it
  /// From now on each input is hashed on a thread of its own as soon as it is made, so that
  /// records() finds the hashes ready (the keeper: hashing three 4096 x 4096 inputs one after
  /// another at the end of a grade took 1.5 s of its longest path).
  void hashAhead() { hashAhead_ = true; }
  /// The image behind a record name ("scene_1280x720.normals"); nullptr if never made.
  const Image* find(const std::string& name) const;

  /// The CPU's result `make` computes from these inputs, made once per `key` while the cache lives
  /// (the checks at the timing size compare with it: the sweep asks for it at every point, the
  /// timing phase again). A key names the task, the inputs and every parameter the result depends
  /// on. Threads asking for one key at once share one computation.
  /// A result of visible inputs is read from the store, and written to it once made.
  std::shared_ptr<const Image> reference(const ResultKey& key, const std::function<Image()>& make);
  std::shared_ptr<const std::vector<int32_t>> referenceFlags(const ResultKey& key,
                                                             const std::function<std::vector<int32_t>()>& make);

 private:
  friend class CaseInputs;
  /// The record name and seed of an input of `kind` (a course seed) for a visible or hidden case.
  std::string name(const std::string& kind, int w, int h, bool hidden) const;
  uint64_t seed(uint64_t kindSeed, bool hidden) const;
  /// Records `image` under `name`; `sha256` when known (read from the store), else hashed (ahead or
  /// when asked). `store`: also written to the store (once hashed).
  void record(const std::string& name, const Image& image, const std::string& sha256 = "", bool store = false);
  /// An input as obtain() gives it: `sha256` when read from the store, `store` when it is to be written.
  struct Obtained {
    std::shared_ptr<const Image> image;  ///< the batch share's, or this cache's own
    std::string sha256;
    bool store = false;
  };
  /// Whether an input of a case (`hidden` or not) of `pixels` is read from and written to the store.
  bool stores(bool hidden, long pixels) const;
  /// The input `name` of `pixels` from the store when it is a visible one of a megapixel or more,
  /// else made by `make` (and then to be stored where it could have been read).
  Obtained obtain(const std::string& name, bool hidden, long pixels, const std::function<Image()>& make);
  /// Writes in the background, waited for by the destructor.
  void storeLater(std::function<void()> write);
  /// With `lock` held: false once `present()` (made by now, perhaps by another thread after a
  /// wait); true when this thread is to read or make input `name`, which is then marked as being
  /// made until claimed(name) (under the lock again), so that no other thread makes it too.
  bool claim(std::unique_lock<std::mutex>& lock, const std::string& name, const std::function<bool()>& present);
  void claimed(const std::string& name);
  std::optional<uint64_t> runSeed_;
  HiddenSeeds seeds_;
  // Held, not copied: what a batch's keepers share lives in the share (tasks/batch_share.h).
  std::map<std::string, std::shared_ptr<const Image>> images_;
  std::map<std::string, std::shared_ptr<const Scene>> scenes_;
  mutable std::mutex mutex_;  ///< guards everything below (the maps keep their elements in place)
  std::set<std::string> making_;    ///< inputs a thread reads or makes now, without the lock
  std::condition_variable made_;    ///< notified when one of them is there (or failed)
  mutable std::vector<InputRecord> records_;
  std::vector<const Image*> recorded_;  ///< the image of each record (images_ and scenes_ keep them in place)
  mutable std::vector<std::shared_future<std::string>> hashing_;  ///< the hash of each record, when made ahead
  bool hashAhead_ = false;
  std::map<std::string, std::shared_future<std::shared_ptr<const Image>>> references_;
  std::map<std::string, std::shared_future<std::shared_ptr<const std::vector<int32_t>>>> referenceFlags_;
  CourseStore store_;
  std::shared_ptr<BatchShare> batchShare_;  ///< null: stored inputs read and results made here
  bool sharesHidden_ = false;               ///< the share was made for this cache's run seed
  std::mutex writesMutex_;
  std::vector<std::future<void>> writes_;
};

}  // namespace clgrade
