#include "util/archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <memory>

namespace clgrade {

namespace fs = std::filesystem;

namespace {

/// Why `name` cannot be unpacked as given, or "" when it is a plain relative path: no absolute path,
/// no "..", no empty or "." component, no control characters.
std::string nameProblem(const std::string& name) {
  if (name.empty()) return "an empty name";
  if (name[0] == '/') return "an absolute path";
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7f) return "a control character in its name";
  for (const fs::path& part : fs::path(name)) {
    const std::string s = part.string();
    if (s == "..") return "a name that leaves the folder (..)";
  }
  return "";
}

/// `name` with control characters as \xNN: one line on the listing, whatever the archive holds.
std::string printable(const std::string& name) {
  std::string out;
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else {
      out += char(c);
    }
  }
  return out;
}

/// Mac zips carry resource forks in __MACOSX/ and Finder files: left out without a word.
bool macintoshClutter(const std::string& name) {
  const fs::path p(name);
  for (const fs::path& part : p)
    if (part == "__MACOSX") return true;
  return p.filename() == ".DS_Store";
}

}  // namespace

std::string archiveStem(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  // Longest first: "x.tar.gz" is x, not x.tar.
  for (const std::string s : {".tar.gz", ".tar.xz", ".tar.bz2", ".zip", ".tar", ".tgz", ".txz", ".7z"})
    if (lower.size() > s.size() && lower.compare(lower.size() - s.size(), s.size(), s) == 0)
      return name.substr(0, name.size() - s.size());
  return "";
}

bool looksLikeArchive(const std::string& path) { return !archiveStem(path).empty(); }

namespace {

/// "16 MiB", or "4096 bytes" for a limit below one MiB (a test's).
std::string sizeText(uint64_t bytes) {
  return bytes >= (uint64_t(1) << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " bytes";
}

/// A kernel file or one it may include, by its name's ending (case-insensitive: a Windows zip may say
/// HISTOGRAM.CL): what is still unpacked past UnpackLimits::entries.
bool kernelFileName(const std::string& name) {
  std::string lower = fs::path(name).filename().string();
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  auto endsWith = [&](const char* suffix) {
    const size_t n = std::strlen(suffix);
    return lower.size() > n && lower.compare(lower.size() - n, n, suffix) == 0;
  };
  return endsWith(".cl") || endsWith(".h");
}

/// The entries of one archive into `dest`, one at a time (see unpackArchive and UnpackLimits).
class Unpacker {
 public:
  Unpacker(archive* a, const std::string& dest, const UnpackLimits& limits, UnpackResult* r)
      : a_(a), dest_(dest), limits_(limits), r_(r) {}

  /// The current entry unpacked, left out (listed or counted) or skipped; false when the unpacking
  /// must stop, with r_->error.
  bool take(archive_entry* entry) {
    if (++read_ > limits_.headers) {
      r_->error = "the archive has more than " + std::to_string(limits_.headers) + " entries";
      return false;
    }
    const char* raw = archive_entry_pathname(entry);
    std::string name = raw ? raw : "";
    while (name.size() > 1 && name.back() == '/') name.pop_back();
    while (name.rfind("./", 0) == 0) name.erase(0, 2);
    if (name.empty() || name == "." || macintoshClutter(name)) return true;
    const mode_t type = archive_entry_filetype(entry);
    if (kernelFilesOnly()) return takeLate(entry, name, type);
    std::string why = nameProblem(name);
    if (why.empty()) why = shapeProblem(name);
    // A folder entry is its path with a last component: made like the parents of a file in it. Not
    // bounded here: kernelFilesOnly() is judged before each entry, whose name is at most `depth` deep.
    if (why.empty()) makeParents(type == AE_IFDIR ? fs::path(name) / "x" : fs::path(name), &made_, INT_MAX, &why);
    if (!why.empty()) return leaveOut(name, why);
    if (type == AE_IFDIR) return true;
    if (type != AE_IFREG || archive_entry_hardlink(entry))
      return leaveOut(name, "not a regular file (a link or a special file)");
    ++made_;
    return writeFile(entry, name);
  }

 private:
  /// Past the first `entries` entries read, or files and folders made: a project zipped whole (its
  /// node_modules, its .git) is no bomb, and its kernel files are what a grade needs. Only regular
  /// .cl and .h files are unpacked from here on, they and their folders within `kernelEntries`, and
  /// every other entry is counted (its folders aside): a bounded number of files is ever made.
  bool kernelFilesOnly() const { return read_ > limits_.entries || made_ >= limits_.entries; }

  bool takeLate(archive_entry* entry, const std::string& name, mode_t type) {
    if (type == AE_IFDIR) return true;  // made when a kernel file needs it
    if (!saidKernelFilesOnly_) {
      saidKernelFilesOnly_ = true;
      r_->leftOut.push_back(printable(name) + ": past the archive's first " + std::to_string(limits_.entries) +
                            " entries only .cl and .h files are unpacked");
      if (!kernelFileName(name)) return true;
    }
    const bool kernelFile = type == AE_IFREG && !archive_entry_hardlink(entry) && kernelFileName(name) &&
                            nameProblem(name).empty() && shapeProblem(name).empty();
    std::string why;
    if (!kernelFile || !makeParents(fs::path(name), &madeLate_, limits_.kernelEntries, &why) ||
        madeLate_ >= limits_.kernelEntries) {
      ++r_->moreLeftOut;
      return true;
    }
    ++madeLate_;
    return writeFile(entry, name);
  }

  /// Why `name` is too long or too deep to unpack; "" when it is not.
  std::string shapeProblem(const std::string& name) const {
    const fs::path relative(name);
    const int depth = int(std::distance(relative.begin(), relative.end())) - 1;
    if (name.size() > limits_.nameBytes) return "a name longer than " + std::to_string(limits_.nameBytes) + " bytes";
    if (depth > limits_.depth) return "more than " + std::to_string(limits_.depth) + " folders deep";
    return "";
  }

  bool leaveOut(const std::string& name, const std::string& why) {
    r_->leftOut.push_back(printable(name) + ": " + why);
    return true;
  }

  /// The missing folders of `relative`, made one level at a time and each counted in *made, which
  /// stays below `most`: a few bytes of archive must not become a million folders. False with `why`
  /// when its parent is a file, a folder cannot be made, or `most` is reached.
  bool makeParents(const fs::path& relative, int* made, int most, std::string* why) {
    fs::path at = dest_;
    for (const fs::path& part : relative.parent_path()) {
      at /= part;
      std::error_code e;
      const fs::file_status st = fs::symlink_status(at, e);
      if (fs::is_directory(st)) continue;
      if (fs::exists(st)) {
        *why = "its folder " + printable(part.string()) + " is a file of the archive";
        return false;
      }
      if (*made >= most) {
        *why = "past the limit of files and folders made";
        return false;
      }
      ++*made;
      if (!fs::create_directory(at, e)) {
        *why = "its folder cannot be made (" + e.message() + ")";
        return false;
      }
    }
    return true;
  }

  /// The current entry's bytes into dest_/name. A file over `fileBytes` is removed and left out, the
  /// rest of its data skipped (the unpacking goes on: one video beside the kernels must not cost the
  /// grade); false when the whole archive must stop (damaged data, `totalBytes`, a failed write).
  bool writeFile(archive_entry* entry, const std::string& name) {
    // The size the archive declares, when it does: such a file is left out before a byte is written.
    if (archive_entry_size_is_set(entry) && uint64_t(archive_entry_size(entry)) > limits_.fileBytes) {
      archive_read_data_skip(a_);
      return tooLarge(name);
    }
    const fs::path target = dest_ / name;
    const int fd = open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) return leaveOut(name, "cannot be written (" + std::string(strerror(errno)) + "; named twice?)");
    const Copy copied = copyData(fd, name);
    close(fd);
    if (copied == Copy::Failed) return false;
    if (copied == Copy::TooLarge) {
      std::error_code ec;
      fs::remove(target, ec);
      archive_read_data_skip(a_);
      return tooLarge(name);
    }
    ++r_->files;
    return true;
  }

  bool tooLarge(const std::string& name) {
    return leaveOut(name, "larger than " + sizeText(limits_.fileBytes) + ", the limit of one file");
  }

  enum class Copy { Done, TooLarge, Failed };

  /// The current entry's bytes into `fd`; TooLarge past `fileBytes` (that chunk not written), Failed
  /// with r_->error when the archive is damaged, past `totalBytes`, or a write fails.
  Copy copyData(int fd, const std::string& name) {
    uint64_t bytes = 0;
    char buffer[1 << 16];
    for (;;) {
      const la_ssize_t n = archive_read_data(a_, buffer, sizeof buffer);
      if (n == 0) return Copy::Done;
      if (n < 0) {
        r_->error = printable(name) + " cannot be unpacked: " + archive_error_string(a_);
        return Copy::Failed;
      }
      bytes += uint64_t(n);
      if (bytes > limits_.fileBytes) return Copy::TooLarge;
      total_ += uint64_t(n);
      if (total_ > limits_.totalBytes) {
        r_->error = "the archive unpacks to more than " + sizeText(limits_.totalBytes);
        return Copy::Failed;
      }
      if (write(fd, buffer, size_t(n)) != n) {
        r_->error = printable(name) + " cannot be written: " + strerror(errno);
        return Copy::Failed;
      }
    }
  }

  archive* a_;
  const fs::path dest_;
  const UnpackLimits& limits_;
  UnpackResult* r_;
  uint64_t total_ = 0;  ///< bytes written, all files together
  int read_ = 0;        ///< entries read
  int made_ = 0;        ///< files and folders made before kernelFilesOnly()
  int madeLate_ = 0;    ///< and after
  bool saidKernelFilesOnly_ = false;
};

}  // namespace

UnpackResult unpackArchive(const std::string& archivePath, const std::string& dest, const UnpackLimits& limits) {
  UnpackResult r;
  std::error_code destMade;
  fs::create_directories(dest, destMade);
  if (destMade) {
    r.error = "cannot make " + dest + ": " + destMade.message();
    return r;
  }
  std::unique_ptr<archive, int (*)(archive*)> a(archive_read_new(), archive_read_free);
  archive_read_support_format_all(a.get());
  archive_read_support_filter_all(a.get());
  if (archive_read_open_filename(a.get(), archivePath.c_str(), 1 << 16) != ARCHIVE_OK) {
    r.error = std::string("not an archive clgrade can read: ") + archive_error_string(a.get());
    return r;
  }
  Unpacker unpacker(a.get(), dest, limits, &r);
  archive_entry* entry = nullptr;
  for (;;) {
    const int status = archive_read_next_header(a.get(), &entry);
    if (status == ARCHIVE_EOF) break;
    if (status < ARCHIVE_WARN) {
      r.error = std::string("the archive is damaged: ") + archive_error_string(a.get());
      return r;
    }
    if (!unpacker.take(entry)) return r;
  }
  r.ok = true;
  return r;
}

bool writeZip(const std::string& path, const std::vector<ArchiveFile>& files, std::string* err) {
  std::unique_ptr<archive, int (*)(archive*)> a(archive_write_new(), archive_write_free);
  archive_write_set_format_zip(a.get());
  if (archive_write_open_filename(a.get(), path.c_str()) != ARCHIVE_OK) {
    *err = path + ": " + archive_error_string(a.get());
    return false;
  }
  for (const ArchiveFile& f : files) {
    std::unique_ptr<archive_entry, void (*)(archive_entry*)> entry(archive_entry_new(), archive_entry_free);
    archive_entry_set_pathname(entry.get(), f.name.c_str());
    archive_entry_set_filetype(entry.get(), AE_IFREG);
    archive_entry_set_perm(entry.get(), mode_t(f.mode));
    archive_entry_set_size(entry.get(), la_int64_t(f.bytes.size()));
    if (archive_write_header(a.get(), entry.get()) != ARCHIVE_OK ||
        archive_write_data(a.get(), f.bytes.data(), f.bytes.size()) != la_ssize_t(f.bytes.size())) {
      *err = path + ": " + f.name + ": " + archive_error_string(a.get());
      return false;
    }
  }
  if (archive_write_close(a.get()) != ARCHIVE_OK) {
    *err = path + ": " + archive_error_string(a.get());
    return false;
  }
  return true;
}

namespace {

/// The one folder `dir` only wraps: its only sub-folder (hidden ones and __MACOSX aside, links not
/// followed) when `dir` holds no .cl file (in any case) and no kernels folder; empty otherwise.
fs::path wrappedFolder(const fs::path& dir) {
  std::error_code ec;
  std::vector<fs::path> folders;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code e2;
    const bool folder = fs::is_directory(fs::symlink_status(it->path(), e2));
    std::string extension = it->path().extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if ((folder && name == "kernels") || (!folder && extension == ".cl")) return {};
    if (folder && name != "__MACOSX" && name[0] != '.') folders.push_back(it->path());
  }
  return folders.size() == 1 ? folders.front() : fs::path();
}

}  // namespace

std::string unpackedRoot(const std::string& dest) {
  // Down while a folder only wraps another: a README, a report.pdf or a .gitignore beside the one
  // folder must not hide the kernels in it (found by an intake corpus: alice/ and README.md at the
  // top of a zip graded the top, every file missing). A few levels: deeper is no zip's wrapping.
  constexpr int kMostLevels = 4;
  fs::path at = dest;
  for (int level = 0; level < kMostLevels; ++level) {
    const fs::path inner = wrappedFolder(at);
    if (inner.empty()) break;
    at = inner;
  }
  return at.string();
}

}  // namespace clgrade
