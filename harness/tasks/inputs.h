// The generated inputs of a grading run, made once per kind and size and remembered.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "image/generator.h"
#include "model/report.h"

namespace clgrade {

class InputCache {
 public:
  /// kind: "photo" (3 channels), "extremes" (3 channels with exact 0 and 1), "scene".
  const Image& photo(int width, int height);
  const Image& extremes(int width, int height);
  const Scene& scene(int width, int height);
  /// The 3-channel colour image of a kind ("photo", "extremes", "scene").
  const Image& colour(const std::string& kind, int width, int height);

  /// Everything made so far, with hashes.
  const std::vector<InputRecord>& records() const { return records_; }
  /// The image behind a record name ("scene_1280x720.normals"); nullptr if never made.
  const Image* find(const std::string& name) const;

 private:
  void record(const std::string& name, const Image& image);
  std::map<std::string, Image> images_;
  std::map<std::string, Scene> scenes_;
  std::vector<InputRecord> records_;
};

/// Seeds of the course inputs; changing one changes every golden hash.
constexpr unsigned long long kPhotoSeed = 0x5eed0001ULL;
constexpr unsigned long long kSceneSeed = 0x5eed0002ULL;
constexpr unsigned long long kExtremesSeed = 0x5eed0003ULL;

}  // namespace clgrade
