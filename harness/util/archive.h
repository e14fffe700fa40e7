// A submission handed in as an archive (.zip, .tar, .tar.gz, .tgz, .tar.xz, .7z: whatever Debian's
// libarchive reads) unpacked into a folder, keeping only what a kernels folder can be: regular files
// and folders with plain relative names. Links, devices, names that leave the folder and files over
// the size of one are left out and listed; past many entries only kernel files (.cl, .h) are
// unpacked and the others counted; a bomb (too many entries or bytes in all) stops the unpacking.
// The keeper runs this inside a sandbox (`clgrade unpack`): the archive is a student's bytes, and so
// is every parser path.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace clgrade {

struct UnpackLimits {
  /// All files together, as written (a bomb stops here). What was written of a file then left out
  /// counts too: these are the bytes the unpacking cost.
  uint64_t totalBytes = uint64_t(64) << 20;
  /// One file: a larger one (a video, a build's output beside the kernels) is left out and listed,
  /// and the rest of the archive unpacked.
  uint64_t fileBytes = uint64_t(16) << 20;
  /// Entries read, and files and folders made, before only kernel files are unpacked: past either,
  /// a project zipped with its node_modules or .git still gives its .cl and .h files.
  int entries = 10000;
  int kernelEntries = 1000;  ///< past `entries`: .cl and .h files and their folders made, at most
  int headers = 200000;      ///< entries read at all: the unpacking stops (an error) past them
  int depth = 16;            ///< folders a name may go down (a/b/c.cl: 2)
  size_t nameBytes = 512;    ///< a whole name
};

struct UnpackResult {
  bool ok = false;
  std::string error;  ///< why it stopped (not an archive, a limit, a write that failed)
  int files = 0;
  std::vector<std::string> leftOut;  ///< "<name>: <why>" for each entry not unpacked
  /// Entries left out past UnpackLimits::entries (not kernel files, or past kernelEntries): counted,
  /// not listed (an archive of 200000 entries would give as many lines).
  int moreLeftOut = 0;
};

/// Unpacks `archive` into the folder `dest` (made when missing; empty).
UnpackResult unpackArchive(const std::string& archive, const std::string& dest, const UnpackLimits& limits = {});

/// One file of an archive clgrade writes.
struct ArchiveFile {
  std::string name;
  std::string bytes;
  int mode = 0644;
};

/// Writes `files` as a zip archive at `path` (replaced if it exists); false with `err` otherwise.
bool writeZip(const std::string& path, const std::vector<ArchiveFile>& files, std::string* err);

/// `path`'s file name without the archive suffix clgrade recognises (case-insensitive: "Alice.ZIP" ->
/// "Alice", "x.tar.gz" -> "x"); empty when it has none (or nothing before it).
std::string archiveStem(const std::string& path);

/// True when `path`'s name ends like an archive clgrade unpacks (case-insensitive).
bool looksLikeArchive(const std::string& path);

/// The folder to grade in an unpacked archive: `dest` itself, or, while the folder holds no .cl file
/// and no kernels folder and exactly one folder (hidden ones and a Mac's __MACOSX aside; files such as
/// a README beside it), that folder, at most 4 levels down (alice.zip with alice/ and README.md).
std::string unpackedRoot(const std::string& dest);

}  // namespace clgrade
