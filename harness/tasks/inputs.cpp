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

const Image* InputCache::find(const std::string& name) const {
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

const Image& InputCache::colour(const std::string& kind, int w, int h) {
  if (kind == "scene") return scene(w, h).colour;
  if (kind == "extremes") return extremes(w, h);
  return photo(w, h);
}

}  // namespace clgrade
