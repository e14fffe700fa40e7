// Whole-file reads and writes with a message instead of an exception.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace clgrade {

/// Reads a whole file. Fails (with a message in *err) on a missing file, a directory,
/// or a file larger than `limitBytes`.
bool readFile(const std::string& path, std::string* out, std::string* err, size_t limitBytes = size_t(64) << 20);

/// Reads a file a sandboxed process wrote: never through a link (O_NOFOLLOW), only a regular file,
/// at most `limitBytes`. False for anything else, without saying more (what the file holds is not
/// to be echoed).
bool readUntrustedFile(const std::string& path, size_t limitBytes, std::string* out);

/// The first `limitBytes` of a file a sandboxed process wrote (never through a link, only a regular
/// file), and its whole size in `size`: what a part's kernels printed, kept as a pipe's limit keeps it.
bool readUntrustedFileStart(const std::string& path, size_t limitBytes, std::string* out, uint64_t* size);

/// Writes a whole file through a temporary name and a rename, so readers never see half of it: every
/// write, the fsync, the close and the rename are checked, and on any failure (a full disk, a
/// read-only folder) it returns false with a message naming `path` and the reason, removes the
/// temporary file and leaves an existing file at `path` as it was. The new file is mode 0644.
/// `sync` false: no fsync (a cache whose files are checked when read: after a crash a torn file
/// fails its check, and writing a 200 MB file then takes 0.1 s instead of seconds).
bool writeFileAtomically(const std::string& path, const std::string& bytes, std::string* err, bool sync = true);

/// The disk the files below `folder` take (allocated blocks, so a sparse file counts what it holds),
/// links not followed; the walk stops once the sum is above `stopAbove` (0: never).
uint64_t diskUsageBytes(const std::string& folder, uint64_t stopAbove = 0);

/// Whether path `p` is `folder` or lies below it, compared name by name as written (no link is
/// resolved: callers canonicalise first when links matter); a trailing slash on `folder` is ignored.
bool pathWithin(const std::filesystem::path& p, const std::filesystem::path& folder);

/// Creates a directory and its parents; true if it exists afterwards.
bool makeDirectories(const std::string& path, std::string* err);

}  // namespace clgrade
