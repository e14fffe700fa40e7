#include "tasks/batch_share.h"

#include "image/pfm.h"
#include "util/sha256.h"
#include "util/work_time.h"

namespace clgrade {
namespace {

std::string hashOf(const Image& image) {
  const work_time::Scope timer("input hashes");
  return sha256Hex(pfmBytes(image));
}

/// `in` with the hash of its image where it came without one (made, not read from the store).
BatchShare::Input hashed(BatchShare::Input in) {
  if (in.sha256.empty()) in.sha256 = hashOf(in.image);
  return in;
}

BatchShare::SceneInput hashed(BatchShare::SceneInput s) {
  const Image* parts[3] = {&s.scene.colour, &s.scene.normals, &s.scene.depth};
  for (int i = 0; i < 3; ++i)
    if (s.sha256[i].empty()) s.sha256[i] = hashOf(*parts[i]);
  return s;
}

}  // namespace

template <typename T>
std::shared_ptr<const T> BatchShare::once(Made<T>& made, const std::string& key, const std::function<T()>& make) {
  bool mine = false;
  std::promise<std::shared_ptr<const T>> promise;
  std::shared_future<std::shared_ptr<const T>> result;
  {
    const std::lock_guard<std::mutex> hold(mutex_);
    const auto it = made.find(key);
    if (it != made.end()) {
      result = it->second;
    } else {
      result = promise.get_future().share();
      made.emplace(key, result);
      ++made_;
      mine = true;
    }
  }
  if (!mine) return result.get();  // made, or being made by another keeper: waited for without the lock
  try {
    promise.set_value(std::make_shared<const T>(make()));
  } catch (...) {
    promise.set_exception(std::current_exception());
    const std::lock_guard<std::mutex> hold(mutex_);
    made.erase(key);  // those waiting get the failure; the next asker makes it again
    --made_;
  }
  return result.get();
}

std::shared_ptr<const BatchShare::Input> BatchShare::input(const std::string& name,
                                                           const std::function<Image()>& make) {
  return once<Input>(inputs_, name, [&] { return hashed(Input{make(), ""}); });
}

std::shared_ptr<const BatchShare::SceneInput> BatchShare::scene(const std::string& name,
                                                                const std::function<Scene()>& make) {
  return once<SceneInput>(scenes_, name, [&] { return hashed(SceneInput{make(), {}}); });
}

std::shared_ptr<const Image> BatchShare::result(const std::string& key, const std::function<Image()>& make) {
  return once<Image>(results_, key, make);  // timed as "cpu reference" by the cache that asks
}

std::shared_ptr<const std::vector<int32_t>> BatchShare::flags(const std::string& key,
                                                              const std::function<std::vector<int32_t>()>& make) {
  return once<std::vector<int32_t>>(flags_, key, make);
}

std::shared_ptr<const std::vector<int32_t>> BatchShare::visibleFlags(
    const std::string& key, const std::function<std::vector<int32_t>()>& make) {
  return once<std::vector<int32_t>>(visibleFlags_, key, make);
}

std::shared_ptr<const BatchShare::Input> BatchShare::visibleInput(const std::string& name,
                                                                  const std::function<Input()>& obtain) {
  return once<Input>(visibleInputs_, name, [&] { return hashed(obtain()); });
}

std::shared_ptr<const BatchShare::SceneInput> BatchShare::visibleScene(const std::string& name,
                                                                       const std::function<SceneInput()>& obtain) {
  return once<SceneInput>(visibleScenes_, name, [&] { return hashed(obtain()); });
}

std::shared_ptr<const Image> BatchShare::visibleResult(const std::string& key, const std::function<Image()>& obtain) {
  return once<Image>(visibleResults_, key, obtain);
}

size_t BatchShare::made() const {
  const std::lock_guard<std::mutex> hold(mutex_);
  return made_;
}

}  // namespace clgrade
