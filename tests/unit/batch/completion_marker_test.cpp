// The completion marker (batch/completion_marker.h): what makes a batch grade a folder again, and the
// seed a resumed or updated batch keeps.
#include <gtest/gtest.h>

#include "batch/completion_marker.h"

namespace clgrade {
namespace {

MarkerSettings settings() { return {"rubric-hash", false, {}, 42, "build-1"}; }

TEST(CompletionMarker, TheSameGradeIsComplete) {
  EXPECT_EQ(whyGradeAgain(completionMarker(settings(), "alice", "files-1"),
                          completionMarker(settings(), "alice", "files-1")),
            "");
}

TEST(CompletionMarker, SaysWhyAFolderIsGradedAgain) {
  const auto stored = completionMarker(settings(), "alice", "files-1");
  EXPECT_EQ(whyGradeAgain(stored, completionMarker(settings(), "alice", "files-2")),
            "its files changed since it was graded");
  MarkerSettings build = settings();
  build.build = "build-2";
  EXPECT_EQ(whyGradeAgain(stored, completionMarker(build, "alice", "files-1")),
            "it was graded by another build of clgrade");
  MarkerSettings rubric = settings();
  rubric.rubricSha256 = "other";
  EXPECT_EQ(whyGradeAgain(stored, completionMarker(rubric, "alice", "files-2")), "it was graded with another rubric");
  MarkerSettings seed = settings();
  seed.hiddenSeed = 7;
  EXPECT_NE(whyGradeAgain(stored, completionMarker(seed, "alice", "files-1")), "");
  EXPECT_EQ(whyGradeAgain(stored, completionMarker(build, "alice", "files-2")), "its files changed since it was graded")
      << "a resubmission is said as such whatever else changed";
  // A marker of a build before the files' hash was kept: graded again, and not as a resubmission.
  nlohmann::ordered_json old = stored;
  old.erase("submission_sha256");
  old.erase("clgrade_build");
  EXPECT_EQ(whyGradeAgain(old, completionMarker(settings(), "alice", "files-1")),
            "it was graded by another build of clgrade");
}

TEST(CompletionMarker, ABatchKeepsItsSeedAcrossResubmissionsAndBuilds) {
  const auto stored = completionMarker(settings(), "alice", "files-1");
  MarkerSettings now = settings();
  now.hiddenSeed = 0;
  now.build = "build-2";
  EXPECT_EQ(seedOfBatch(stored, completionMarker(now, "alice", "files-2")), std::optional<uint64_t>(42));
  now.tasks = {"histogram"};
  EXPECT_EQ(seedOfBatch(stored, completionMarker(now, "alice", "files-1")), std::nullopt) << "another batch";
}

}  // namespace
}  // namespace clgrade
