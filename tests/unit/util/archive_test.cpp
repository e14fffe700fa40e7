// Archives handed in as submissions: only regular files and folders with plain names are unpacked,
// links and escaping names are left out and listed, bombs stop at the limits.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "util/archive.h"
#include "util/files.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

/// One entry of a test archive: a file with contents, a folder, or a symbolic link to `target`.
struct Entry {
  std::string name;
  std::string contents;
  enum Kind { File, Folder, Link } kind = File;
  std::string target = "";
};

void writeZip(const std::string& path, const std::vector<Entry>& entries) {
  archive* a = archive_write_new();
  archive_write_set_format_zip(a);
  ASSERT_EQ(archive_write_open_filename(a, path.c_str()), ARCHIVE_OK);
  for (const Entry& e : entries) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, e.name.c_str());
    if (e.kind == Entry::Folder) {
      archive_entry_set_filetype(entry, AE_IFDIR);
      archive_entry_set_perm(entry, 0755);
    } else if (e.kind == Entry::Link) {
      archive_entry_set_filetype(entry, AE_IFLNK);
      archive_entry_set_symlink(entry, e.target.c_str());
      archive_entry_set_perm(entry, 0777);
    } else {
      archive_entry_set_filetype(entry, AE_IFREG);
      archive_entry_set_perm(entry, 0644);
      archive_entry_set_size(entry, la_int64_t(e.contents.size()));
    }
    ASSERT_EQ(archive_write_header(a, entry), ARCHIVE_OK) << e.name;
    if (e.kind == Entry::File) archive_write_data(a, e.contents.data(), e.contents.size());
    archive_entry_free(entry);
  }
  archive_write_close(a);
  archive_write_free(a);
}

class Unpack : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) / ("clgrade_unpack_" + std::to_string(getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "dest");
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string zip() const { return (root_ / "submission.zip").string(); }
  std::string dest() const { return (root_ / "dest").string(); }
  fs::path root_;
};

TEST_F(Unpack, PlainFilesAndFoldersAreUnpackedAndTheOneTopFolderIsTheRoot) {
  writeZip(zip(), {{"alice/", "", Entry::Folder},
                   {"alice/kernels/histogram.cl", "__kernel void k() {}"},
                   {"alice/kernels/Convolution3x3.cl", "// 3x3"},
                   {"__MACOSX/alice/._histogram.cl", "resource fork"}});
  const UnpackResult r = unpackArchive(zip(), dest());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.files, 2);
  EXPECT_TRUE(r.leftOut.empty()) << (r.leftOut.empty() ? "" : r.leftOut[0]);
  std::string text;
  ASSERT_TRUE(readFile(dest() + "/alice/kernels/histogram.cl", &text, nullptr));
  EXPECT_EQ(text, "__kernel void k() {}");
  EXPECT_FALSE(fs::exists(root_ / "dest" / "__MACOSX"));
  EXPECT_EQ(unpackedRoot(dest()), dest() + "/alice");
}

TEST_F(Unpack, LinksAndNamesThatLeaveTheFolderAreLeftOutAndListed) {
  writeZip(zip(), {{"histogram.cl", "ok"},
                   {"Convolution3x3.cl", "", Entry::Link, "/etc/passwd"},
                   {"../outside.cl", "escaped"},
                   {"/tmp/absolute.cl", "absolute"},
                   {"kernels/../../up.cl", "escaped"},
                   {"bad\nname.cl", "newline"}});
  const UnpackResult r = unpackArchive(zip(), dest());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.files, 1);
  ASSERT_EQ(r.leftOut.size(), 5u);
  EXPECT_EQ(r.leftOut[0], "Convolution3x3.cl: not a regular file (a link or a special file)");
  EXPECT_NE(r.leftOut[1].find("leaves the folder"), std::string::npos) << r.leftOut[1];
  EXPECT_NE(r.leftOut[2].find("an absolute path"), std::string::npos) << r.leftOut[2];
  EXPECT_NE(r.leftOut[4].find("bad\\x0aname.cl"), std::string::npos) << r.leftOut[4];
  EXPECT_FALSE(fs::exists(fs::symlink_status(root_ / "dest" / "Convolution3x3.cl")));
  EXPECT_FALSE(fs::exists(root_ / "outside.cl"));
  EXPECT_FALSE(fs::exists(root_ / "up.cl"));
  EXPECT_EQ(unpackedRoot(dest()), dest());  // a file at the top: the top is the root
}

TEST_F(Unpack, ABombStopsAtTheLimits) {
  const std::string big(4096, 'x');
  writeZip(zip(), {{"a.cl", big}, {"b.cl", big}, {"c.cl", big}});
  UnpackLimits bytes;
  bytes.totalBytes = 10000;
  UnpackResult r = unpackArchive(zip(), dest(), bytes);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("unpacks to more than"), std::string::npos) << r.error;

  fs::remove_all(root_ / "dest");
  fs::create_directories(root_ / "dest");
  UnpackLimits headers;
  headers.headers = 2;
  r = unpackArchive(zip(), dest(), headers);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("more than 2 entries"), std::string::npos) << r.error;
}

// Found by an intake corpus: one video beside the kernels failed the whole submission (0 points).
TEST_F(Unpack, AFileOverTheLimitOfOneIsLeftOutAndTheRestUnpacked) {
  writeZip(zip(), {{"alice/demo.mp4", std::string(5000, 'v')},
                   {"alice/histogram.cl", "__kernel void k() {}"},
                   {"alice/build/a.out", std::string(3000, 'b')}});
  UnpackLimits limits;
  limits.fileBytes = 4096;
  limits.totalBytes = 4096;  // what was written counts, not what was left out
  const UnpackResult r = unpackArchive(zip(), dest(), limits);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.files, 2);
  ASSERT_EQ(r.leftOut.size(), 1u);
  EXPECT_EQ(r.leftOut[0], "alice/demo.mp4: larger than 4096 bytes, the limit of one file");
  EXPECT_FALSE(fs::exists(root_ / "dest" / "alice" / "demo.mp4"));
  EXPECT_TRUE(fs::exists(root_ / "dest" / "alice" / "histogram.cl"));
}

// Found by an intake corpus: a project zipped with its node_modules (more than 10000 entries) failed
// with 0 points. Past the first entries only .cl and .h files are unpacked, within a budget of their
// own; the others are counted.
TEST_F(Unpack, PastManyEntriesOnlyKernelFilesAreUnpackedWithinABudget) {
  std::vector<Entry> entries;
  for (int i = 1; i <= 9; ++i) entries.push_back({"node_modules/" + std::to_string(i) + ".js", "js"});
  entries.push_back({"kernels/", "", Entry::Folder});
  entries.push_back({"kernels/histogram.cl", "__kernel void k() {}"});
  entries.push_back({"kernels/Util.H", "#define X 1"});
  entries.push_back({"deep/x.cl", "past the budget: its folder is the last one"});
  entries.push_back({"kernels/more.cl", "past the budget"});
  writeZip(zip(), entries);
  UnpackLimits limits;
  limits.entries = 4;  // node_modules and 1.js .. 3.js make 4: from 4.js on, kernel files only
  limits.kernelEntries = 4;
  UnpackResult r = unpackArchive(zip(), dest(), limits);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.files, 5);
  ASSERT_EQ(r.leftOut.size(), 1u);
  EXPECT_EQ(r.leftOut[0], "node_modules/4.js: past the archive's first 4 entries only .cl and .h files are unpacked");
  EXPECT_EQ(r.moreLeftOut, 7);  // 5.js .. 9.js, deep/x.cl, kernels/more.cl
  EXPECT_TRUE(fs::exists(root_ / "dest" / "kernels" / "histogram.cl"));
  EXPECT_TRUE(fs::exists(root_ / "dest" / "kernels" / "Util.H"));
  EXPECT_FALSE(fs::exists(root_ / "dest" / "node_modules" / "4.js"));
  EXPECT_FALSE(fs::exists(root_ / "dest" / "kernels" / "more.cl"));

  // Headers are still read only up to a cap, then the unpacking stops.
  fs::remove_all(root_ / "dest");
  limits.headers = 10;
  r = unpackArchive(zip(), dest(), limits);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("more than 10 entries"), std::string::npos) << r.error;
}

TEST_F(Unpack, FoldersCountTowardsTheLimitsAndNamesStayShallow) {
  std::string deep;
  for (int i = 0; i < 20; ++i) deep += "d/";
  writeZip(zip(), {{deep + "f.cl", "too deep"},
                   {"kernels", "a file named like the folder below"},
                   {"kernels/histogram.cl", "its folder is a file"},
                   {"ok/histogram.cl", "fine"}});
  UnpackResult r = unpackArchive(zip(), dest());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.files, 2);
  ASSERT_EQ(r.leftOut.size(), 2u);
  EXPECT_NE(r.leftOut[0].find("more than 16 folders deep"), std::string::npos) << r.leftOut[0];
  EXPECT_NE(r.leftOut[1].find("kernels/histogram.cl: its folder kernels is a file of the archive"), std::string::npos)
      << r.leftOut[1];

  // A few entries that would make many folders: the folders made stay within the limits (an entry
  // started below `entries` goes at most `depth` over it, then kernel files within their budget).
  fs::remove_all(root_ / "dest");
  std::vector<Entry> deepOnes;
  for (const char* top : {"a", "b", "c", "d", "e"}) deepOnes.push_back({std::string(top) + "/1/2/3/4/5/6/x.cl", "x"});
  writeZip(zip(), deepOnes);
  UnpackLimits limits;
  limits.entries = 10;
  limits.kernelEntries = 5;
  r = unpackArchive(zip(), dest(), limits);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.files, 2);  // a's and b's: c's folders reach the budget before its file
  int made = 0;
  for (auto it = fs::recursive_directory_iterator(dest()); it != fs::recursive_directory_iterator(); ++it) ++made;
  EXPECT_LE(made, limits.entries + limits.depth + 1 + limits.kernelEntries);
}

// Found by an intake corpus: alice/ with a README.md beside it in a zip graded the zip's top, where
// every kernel file was missing.
TEST_F(Unpack, TheRootGoesDownThroughFoldersThatOnlyWrapOne) {
  auto rootOf = [&](const std::vector<Entry>& entries) {
    fs::remove_all(root_ / "dest");
    writeZip(zip(), entries);
    const UnpackResult r = unpackArchive(zip(), dest());
    EXPECT_TRUE(r.ok) << r.error;
    return fs::path(unpackedRoot(dest())).lexically_relative(dest()).string();
  };
  EXPECT_EQ(rootOf({{"README.md", "read me"}, {"alice/kernels/histogram.cl", "k"}, {".git/HEAD", "ref"}}), "alice");
  EXPECT_EQ(rootOf({{"notes.txt", "n"}, {"lab3/report.pdf", "p"}, {"lab3/src/Histogram.CL", "k"}}), "lab3/src");
  // A kernels folder or a .cl file where it is: that is the root, whatever folders lie beside.
  EXPECT_EQ(rootOf({{"lab3/kernels/histogram.cl", "k"}, {"lab3/docs/a.txt", "d"}}), "lab3");
  EXPECT_EQ(rootOf({{"histogram.cl", "k"}, {"alice/x.txt", "x"}}), ".");
  // Two folders: no guess.
  EXPECT_EQ(rootOf({{"a/histogram.cl", "k"}, {"b/histogram.cl", "k"}}), ".");
  // At most 4 levels down.
  EXPECT_EQ(rootOf({{"1/2/3/4/5/6/histogram.cl", "k"}}), "1/2/3/4");
}

TEST_F(Unpack, NotAnArchiveIsSaidSo) {
  ASSERT_TRUE(writeFileAtomically(zip(), "this is not a zip file", nullptr));
  const UnpackResult r = unpackArchive(zip(), dest());
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.error.empty());
}

TEST(LooksLikeArchive, ByItsName) {
  for (const char* name : {"alice.zip", "ALICE.ZIP", "a/b.tar.gz", "b.tgz", "c.tar.xz", "d.7z", "e.tar"})
    EXPECT_TRUE(looksLikeArchive(name)) << name;
  for (const char* name : {"kernels", "histogram.cl", "zip", ".zip"}) EXPECT_FALSE(looksLikeArchive(name)) << name;
  EXPECT_EQ(archiveStem("a/Alice.ZIP"), "Alice");
  EXPECT_EQ(archiveStem("x.tar.gz"), "x");
  EXPECT_EQ(archiveStem("...zip"), "..");  // the caller keeps such a name out of paths
  EXPECT_EQ(archiveStem("kernels"), "");
}

}  // namespace
}  // namespace clgrade
