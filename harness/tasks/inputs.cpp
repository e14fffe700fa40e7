#include "tasks/inputs.h"

#include <condition_variable>
#include <optional>
#include <random>

#include "image/pfm.h"
#include "util/sha256.h"
#include "util/work_time.h"

namespace clgrade {
namespace {
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


std::string InputCache::name(const std::string& kind, int w, int h, bool hidden) const {
  return (hidden ? "hidden_" : "") + kind + "_" + std::to_string(w) + "x" + std::to_string(h);
}

uint64_t InputCache::seed(uint64_t kindSeed, bool hidden) const {
  return hidden ? seeds_.forKind(kindSeed) : kindSeed;
}

namespace {

std::string inputHash(const Image& image) {
  const work_time::Scope timer("input hashes");
  return sha256Hex(pfmBytes(image));
}

}  // namespace

void InputCache::record(const std::string& name, const Image& image, const std::string& sha256, bool store) {
  records_.push_back({name, image.width, image.height, image.channels, sha256});
  recorded_.push_back(&image);
  const Image* made = &image;  // kept in place by images_ or scenes_ while the cache lives
  std::shared_future<std::string> hash;
  try {
    if (store) {
      // Its PFM bytes made once, hashed (its record's hash) and written to the store.
      hash = std::async(std::launch::async, [made, inputs = store_.inputs, name] {
               const std::string bytes = pfmBytes(*made);
               const std::string h = [&] {
                 const work_time::Scope timer("input hashes");
                 return sha256Hex(bytes);
               }();
               inputs->keepBytes(name, bytes, h);
               return h;
             }).share();
    } else if (sha256.empty() && hashAhead_) {
      hash = std::async(std::launch::async, [made] { return inputHash(*made); }).share();
    }
  } catch (const std::system_error&) {  // no thread for it: hashed when asked, not stored
  }
  hashing_.push_back(hash);
}

InputCache::~InputCache() {
  for (const std::shared_future<std::string>& hash : hashing_)
    if (hash.valid()) hash.wait();  // the store's writes among them
  const std::lock_guard<std::mutex> hold(writesMutex_);
  for (std::future<void>& write : writes_) write.wait();
}

void InputCache::storeLater(std::function<void()> write) {
  const std::lock_guard<std::mutex> hold(writesMutex_);
  try {
    writes_.push_back(std::async(std::launch::async, std::move(write)));
  } catch (const std::system_error&) {  // no thread for it: not stored
  }
}

bool InputCache::stores(bool hidden, long pixels) const { return store_ && !hidden && pixels >= kStoredMinPixels; }

void InputCache::useBatchShare(std::shared_ptr<BatchShare> share) {
  sharesHidden_ = share && runSeed_ && share->seed() == *runSeed_;
  batchShare_ = std::move(share);
}

InputCache::Obtained InputCache::obtain(const std::string& name, bool hidden, long pixels,
                                        const std::function<Image()>& make) {
  if (hidden && sharesHidden_) {
    const std::shared_ptr<const BatchShare::Input> shared = batchShare_->input(name, make);
    return {std::shared_ptr<const Image>(shared, &shared->image), shared->sha256, false};
  }
  const bool storable = stores(hidden, pixels);
  // A visible input, whatever its size: every keeper of a batch grades the same course images. Read
  // (or made, and written where it is stored) once for the batch: a keeper made each one below a
  // megapixel itself, about a second of CPU a submission with the CPU's results on them.
  if (!hidden && batchShare_) {
    bool madeHere = false;
    const std::shared_ptr<const BatchShare::Input> shared = batchShare_->visibleInput(name, [&] {
      std::string sha256;
      if (storable)
        if (std::optional<Image> stored = store_.inputs->image(name, &sha256))
          return BatchShare::Input{std::move(*stored), sha256};
      madeHere = true;
      return BatchShare::Input{make(), ""};
    });
    return {std::shared_ptr<const Image>(shared, &shared->image), shared->sha256,
            madeHere && storable && store_.inputs->writable()};
  }
  if (!storable) return {std::make_shared<const Image>(make()), "", false};
  std::string sha256;
  if (std::optional<Image> stored = store_.inputs->image(name, &sha256))
    return {std::make_shared<const Image>(std::move(*stored)), sha256, false};
  return {std::make_shared<const Image>(make()), "", store_.inputs->writable()};
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
  return image("photo", w, h, [&] { return makePhoto(w, h, cache_->seed(kPhotoSeed, hidden_)); });
}

const Image& CaseInputs::extremes(int w, int h) {
  return image("extremes", w, h, [&] { return makeHistogramExtremes(w, h, cache_->seed(kExtremesSeed, hidden_)); });
}

bool InputCache::claim(std::unique_lock<std::mutex>& lock, const std::string& name,
                       const std::function<bool()>& present) {
  for (;;) {
    if (present()) return false;
    if (!making_.count(name)) break;
    made_.wait(lock);  // another thread reads or makes it
  }
  making_.insert(name);
  return true;
}

void InputCache::claimed(const std::string& name) {
  making_.erase(name);
  made_.notify_all();
}

const Image& CaseInputs::image(const std::string& kind, int w, int h, const std::function<Image()>& make) {
  const std::string name = cache_->name(kind, w, h, hidden_);
  std::unique_lock<std::mutex> lock(cache_->mutex_);
  if (!cache_->claim(lock, name, [&] { return cache_->images_.count(name) > 0; })) return *cache_->images_[name];
  // Read or made without the lock: another input (a record, a CPU result) is not held up meanwhile
  // by a 4096 x 4096 one, which takes a second.
  lock.unlock();
  InputCache::Obtained got;
  try {
    got = cache_->obtain(name, hidden_, long(w) * h, [&] { return generated(make); });
  } catch (...) {
    lock.lock();
    cache_->claimed(name);
    throw;
  }
  lock.lock();
  const Image& made = *(cache_->images_[name] = std::move(got.image));
  cache_->record(name, made, got.sha256, got.store);
  cache_->claimed(name);
  return made;
}

const Scene& CaseInputs::scene(int w, int h) {
  const std::string name = cache_->name("scene", w, h, hidden_);
  std::unique_lock<std::mutex> lock(cache_->mutex_);
  if (!cache_->claim(lock, name, [&] { return cache_->scenes_.count(name) > 0; })) return *cache_->scenes_[name];
  lock.unlock();  // as image(): read or made without the lock
  // Three images, made together: all three from the store, or all three made (and stored).
  const std::string parts[] = {name + ".colour", name + ".normals", name + ".depth"};
  const bool storable = cache_->stores(hidden_, long(w) * h);
  std::string hashes[3];
  std::shared_ptr<const Scene> scene;
  bool read = false;
  // All three from the store, or nothing.
  const auto readStored = [&](BatchShare::SceneInput* into) {
    std::optional<Image> stored[3];
    for (int i = 0; i < 3 && storable && (i == 0 || stored[i - 1]); ++i)
      stored[i] = cache_->store_.inputs->image(parts[i], &into->sha256[i]);
    if (!stored[2]) return false;
    into->scene = Scene{std::move(*stored[0]), std::move(*stored[1]), std::move(*stored[2])};
    return true;
  };
  const auto makeHere = [&] { return generated([&] { return makeScene(w, h, cache_->seed(kSceneSeed, hidden_)); }); };
  try {
    std::shared_ptr<const BatchShare::SceneInput> shared;
    if (!hidden_ && cache_->batchShare_) {  // visible, whatever its size: once for the batch, as obtain()
      read = true;
      shared = cache_->batchShare_->visibleScene(name, [&] {
        BatchShare::SceneInput s;
        if (readStored(&s)) return s;
        read = false;
        return BatchShare::SceneInput{makeHere(), {}};
      });
    } else if (hidden_ && cache_->sharesHidden_) {
      shared = cache_->batchShare_->scene(name, makeHere);
    }
    if (shared) {
      scene = std::shared_ptr<const Scene>(shared, &shared->scene);
      for (int i = 0; i < 3; ++i) hashes[i] = shared->sha256[i];
    } else {
      BatchShare::SceneInput own;
      read = readStored(&own);
      if (!read) own = {makeHere(), {}};
      scene = std::make_shared<const Scene>(std::move(own.scene));
      for (int i = 0; i < 3; ++i) hashes[i] = own.sha256[i];
    }
  } catch (...) {
    lock.lock();
    cache_->claimed(name);
    throw;
  }
  lock.lock();
  const Scene& made = *(cache_->scenes_[name] = std::move(scene));
  const bool store = storable && !read && cache_->store_.inputs->writable();
  cache_->record(parts[0], made.colour, hashes[0], store);
  cache_->record(parts[1], made.normals, hashes[1], store);
  cache_->record(parts[2], made.depth, hashes[2], store);
  cache_->claimed(name);
  return made;
}

const Image& CaseInputs::colour(const std::string& kind, int w, int h) {
  if (kind == "scene") return scene(w, h).colour;
  if (kind == "extremes") return extremes(w, h);
  return photo(w, h);
}

namespace {

/// `make`'s result under `key` in `made`, computed by the first thread that asks (outside the lock:
/// the others wait for that key only), unless `load` finds it; `keep` is given what `make` made. A
/// result that throws throws for every asker.
template <typename T>
std::shared_ptr<const T> madeOnce(std::map<std::string, std::shared_future<std::shared_ptr<const T>>>& made,
                                  std::mutex& mutex, const std::string& key, const std::function<T()>& make,
                                  const std::function<std::optional<T>()>& load = {},
                                  const std::function<void(const std::shared_ptr<const T>&)>& keep = {}) {
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
      std::optional<T> stored;
      try {
        if (load) stored = load();
      } catch (const std::exception&) {  // a store that fails is no store
      }
      if (stored) {
        promise.set_value(std::make_shared<const T>(std::move(*stored)));
      } else {
        std::shared_ptr<const T> computed;
        {
          const work_time::Scope timer("cpu reference");
          computed = std::make_shared<const T>(make());
        }
        if (keep) keep(computed);
        promise.set_value(computed);
      }
    } catch (...) {
      promise.set_exception(std::current_exception());
    }
  }
  return result.get();
}

}  // namespace

std::shared_ptr<const Image> InputCache::reference(const ResultKey& key, const std::function<Image()>& make) {
  const std::string memo = key.text + (key.hidden ? " hidden" : "");
  if (key.hidden && sharesHidden_) {  // the batch's, once (the time counted includes a wait for it)
    const work_time::Scope timer("cpu reference");
    return batchShare_->result(key.text, make);
  }
  if (key.hidden) return madeOnce(references_, mutex_, memo, make);  // another seed's than the share's
  // The store's name for it: the key is any text.
  const std::string name = "result-" + sha256Hex(key.text).substr(0, 40);
  const std::shared_ptr<const ImageStore> results = store_.results;
  if (batchShare_) {  // visible, whatever its size: read (or computed, and written where stored) once for the batch
    bool madeHere = false;
    std::shared_ptr<const Image> result = batchShare_->visibleResult(key.text, [&] {
      if (results)
        if (std::optional<Image> stored = results->image(name)) return std::move(*stored);  // timed as a read
      madeHere = true;
      const work_time::Scope timer("cpu reference");
      return make();
    });
    if (madeHere && results && long(result->planeSize()) >= kStoredMinPixels && results->writable())
      storeLater([results, name, result] { results->keep(name, *result); });
    return result;
  }
  if (!results) return madeOnce(references_, mutex_, memo, make);
  return madeOnce<Image>(
      references_, mutex_, memo, make, [results, name] { return results->image(name); },
      [this, results, name](const std::shared_ptr<const Image>& image) {
        if (long(image->planeSize()) >= kStoredMinPixels && results->writable())
          storeLater([results, name, image] { results->keep(name, *image); });
      });
}

std::shared_ptr<const std::vector<int32_t>> InputCache::referenceFlags(
    const ResultKey& key, const std::function<std::vector<int32_t>()>& make) {
  // Not stored: the flags are one pass of comparisons, a fraction of a filtered image's time.
  if (key.hidden && sharesHidden_) {  // the batch's, once, as reference()
    const work_time::Scope timer("cpu reference");
    return batchShare_->flags(key.text, make);
  }
  if (!key.hidden && batchShare_) {  // the course's: once for the batch, whatever the seed
    const work_time::Scope timer("cpu reference");
    return batchShare_->visibleFlags(key.text, make);
  }
  return madeOnce(referenceFlags_, mutex_, key.text + (key.hidden ? " hidden" : ""), make);
}

const Image* InputCache::find(const std::string& name) const {
  const std::lock_guard<std::mutex> hold(mutex_);
  auto image = images_.find(name);
  if (image != images_.end()) return image->second.get();
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos) return nullptr;
  auto scene = scenes_.find(name.substr(0, dot));
  if (scene == scenes_.end()) return nullptr;
  const std::string part = name.substr(dot + 1);
  if (part == "colour") return &scene->second->colour;
  if (part == "normals") return &scene->second->normals;
  if (part == "depth") return &scene->second->depth;
  return nullptr;
}

}  // namespace clgrade
