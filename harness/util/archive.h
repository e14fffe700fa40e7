// A submission handed in as an archive (.zip, .tar, .tar.gz, .tgz, .tar.xz, .7z: whatever Debian's
// libarchive reads) unpacked into a folder, keeping only what a kernels folder can be: regular files
// and folders with plain relative names. Links, devices and names that leave the folder are left
// out and listed; a bomb (too many entries, too many bytes) stops the unpacking. The keeper runs this
// inside a sandbox (`clgrade unpack`): the archive is a student's bytes, and so is every parser path.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace clgrade {

struct UnpackLimits {
  uint64_t totalBytes = uint64_t(64) << 20;  ///< all files together, unpacked
  uint64_t fileBytes = uint64_t(16) << 20;   ///< one file
  int entries = 10000;                       ///< entries read, and files and folders made, each
  int depth = 16;                            ///< folders a name may go down (a/b/c.cl: 2)
  size_t nameBytes = 512;                    ///< a whole name
};

struct UnpackResult {
  bool ok = false;
  std::string error;  ///< why it stopped (not an archive, a limit, a write that failed)
  int files = 0;
  std::vector<std::string> leftOut;  ///< "<name>: <why>" for each entry not unpacked
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

/// The folder to grade in an unpacked archive: `dest` itself, or the one folder it holds when it
/// holds nothing else (alice.zip with alice/ inside), the __MACOSX folder of a Mac's zip aside.
std::string unpackedRoot(const std::string& dest);

}  // namespace clgrade
