// The seeds of a grade's hidden cases, derived from the run's hidden seed (tasks/inputs.h makes the
// inputs from them). Plain data: the runner's request carries them across the sandbox wall.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace clgrade {

/// Seeds of the course inputs (visible cases); changing one changes every golden hash.
constexpr uint64_t kPhotoSeed = 0x5eed0001ULL;
constexpr uint64_t kSceneSeed = 0x5eed0002ULL;
constexpr uint64_t kExtremesSeed = 0x5eed0003ULL;

/// Hidden seeds are below 2^53, so report.json's number reads back exactly in any JSON library.
constexpr uint64_t kMaxHiddenSeed = (uint64_t(1) << 53) - 1;

/// What a grade's hidden cases are made from, each derived one way (SHA-256) from the run's hidden
/// seed: the inputs of each kind, and the rows a timed launch's output is checked on. A runner, which
/// runs student code, gets these and never the run's seed (spec section 5c): a kernel that finds one
/// of them learns nothing it was not given (the inputs it runs on), not the seed, not another.
struct HiddenSeeds {
  uint64_t photo = 0, scene = 0, extremes = 0;  ///< the hidden inputs of each kind (kPhotoSeed, ...)
  uint64_t rows = 0;                            ///< the rows a timed output is read back on (sampleRows)
  /// The seed of the inputs of a kind, by its course seed (kPhotoSeed, ...); 0 for any other.
  uint64_t forKind(uint64_t kindSeed) const;
  bool operator==(const HiddenSeeds& o) const {
    return photo == o.photo && scene == o.scene && extremes == o.extremes && rows == o.rows;
  }
};
HiddenSeeds hiddenSeedsOf(uint64_t runSeed);

/// The seeds as a child's command line takes them: "--hidden-seeds" photo scene extremes rows.
std::vector<std::string> hiddenSeedsArgs(const HiddenSeeds& seeds);

}  // namespace clgrade
