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

void InputCache::record(const std::string& name, const Image& image) {
  records_.push_back({name, image.width, image.height, image.channels, ""});
  recorded_.push_back(&image);
}

std::vector<InputRecord> InputCache::records() const {
  const std::lock_guard<std::mutex> hold(mutex_);
  for (size_t i = 0; i < records_.size(); ++i)
    if (records_[i].sha256.empty()) {
      const work_time::Scope timer("input hashes");
      records_[i].sha256 = sha256Hex(pfmBytes(*recorded_[i]));
    }
  return records_;
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
