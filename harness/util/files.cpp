#include "util/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace clgrade {

bool readFile(const std::string& path, std::string* out, std::string* err, size_t limitBytes) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    if (err) *err = fs::exists(path, ec) ? path + " is not a regular file" : path + " does not exist";
    return false;
  }
  const auto size = fs::file_size(path, ec);
  if (ec || size > limitBytes) {
    if (err) *err = path + (ec ? " cannot be sized" : " is larger than " + std::to_string(limitBytes >> 20) + " MiB");
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (err) *err = "cannot open " + path;
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *out = buffer.str();
  return true;
}

bool readUntrustedFile(const std::string& path, size_t limitBytes, std::string* out) {
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && uint64_t(st.st_size) <= limitBytes;
  std::string bytes;
  if (ok) {
    bytes.resize(size_t(st.st_size));
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = read(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += size_t(n);
    }
    bytes.resize(done);
  }
  close(fd);
  if (ok) *out = std::move(bytes);
  return ok;
}

bool writeFileAtomically(const std::string& path, const std::string& bytes, std::string* err) {
  const std::string temp = path + ".tmp";
  {
    std::ofstream outFile(temp, std::ios::binary | std::ios::trunc);
    outFile.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!outFile) {
      if (err) *err = "cannot write " + temp;
      return false;
    }
  }
  std::error_code ec;
  fs::rename(temp, path, ec);
  if (ec) {
    if (err) *err = "cannot rename " + temp + " to " + path + ": " + ec.message();
    return false;
  }
  return true;
}

bool makeDirectories(const std::string& path, std::string* err) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (fs::is_directory(path, ec)) return true;
  if (err) *err = "cannot create directory " + path;
  return false;
}

}  // namespace clgrade
