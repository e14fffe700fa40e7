#include "util/files.h"

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
