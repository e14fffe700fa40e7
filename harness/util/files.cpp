#include "util/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace clgrade {

bool readFile(const std::string& path, std::string* out, std::string* err, size_t limitBytes) {
  // One read into a buffer of the file's size: a stream through a string stream copies a 200 MB
  // stored input three times (0.6 s instead of 0.05 s). O_NONBLOCK: a FIFO put where a file was
  // expected (a runner's progress file) must not block its reader; a regular file ignores it.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    std::error_code ec;
    if (err)
      *err = fd < 0 && !fs::exists(path, ec) ? path + " does not exist"
             : fd < 0                        ? "cannot open " + path
                                             : path + " is not a regular file";
    if (fd >= 0) close(fd);
    return false;
  }
  if (uint64_t(st.st_size) > limitBytes) {
    if (err) *err = path + " is larger than " + std::to_string(limitBytes >> 20) + " MiB";
    close(fd);
    return false;
  }
  // The size is a first guess: files under /proc say 0 and have text, a growing file has more.
  std::string bytes(size_t(st.st_size) + 1, '\0');
  size_t done = 0;
  for (;;) {
    if (done == bytes.size()) {
      if (bytes.size() > limitBytes) {
        if (err) *err = path + " is larger than " + std::to_string(limitBytes >> 20) + " MiB";
        close(fd);
        return false;
      }
      bytes.resize(std::min(limitBytes + 1, bytes.size() * 2 + 65536));
    }
    const ssize_t n = read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      if (err) *err = "cannot read " + path + ": " + std::strerror(errno);
      close(fd);
      return false;
    }
    if (n == 0) break;
    done += size_t(n);
  }
  close(fd);
  bytes.resize(done);
  *out = std::move(bytes);
  return true;
}

bool readUntrustedFileStart(const std::string& path, size_t limitBytes, std::string* out, uint64_t* size) {
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  const bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  std::string bytes;
  if (ok) {
    bytes.resize(std::min<uint64_t>(uint64_t(st.st_size), limitBytes));
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = read(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += size_t(n);
    }
    bytes.resize(done);
    *size = uint64_t(st.st_size);
    *out = std::move(bytes);
  }
  close(fd);
  return ok;
}

bool readUntrustedFile(const std::string& path, size_t limitBytes, std::string* out) {
  std::string bytes;
  uint64_t size = 0;
  if (!readUntrustedFileStart(path, limitBytes, &bytes, &size) || size > limitBytes) return false;
  *out = std::move(bytes);
  return true;
}

namespace {

std::string failure(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

}  // namespace

bool writeFileAtomically(const std::string& path, const std::string& bytes, std::string* err, bool sync) {
  // A unique temporary name beside the file (so the rename stays on one file system) that is short
  // whatever the file's name (a 250-byte name plus a suffix would pass NAME_MAX), and hidden.
  const fs::path target(path);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string temp = (folder / ".clgrade-write-XXXXXX").string();
  const int fd = mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) {
    if (err) *err = failure("cannot create a temporary file to write", path);
    return false;
  }
  // Every step is checked: on a full disk write() may succeed into the page cache and the error
  // arrive only at fsync() or close(); a file under a few KiB otherwise ends up empty, silently.
  std::string problem;
  for (size_t done = 0; problem.empty() && done < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      problem = failure("cannot write", path);
    } else {
      done += size_t(n);
    }
  }
  // mkostemp makes 0600; reports are read by others (a web server, the course staff).
  if (problem.empty() && fchmod(fd, 0644) != 0) problem = failure("cannot set the permissions of", path);
  if (problem.empty() && sync && fsync(fd) != 0) problem = failure("cannot write", path);
  if (close(fd) != 0 && problem.empty()) problem = failure("cannot write", path);
  if (problem.empty() && rename(temp.c_str(), path.c_str()) != 0)
    problem = failure("cannot rename the temporary file " + temp + " to", path);
  if (!problem.empty()) {
    unlink(temp.c_str());  // the old file, if any, is untouched
    if (err) *err = problem;
    return false;
  }
  // The rename itself reaches the disk with the folder: without this a crash can bring back the old file.
  if (!sync) return true;
  const int dir = open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    fsync(dir);  // best effort: some file systems refuse fsync on a folder, and the file is in place
    close(dir);
  }
  return true;
}

uint64_t diskUsageBytes(const std::string& folder, uint64_t stopAbove) {
  uint64_t bytes = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(folder, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    struct stat st;
    if (lstat(it->path().c_str(), &st) == 0) bytes += uint64_t(st.st_blocks) * 512;
    if (stopAbove && bytes > stopAbove) break;
  }
  return bytes;
}

bool makeDirectories(const std::string& path, std::string* err) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (fs::is_directory(path, ec)) return true;
  if (err) *err = "cannot create directory " + path;
  return false;
}

bool pathWithin(const std::filesystem::path& p, const std::filesystem::path& folder) {
  auto i = p.begin();
  for (auto j = folder.begin(); j != folder.end() && !j->empty(); ++i, ++j)
    if (i == p.end() || *i != *j) return false;
  return true;
}

}  // namespace clgrade
