#include "util/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace clgrade {

MappedFile::~MappedFile() {
  if (mapping_) munmap(mapping_, size_);
}

bool MappedFile::open(const std::string& path, size_t limitBytes, std::string* err) {
  const auto fail = [&](const std::string& why) {
    if (err) *err = why;
    return false;
  };
  if (mapping_) return fail("a MappedFile maps one file");
  // O_NONBLOCK: a FIFO where a file was expected must not block (it is refused below).
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return fail("cannot open " + path + ": " + std::strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return fail(path + " is not a regular file");
  }
  if (uint64_t(st.st_size) > limitBytes) {
    close(fd);
    return fail(path + " is larger than " + std::to_string(limitBytes >> 20) + " MiB");
  }
  size_ = size_t(st.st_size);
  if (size_ == 0) {
    close(fd);
    return true;
  }
  // MAP_POPULATE: the page cache's pages mapped in one call, not one fault at a time.
  void* m = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  const int mapErrno = errno;
  close(fd);  // the mapping keeps the file
  if (m == MAP_FAILED) {
    size_ = 0;
    return fail("cannot map " + path + ": " + std::strerror(mapErrno));
  }
  mapping_ = m;
  data_ = static_cast<const char*>(m);
  return true;
}

}  // namespace clgrade
