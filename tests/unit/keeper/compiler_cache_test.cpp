// Each sandbox a grade starts at once keeps a compiler cache of its own across the submission's
// grades. With one cache per submission, held by one sandbox at a time, only the first of a grade's
// runners got it: the others compiled every program again at every grade (NVIDIA's OpenCL compiler
// takes 0.1-0.25 s a build and answers from CUDA_CACHE_PATH in 1.5 ms).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <future>

#include "intake/submission.h"
#include "keeper/runner_process.h"
#include "sandbox/sandbox.h"
#include "util/files.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

/// CUDA_CACHE_PATH as a sandbox of `role` sees it, while another sandbox of the submission runs.
std::string cacheSeen(const fs::path& dir, const std::string& role, const std::string& name, std::string* err) {
  KeeperSettings s;
  s.clgrade = "/usr/bin/env";  // mounted read-only, as clgrade is
  s.sandbox = true;
  s.cpuDevice = true;
  ProcessSpec spec;
  const fs::path scratch = dir / ("scratch-" + name);
  if (!placeProcess({"/usr/bin/env", "sh", "-c", "echo \"$CUDA_CACHE_PATH\"; sleep 1"},
                    RunnerPlace{&s, (dir / "kernels").string()}, {}, scratch.string(), &spec, err, role))
    return "";
  spec.stdoutPath = (dir / ("out-" + name)).string();
  spec.stderrPath = (dir / ("err-" + name)).string();
  spec.timeoutSeconds = 30;
  const ProcessResult p = runProcess(spec);
  std::string text;
  readFile(spec.stdoutPath, &text, nullptr);
  if (!p.ok()) {
    std::string said;
    readFile(spec.stderrPath, &said, nullptr);
    *err = p.describe() + ": " + said;
  }
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

TEST(CompilerCache, EachRunnerOfAGradeKeepsItsOwnCache) {
  if (!sandboxSupport().available) GTEST_SKIP() << sandboxSupport().reason;
  const fs::path dir = fs::temp_directory_path() / ("clgrade-compiler-cache-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "kernels");
  ASSERT_TRUE(writeFileAtomically((dir / "kernels" / "ConvolutionSeparable.cl").string(), "// mine\n", nullptr));
  const std::string stem = submissionCacheDir((dir / "kernels").string());
  std::string errA, errB;
  auto separable = std::async(std::launch::async, [&] { return cacheSeen(dir, "separable", "a", &errA); });
  auto hardware = std::async(std::launch::async, [&] { return cacheSeen(dir, "hardware", "b", &errB); });
  const std::string a = separable.get(), b = hardware.get();
  EXPECT_EQ(a, stem + "-separable/nv") << errA;
  EXPECT_EQ(b, stem + "-hardware/nv") << errB;
  EXPECT_TRUE(fs::is_directory(stem + "-separable")) << "kept for the next grade";
  // A sandbox of the same role at once (the same folder graded twice) still gets a private one.
  std::string errC, errD;
  auto first = std::async(std::launch::async, [&] { return cacheSeen(dir, "separable", "c", &errC); });
  auto second = std::async(std::launch::async, [&] { return cacheSeen(dir, "separable", "d", &errD); });
  const std::string c = first.get(), d = second.get();
  EXPECT_NE(c, d) << errC << errD;
  EXPECT_TRUE(c == stem + "-separable/nv" || d == stem + "-separable/nv") << c << " " << d;
  removeSubmissionCaches(stem);
  EXPECT_FALSE(fs::exists(stem + "-separable"));
  EXPECT_FALSE(fs::exists(stem + "-hardware.lock"));
  fs::remove_all(dir);
}

TEST(CompilerCache, AFolderThatGoesTakesEveryRolesCacheAndNoOtherSubmissions) {
  const fs::path root = fs::temp_directory_path() / ("clgrade-cache-roles-" + std::to_string(getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  const std::string stem = (root / "0123456789abcdef01234567").string();
  const std::string other = (root / "0123456789abcdef01234568").string();
  for (const std::string& folder : {stem, stem + "-conv3x3", stem + "-hardware", other, other + "-conv3x3"}) {
    fs::create_directories(folder + "/nv");
    ASSERT_TRUE(writeFileAtomically(folder + ".lock", "", nullptr));
  }
  removeSubmissionCaches(stem);
  for (const std::string& gone : {stem, stem + "-conv3x3", stem + "-hardware"}) {
    EXPECT_FALSE(fs::exists(gone)) << gone;
    EXPECT_FALSE(fs::exists(gone + ".lock")) << gone;
  }
  for (const std::string& kept : {other, other + "-conv3x3"}) {
    EXPECT_TRUE(fs::exists(kept)) << kept;
    EXPECT_TRUE(fs::exists(kept + ".lock")) << kept;
  }
  fs::remove_all(root);
}

TEST(CompilerCache, ARoleIsPartOfTheFileNameOnly) {
  EXPECT_EQ(submissionCacheDir("/nowhere", "a/../b c"), submissionCacheDir("/nowhere") + "-a____b_c");
}

}  // namespace
}  // namespace clgrade
