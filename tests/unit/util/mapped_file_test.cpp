// A file's bytes mapped read-only (util/mapped_file.h), as the store reads its images: the bytes
// that are there, nothing for what is not a regular file or is over the limit, no wait on a FIFO.
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "util/files.h"
#include "util/mapped_file.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

class Mapped : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("clgrade-mapped-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(Mapped, GivesTheFilesBytesEvenPastAReplacement) {
  std::string bytes(3 << 20, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = char(i * 7 + 1);
  ASSERT_TRUE(writeFileAtomically(path("a"), bytes, nullptr, false));
  MappedFile file;
  std::string err;
  ASSERT_TRUE(file.open(path("a"), size_t(4) << 20, &err)) << err;
  EXPECT_EQ(file.bytes(), bytes);
  // A store replaces a file by rename: the mapping keeps the bytes it was opened on.
  ASSERT_TRUE(writeFileAtomically(path("a"), "other", nullptr, false));
  EXPECT_EQ(file.bytes(), bytes);

  ASSERT_TRUE(writeFileAtomically(path("empty"), "", nullptr, false));
  MappedFile empty;
  ASSERT_TRUE(empty.open(path("empty"), 10, &err)) << err;
  EXPECT_TRUE(empty.bytes().empty());
}

TEST_F(Mapped, RefusesWhatIsMissingTooLargeOrNotARegularFile) {
  ASSERT_TRUE(writeFileAtomically(path("big"), std::string(100, 'x'), nullptr, false));
  std::string err;
  MappedFile big;
  EXPECT_FALSE(big.open(path("big"), 99, &err));
  EXPECT_NE(err.find("larger than"), std::string::npos) << err;
  MappedFile missing;
  EXPECT_FALSE(missing.open(path("none"), 99, &err));
  EXPECT_NE(err.find("cannot open"), std::string::npos) << err;
  MappedFile folder;
  EXPECT_FALSE(folder.open(dir_.string(), 99, &err));
  EXPECT_NE(err.find("not a regular file"), std::string::npos) << err;
  // A FIFO where a file was expected: refused at once, not waited on for a writer.
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
  MappedFile fifo;
  EXPECT_FALSE(fifo.open(path("fifo"), 99, &err));
  EXPECT_NE(err.find("not a regular file"), std::string::npos) << err;
}

}  // namespace
}  // namespace clgrade
