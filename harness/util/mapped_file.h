// A regular file's bytes mapped read-only, for large files read whole and only read: a 200 MB stored
// input hashed and parsed straight from the page cache, instead of copied into a zeroed buffer first
// (most of a stored read's time was that buffer's fresh pages).
//
// Only for files that are replaced by rename and never truncated in place (a store's): a mapped file
// cut short under its reader ends that reader with SIGBUS.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace clgrade {

class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  /// Maps `path` (a regular file of at most `limitBytes`); false with `err` otherwise. An empty file
  /// maps to empty bytes.
  bool open(const std::string& path, size_t limitBytes, std::string* err);
  std::string_view bytes() const { return {data_, size_}; }

 private:
  const char* data_ = nullptr;
  size_t size_ = 0;
  void* mapping_ = nullptr;
};

}  // namespace clgrade
