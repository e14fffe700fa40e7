#include "batch/completion_marker.h"

#include "model/hidden_seeds.h"

using nlohmann::ordered_json;

namespace clgrade {
namespace {

/// Keys of the batch's settings, each with why a folder graded otherwise is graded again.
struct Key {
  const char* name;
  const char* why;
};
const Key kBatchKeys[] = {{"schema", "its results were written by an older clgrade"},
                          {"rubric_sha256", "it was graded with another rubric"},
                          {"mode", "it was graded in another mode (check or grade)"},
                          {"tasks", "it was graded with other tasks (--task)"}};
const Key kSeedKey = {"hidden_seed", "it was graded on other hidden inputs (--seed)"};
const Key kBuild = {"clgrade_build", "it was graded by another build of clgrade"};
const Key kFiles = {"submission_sha256", "its files changed since it was graded"};

bool same(const ordered_json& stored, const ordered_json& wanted, const char* key) {
  return stored.contains(key) == wanted.contains(key) && (!wanted.contains(key) || stored[key] == wanted[key]);
}

}  // namespace

ordered_json completionMarker(const MarkerSettings& s, const std::string& name, const std::string& contentSha256) {
  ordered_json m{{"schema", "clgrade-batch-entry/1"},
                 {"submission", name},
                 {"rubric_sha256", s.rubricSha256},
                 {"mode", s.visibleOnly ? "check" : "grade"},
                 {"tasks", s.tasks}};
  if (!s.visibleOnly) m["hidden_seed"] = s.hiddenSeed;
  m["submission_sha256"] = contentSha256;
  m["clgrade_build"] = s.build;
  return m;
}

std::string whyGradeAgain(const ordered_json& stored, const ordered_json& wanted) {
  for (const Key& k : kBatchKeys)
    if (!same(stored, wanted, k.name)) return k.why;
  if (!same(stored, wanted, kSeedKey.name)) return kSeedKey.why;
  // A resubmission is said as such whatever else changed; a marker of an older build has no files'
  // hash to compare, and is graded again for the build.
  if (stored.contains(kFiles.name) && !same(stored, wanted, kFiles.name)) return kFiles.why;
  if (!same(stored, wanted, kBuild.name)) return kBuild.why;
  if (!same(stored, wanted, kFiles.name)) return kFiles.why;
  return "";
}

std::optional<uint64_t> seedOfBatch(const ordered_json& stored, const ordered_json& wanted) {
  if (!stored.contains("hidden_seed") || !stored["hidden_seed"].is_number_unsigned()) return std::nullopt;
  for (const Key& k : kBatchKeys)
    if (!same(stored, wanted, k.name)) return std::nullopt;
  const uint64_t seed = stored["hidden_seed"].get<uint64_t>();
  if (seed > kMaxHiddenSeed) return std::nullopt;
  return seed;
}

}  // namespace clgrade
