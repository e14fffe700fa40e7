// A submission's files read once (intake/kernel_sources.h): the keeper, its replays and the runners'
// requests all see the bytes of the first read, and a runner's handed-over files are all there is.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "intake/kernel_sources.h"
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

}  // namespace
}  // namespace clgrade
