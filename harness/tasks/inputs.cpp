#include "tasks/inputs.h"

#include "image/pfm.h"
#include "util/sha256.h"

namespace clgrade {
namespace {
std::string sizeName(const std::string& kind, int w, int h) {
  return kind + "_" + std::to_string(w) + "x" + std::to_string(h);
}
}  // namespace

void InputCache::record(const std::string& name, const Image& image) {
  records_.push_back({name, image.width, image.height, image.channels, sha256Hex(pfmBytes(image))});
}

const Image& InputCache::photo(int w, int h) {
  const std::string name = sizeName("photo", w, h);
  auto it = images_.find(name);
  if (it != images_.end()) return it->second;
  const Image& made = images_[name] = makePhoto(w, h, kPhotoSeed);
  record(name, made);
  return made;
}

const Image& InputCache::extremes(int w, int h) {
  const std::string name = sizeName("extremes", w, h);
  auto it = images_.find(name);
  if (it != images_.end()) return it->second;
  const Image& made = images_[name] = makeHistogramExtremes(w, h, kExtremesSeed);
  record(name, made);
  return made;
}

const Scene& InputCache::scene(int w, int h) {
  const std::string name = sizeName("scene", w, h);
  auto it = scenes_.find(name);
  if (it != scenes_.end()) return it->second;
  const Scene& made = scenes_[name] = makeScene(w, h, kSceneSeed);
  record(name + ".colour", made.colour);
  record(name + ".normals", made.normals);
  record(name + ".depth", made.depth);
  return made;
}

const Image& InputCache::colour(const std::string& kind, int w, int h) {
  if (kind == "scene") return scene(w, h).colour;
  if (kind == "extremes") return extremes(w, h);
  return photo(w, h);
}

}  // namespace clgrade
