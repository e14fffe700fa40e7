#include "util/archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
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

/// The current entry's bytes into `fd`, within the limits of one file and of the whole archive
/// (`total` so far); false with `error` otherwise.
bool copyData(archive* a, int fd, const std::string& name, const UnpackLimits& limits, uint64_t* total,
              std::string* error) {
  uint64_t bytes = 0;
  char buffer[1 << 16];
  for (;;) {
    const la_ssize_t n = archive_read_data(a, buffer, sizeof buffer);
    if (n == 0) return true;
    if (n < 0) {
      *error = printable(name) + " cannot be unpacked: " + archive_error_string(a);
      return false;
    }
    bytes += uint64_t(n);
    *total += uint64_t(n);
    if (bytes > limits.fileBytes || *total > limits.totalBytes) {
      *error = bytes > limits.fileBytes
                   ? printable(name) + " unpacks to more than " + std::to_string(limits.fileBytes >> 20) + " MiB"
                   : "the archive unpacks to more than " + std::to_string(limits.totalBytes >> 20) + " MiB";
      return false;
    }
    if (write(fd, buffer, size_t(n)) != n) {
      *error = printable(name) + " cannot be written: " + strerror(errno);
      return false;
    }
  }
}

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
  uint64_t total = 0;
  int entries = 0, made = 0;
  // Folders are made here one level at a time and counted: a few bytes of archive must not become a
  // million folders. A name whose parent is a file is left out and listed.
  auto makeParents = [&](const fs::path& relative, std::string* why) {
    fs::path at = dest;
    for (const fs::path& part : relative.parent_path()) {
      at /= part;
      std::error_code e;
      const fs::file_status st = fs::symlink_status(at, e);
      if (fs::is_directory(st)) continue;
      if (fs::exists(st)) {
        *why = "its folder " + printable(part.string()) + " is a file of the archive";
        return false;
      }
      if (++made > limits.entries) return false;
      if (!fs::create_directory(at, e)) {
        *why = "its folder cannot be made (" + e.message() + ")";
        return false;
      }
    }
    return true;
  };
  archive_entry* entry = nullptr;
  for (;;) {
    const int status = archive_read_next_header(a.get(), &entry);
    if (status == ARCHIVE_EOF) break;
    if (status < ARCHIVE_WARN) {
      r.error = std::string("the archive is damaged: ") + archive_error_string(a.get());
      return r;
    }
    if (++entries > limits.entries) {
      r.error = "the archive has more than " + std::to_string(limits.entries) + " entries";
      return r;
    }
    const char* raw = archive_entry_pathname(entry);
    std::string name = raw ? raw : "";
    while (name.size() > 1 && name.back() == '/') name.pop_back();
    while (name.rfind("./", 0) == 0) name.erase(0, 2);
    if (name.empty() || name == "." || macintoshClutter(name)) continue;
    std::string why = nameProblem(name);
    const fs::path relative(name);
    const int depth = int(std::distance(relative.begin(), relative.end())) - 1;
    if (why.empty() && name.size() > limits.nameBytes)
      why = "a name longer than " + std::to_string(limits.nameBytes) + " bytes";
    if (why.empty() && depth > limits.depth) why = "more than " + std::to_string(limits.depth) + " folders deep";
    if (!why.empty()) {
      r.leftOut.push_back(printable(name) + ": " + why);
      continue;
    }
    const fs::path target = fs::path(dest) / name;
    const mode_t type = archive_entry_filetype(entry);
    // A folder entry is its path with a last component: made like the parents of a file in it.
    if (!makeParents(type == AE_IFDIR ? fs::path(name) / "x" : fs::path(name), &why)) {
      if (made > limits.entries) {
        r.error = "the archive makes more than " + std::to_string(limits.entries) + " folders";
        return r;
      }
      r.leftOut.push_back(printable(name) + ": " + why);
      continue;
    }
    if (type == AE_IFDIR) continue;
    if (type != AE_IFREG || archive_entry_hardlink(entry)) {
      r.leftOut.push_back(printable(name) + ": not a regular file (a link or a special file)");
      continue;
    }
    if (++made > limits.entries) {
      r.error = "the archive has more than " + std::to_string(limits.entries) + " files";
      return r;
    }
    const int fd = open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
      r.leftOut.push_back(printable(name) + ": cannot be written (" + std::string(strerror(errno)) + "; named twice?)");
      continue;
    }
    const bool copied = copyData(a.get(), fd, name, limits, &total, &r.error);
    close(fd);
    if (!copied) return r;
    ++r.files;
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

std::string unpackedRoot(const std::string& dest) {
  std::error_code ec;
  std::vector<fs::path> entries;
  for (const fs::directory_entry& e : fs::directory_iterator(dest, ec))
    if (e.path().filename() != "__MACOSX") entries.push_back(e.path());
  if (entries.size() == 1 && fs::is_directory(fs::symlink_status(entries.front(), ec))) return entries.front().string();
  return dest;
}

}  // namespace clgrade
