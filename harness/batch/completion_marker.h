// The completion marker of a batch's submission folder (<out>/<name>/batch.json): what its results
// were graded from. A batch keeps a folder whose marker is the one it would write now, and grades
// the submission again when anything it names differs: the submission's files (a resubmission), the
// rubric, clgrade's build, the mode, the tasks or the hidden seed.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace clgrade {

/// What a batch grades every submission with; with a submission's name and content, its marker.
struct MarkerSettings {
  std::string rubricSha256;
  bool visibleOnly = false;  ///< a check: no hidden seed
  std::vector<std::string> tasks;
  uint64_t hiddenSeed = 0;
  std::string build;  ///< clgrade's build (util/cache_home.h buildId)
};

/// The marker of submission `name` whose files hash to `contentSha256` (intake/submission.h).
nlohmann::ordered_json completionMarker(const MarkerSettings& settings, const std::string& name,
                                        const std::string& contentSha256);

/// Why a folder holding marker `stored` must be graded again for `wanted` ("" when it is complete):
/// "its files changed since it was graded", "it was graded by another build of clgrade", ... The
/// submission's name is not compared (a name that is not UTF-8 is stored with U+FFFD).
std::string whyGradeAgain(const nlohmann::ordered_json& stored, const nlohmann::ordered_json& wanted);

/// The hidden seed of `stored` when it was graded like `wanted` in everything that makes a batch
/// (rubric, mode, tasks) but the seed, whatever its submission's files and clgrade's build: a
/// resumed or updated batch keeps grading the class on the same hidden inputs.
std::optional<uint64_t> seedOfBatch(const nlohmann::ordered_json& stored, const nlohmann::ordered_json& wanted);

}  // namespace clgrade
