#include "tasks/inputs.h"

#include <random>

#include "util/work_time.h"
#include "image/pfm.h"
#include "util/sha256.h"

namespace clgrade {
namespace {
/// splitmix64's finaliser: every input bit moves every output bit.
uint64_t mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
/// What `make` generates, its time counted as "inputs".
template <typename F>
auto generated(F make) {
  const work_time::Scope timer("inputs");
  return make();
}

}  // namespace

uint64_t drawHiddenSeed() {
  std::random_device device;
  const uint64_t high = device(), low = device();  // 32 bits each
  return ((high << 32) | (low & 0xffffffffULL)) & kMaxHiddenSeed;
}

uint64_t hiddenInputSeed(uint64_t runSeed, uint64_t kindSeed) { return mix(mix(runSeed) ^ kindSeed); }

std::string InputCache::name(const std::string& kind, int w, int h, bool hidden) const {
  return (hidden ? "hidden_" : "") + kind + "_" + std::to_string(w) + "x" + std::to_string(h);
}

uint64_t InputCache::seed(uint64_t kindSeed, bool hidden) const {
  return hidden ? hiddenInputSeed(hiddenSeed_, kindSeed) : kindSeed;
}

namespace {

std::string inputHash(const Image& image) {
  const work_time::Scope timer("input hashes");
  return sha256Hex(pfmBytes(image));
}

}  // namespace

void InputCache::record(const std::string& name, const Image& image) {
  records_.push_back({name, image.width, image.height, image.channels, ""});
  recorded_.push_back(&image);
  const Image* made = &image;  // kept in place by images_ or scenes_ while the cache lives
  hashing_.push_back(hashAhead_ ? std::async(std::launch::async, [made] { return inputHash(*made); }).share()
                                : std::shared_future<std::string>());
}

std::vector<InputRecord> InputCache::records() const {
  // Hashed outside the lock: other threads go on making inputs meanwhile, and an input one of them
  // adds is hashed in the next round (no record leaves without its hash).
  for (;;) {
    std::vector<std::pair<size_t, std::shared_future<std::string>>> missing;
    {
      const std::lock_guard<std::mutex> hold(mutex_);
      for (size_t i = 0; i < records_.size(); ++i)
        if (records_[i].sha256.empty()) {
          if (!hashing_[i].valid()) {
            const Image* image = recorded_[i];
            hashing_[i] = std::async(std::launch::async, [image] { return inputHash(*image); }).share();
          }
          missing.emplace_back(i, hashing_[i]);
        }
      if (missing.empty()) return records_;
    }
    std::vector<std::pair<size_t, std::string>> hashes;
    for (auto& [i, hash] : missing) hashes.emplace_back(i, hash.get());
    const std::lock_guard<std::mutex> hold(mutex_);
    for (const auto& [i, hash] : hashes) records_[i].sha256 = hash;
  }
}

const Image& CaseInputs::photo(int w, int h) {
  const std::lock_guard<std::mutex> hold(cache_->mutex_);
  const std::string name = cache_->name("photo", w, h, hidden_);
  auto it = cache_->images_.find(name);
  if (it != cache_->images_.end()) return it->second;
  const Image& made = cache_->images_[name] = generated([&] { return makePhoto(w, h, cache_->seed(kPhotoSeed, hidden_)); });
  cache_->record(name, made);
  return made;
}

const Image& CaseInputs::extremes(int w, int h) {
  const std::lock_guard<std::mutex> hold(cache_->mutex_);
  const std::string name = cache_->name("extremes", w, h, hidden_);
  auto it = cache_->images_.find(name);
  if (it != cache_->images_.end()) return it->second;
  const Image& made = cache_->images_[name] = 
      generated([&] { return makeHistogramExtremes(w, h, cache_->seed(kExtremesSeed, hidden_)); });
  cache_->record(name, made);
  return made;
}

const Scene& CaseInputs::scene(int w, int h) {
  const std::lock_guard<std::mutex> hold(cache_->mutex_);
  const std::string name = cache_->name("scene", w, h, hidden_);
  auto it = cache_->scenes_.find(name);
  if (it != cache_->scenes_.end()) return it->second;
  const Scene& made = cache_->scenes_[name] = generated([&] { return makeScene(w, h, cache_->seed(kSceneSeed, hidden_)); });
  cache_->record(name + ".colour", made.colour);
  cache_->record(name + ".normals", made.normals);
  cache_->record(name + ".depth", made.depth);
  return made;
}

const Image& CaseInputs::colour(const std::string& kind, int w, int h) {
  if (kind == "scene") return scene(w, h).colour;
  if (kind == "extremes") return extremes(w, h);
  return photo(w, h);
}

namespace {

/// `make`'s result under `key` in `made`, computed by the first thread that asks (outside the lock:
/// the others wait for that key only). A result that throws throws for every asker.
template <typename T>
std::shared_ptr<const T> madeOnce(std::map<std::string, std::shared_future<std::shared_ptr<const T>>>& made,
                                  std::mutex& mutex, const std::string& key, const std::function<T()>& make) {
  std::promise<std::shared_ptr<const T>> promise;
  std::shared_future<std::shared_ptr<const T>> result;
  bool mine = false;
  {
    const std::lock_guard<std::mutex> hold(mutex);
    const auto it = made.find(key);
    if (it == made.end()) {
      result = promise.get_future().share();
      made.emplace(key, result);
      mine = true;
    } else {
      result = it->second;
    }
  }
  if (mine) {
    try {
      const work_time::Scope timer("cpu reference");
      promise.set_value(std::make_shared<const T>(make()));
    } catch (...) {
      promise.set_exception(std::current_exception());
    }
  }
  return result.get();
}

}  // namespace

std::shared_ptr<const Image> InputCache::reference(const std::string& key, const std::function<Image()>& make) {
  return madeOnce(references_, mutex_, key, make);
}

std::shared_ptr<const std::vector<int32_t>> InputCache::referenceFlags(
    const std::string& key, const std::function<std::vector<int32_t>()>& make) {
  return madeOnce(referenceFlags_, mutex_, key, make);
}

const Image* InputCache::find(const std::string& name) const {
  const std::lock_guard<std::mutex> hold(mutex_);
  auto image = images_.find(name);
  if (image != images_.end()) return &image->second;
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos) return nullptr;
  auto scene = scenes_.find(name.substr(0, dot));
  if (scene == scenes_.end()) return nullptr;
  const std::string part = name.substr(dot + 1);
  if (part == "colour") return &scene->second.colour;
  if (part == "normals") return &scene->second.normals;
  if (part == "depth") return &scene->second.depth;
  return nullptr;
}

}  // namespace clgrade
