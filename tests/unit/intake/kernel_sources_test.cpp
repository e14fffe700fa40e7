// A submission's files read once (intake/kernel_sources.h): the keeper, its replays and the runners'
// requests all see the bytes of the first read, and a runner's handed-over files are all there is.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "intake/kernel_sources.h"
#include "intake/submission.h"
#include "util/files.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

TEST(KernelSources, AFileIsReadOnceAndKept) {
  const fs::path dir = fs::temp_directory_path() / ("kernel-sources-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  ASSERT_TRUE(writeFileAtomically((dir / "histogram.cl").string(), "__kernel void a() {}\n", nullptr));
  const KernelSources sources(dir.string());
  const KernelSource& first = sources.file("histogram.cl");
  EXPECT_TRUE(first.problem.empty()) << first.problem;
  EXPECT_TRUE(first.present && first.exists);
  // Changed on disk meanwhile: every later use still sees what was judged first.
  ASSERT_TRUE(writeFileAtomically((dir / "histogram.cl").string(), "__kernel void b() {}\n", nullptr));
  EXPECT_EQ(&sources.file("histogram.cl"), &first);
  EXPECT_EQ(sources.file("histogram.cl").fileBytes, "__kernel void a() {}\n");
  const KernelSource& missing = sources.file("Convolution3x3.cl");
  EXPECT_FALSE(missing.exists);
  EXPECT_NE(missing.problem.find("is missing"), std::string::npos) << missing.problem;
  fs::remove_all(dir);
}

TEST(KernelSources, HandedOverFilesAreAllThereIs) {
  KernelSource given;
  given.present = given.exists = true;
  given.fileBytes = given.text = "__kernel void a() {}\n";
  // The folder exists and holds another file: a runner's sources never read it.
  const KernelSources sources(fs::temp_directory_path().string(), {{"histogram.cl", given}});
  EXPECT_EQ(sources.file("histogram.cl").text, given.text);
  EXPECT_FALSE(sources.file("Convolution3x3.cl").exists);
  EXPECT_FALSE(sources.file("Convolution3x3.cl").problem.empty());
}

// Issue 27: PoCL's cache (which a kernel on PoCL can write into) was kept per folder path, so another
// submission graded later at the same path (a resubmission, the next student unpacked into one
// folder) found what the first left there. It is now kept per path and content.
TEST(SubmissionCache, ANewContentAtTheSamePathGetsAnotherCache) {
  const fs::path dir = fs::temp_directory_path() / ("submission-cache-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "kernels");
  ASSERT_TRUE(writeFileAtomically((dir / "kernels" / "Convolution3x3.cl").string(), "// the reference\n", nullptr));
  const std::string first = submissionCacheDir((dir / "kernels").string());
  EXPECT_EQ(submissionCacheDir((dir / "kernels").string()), first) << "kept across grades of the same files";
  ASSERT_TRUE(writeFileAtomically((dir / "kernels" / "Convolution3x3.cl").string(), "// the template\n", nullptr));
  EXPECT_NE(submissionCacheDir((dir / "kernels").string()), first);
  ASSERT_TRUE(writeFileAtomically((dir / "kernels" / "Convolution3x3.cl").string(), "// the reference\n", nullptr));
  fs::create_directories(dir / "kernels" / "sub");
  ASSERT_TRUE(writeFileAtomically((dir / "kernels" / "sub" / "x.h").string(), "", nullptr));
  EXPECT_NE(submissionCacheDir((dir / "kernels").string()), first) << "an included file counts too";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace clgrade
