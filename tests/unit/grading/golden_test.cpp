// The golden manifest: regenerating every input and CPU reference output of the shipped rubrics
// gives exactly the committed hashes. A difference means the generator or a reference changed:
// on purpose, regenerate with `build/clgrade golden --write golden/manifest.tsv` and say why in the commit.
#include <gtest/gtest.h>

#include "../../test_env.h"

#include <sstream>

#include "grading/golden.h"
#include "util/files.h"
#include "util/install_layout.h"

namespace clgrade {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

TEST(Golden, ManifestMatchesTheCommittedOne) {
  const std::string root = test::sourceDir();
  std::string committed, err;
  ASSERT_TRUE(readFile(root + "/golden/manifest.tsv", &committed, &err)) << err;
  std::string fresh;
  const std::vector<std::string> rubrics = rubricFiles(root + "/rubrics");
  ASSERT_GE(rubrics.size(), 3u);
  ASSERT_TRUE(goldenManifest(rubrics, &fresh, &err)) << err;
  const std::vector<std::string> want = lines(committed), got = lines(fresh);
  size_t differences = 0;
  for (size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
    const std::string w = i < want.size() ? want[i] : "(none)";
    const std::string g = i < got.size() ? got[i] : "(none)";
    if (w != g && ++differences <= 10)
      ADD_FAILURE() << "line " << i + 1 << "\n  committed: " << w << "\n  now:       " << g;
  }
  EXPECT_EQ(differences, 0u);
  EXPECT_GT(got.size(), 50u);
}

}  // namespace
}  // namespace clgrade
