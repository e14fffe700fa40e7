// What the keepers of one batch share of its hidden cases (issue 29, item 2). Every submission of a
// batch is graded on the same hidden inputs (one seed per batch), so those inputs, their hashes and
// the CPU's results on them are made once, by the first keeper that asks, and kept in the batch
// process's memory: never on disk (nothing made from a hidden seed is stored) and never in a
// sandbox (a runner makes its own inputs from the derived seeds, and never sees a result).
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

class HiddenShare {
 public:
  explicit HiddenShare(uint64_t seed) : seed_(seed) {}
  HiddenShare(const HiddenShare&) = delete;
  HiddenShare& operator=(const HiddenShare&) = delete;

  /// The seed every input here was made from: a cache of another seed must not use it.
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
  std::shared_ptr<const std::vector<int32_t>> flags(const std::string& key,
                                                    const std::function<std::vector<int32_t>()>& make);

  /// How many inputs and results were made here (not found made): what the tests count.
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
  Made<std::vector<int32_t>> flags_;
  size_t made_ = 0;
};

}  // namespace clgrade
