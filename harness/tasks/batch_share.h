// What the keepers of one batch share (issue 29, item 2), in the batch process's memory:
// - its hidden cases: every submission of a batch is graded on the same hidden inputs (one seed per
//   batch), so those inputs, their hashes and the CPU's results on them are made once, by the first
//   keeper that asks. Never on disk (nothing made from a hidden seed is stored) and never in a
//   sandbox (a runner makes its own inputs from the derived seeds, and never sees a result).
// - the visible cases' inputs and CPU results, whatever the seed: those the course's store holds
//   (store/course_store.h) read, checked and parsed once for the batch, not once per submission (a
//   4096 x 4096 scene and its results are a few hundred megabytes: fifteen such reads a submission
//   were most of the batch process's own work), and the smaller ones, which are never stored, made
//   once (each keeper made its own: about a second of CPU a submission).
// A keeper gets what is here without a copy: its cache holds the share's images.
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "image/generator.h"
#include "image/image.h"

namespace clgrade {

class BatchShare {
 public:
  explicit BatchShare(uint64_t seed) : seed_(seed) {}
  BatchShare(const BatchShare&) = delete;
  BatchShare& operator=(const BatchShare&) = delete;

  /// The seed every hidden input here was made from: a cache of another seed must not use them.
  uint64_t seed() const { return seed_; }

  struct Input {
    Image image;
    std::string sha256;  ///< of its PFM bytes, as a report's input record has it
  };
  struct SceneInput {
    Scene scene;
    std::string sha256[3];  ///< colour, normals, depth
  };

  /// The hidden input `name`, made by `make` once for the batch. Threads asking at once share one
  /// making; one that fails throws for those waiting on it and is not kept (the next asker makes
  /// it again: a lack of memory under one grade's load is not every later submission's).
  std::shared_ptr<const Input> input(const std::string& name, const std::function<Image()>& make);
  std::shared_ptr<const SceneInput> scene(const std::string& name, const std::function<Scene()>& make);
  /// The CPU's result on hidden inputs under `key` (ResultKey::text: everything it depends on).
  std::shared_ptr<const Image> result(const std::string& key, const std::function<Image()>& make);

  /// A visible input `name` as `obtain` gets it (read from the store with its hash, or made: then
  /// hashed here), once for the batch, whatever the seed. `obtain` runs for the first asker only.
  std::shared_ptr<const Input> visibleInput(const std::string& name, const std::function<Input()>& obtain);
  std::shared_ptr<const SceneInput> visibleScene(const std::string& name, const std::function<SceneInput()>& obtain);
  /// The CPU's result on visible inputs under `key`, read from the store or computed, once.
  std::shared_ptr<const Image> visibleResult(const std::string& key, const std::function<Image()>& obtain);
  /// The discontinuity flags of the CPU's reference under `key`, made once: a hidden case's (this
  /// seed's), and a visible case's (whatever the seed), each in a map of its own.
  std::shared_ptr<const std::vector<int32_t>> flags(const std::string& key,
                                                    const std::function<std::vector<int32_t>()>& make);
  std::shared_ptr<const std::vector<int32_t>> visibleFlags(const std::string& key,
                                                           const std::function<std::vector<int32_t>()>& make);

  /// How many inputs and results were made or read here (not found there): what the tests count.
  size_t made() const;

 private:
  template <typename T>
  using Made = std::map<std::string, std::shared_future<std::shared_ptr<const T>>>;
  template <typename T>
  std::shared_ptr<const T> once(Made<T>& made, const std::string& key, const std::function<T()>& make);

  const uint64_t seed_;
  mutable std::mutex mutex_;
  Made<Input> inputs_;
  Made<SceneInput> scenes_;
  Made<Image> results_;
  Made<Input> visibleInputs_;
  Made<SceneInput> visibleScenes_;
  Made<Image> visibleResults_;
  Made<std::vector<int32_t>> flags_;
  Made<std::vector<int32_t>> visibleFlags_;
  size_t made_ = 0;
};

}  // namespace clgrade
