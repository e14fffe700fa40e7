#include "model/hidden_seeds.h"

#include <string>

#include "util/sha256.h"

namespace clgrade {

namespace {

/// The first 8 bytes of SHA-256 over the run's seed and what the derived seed is for, below 2^53
/// like the run's own: knowing it tells neither the run's seed nor any other derived one.
uint64_t derivedSeed(uint64_t runSeed, const std::string& purpose) {
  const std::string hex = sha256Hex("clgrade hidden " + purpose + " " + std::to_string(runSeed));
  return std::stoull(hex.substr(0, 16), nullptr, 16) & kMaxHiddenSeed;
}

}  // namespace

std::vector<std::string> hiddenSeedsArgs(const HiddenSeeds& s) {
  return {"--hidden-seeds", std::to_string(s.photo), std::to_string(s.scene), std::to_string(s.extremes),
          std::to_string(s.rows)};
}

HiddenSeeds hiddenSeedsOf(uint64_t runSeed) {
  HiddenSeeds s;
  s.photo = derivedSeed(runSeed, "photo");
  s.scene = derivedSeed(runSeed, "scene");
  s.extremes = derivedSeed(runSeed, "extremes");
  s.rows = derivedSeed(runSeed, "rows");
  return s;
}

uint64_t HiddenSeeds::forKind(uint64_t kindSeed) const {
  if (kindSeed == kPhotoSeed) return photo;
  if (kindSeed == kSceneSeed) return scene;
  if (kindSeed == kExtremesSeed) return extremes;
  return 0;
}

}  // namespace clgrade
