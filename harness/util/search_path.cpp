#include "util/search_path.h"

#include <cstdlib>
#include <filesystem>

namespace clgrade {

std::string findOnPath(const std::string& program) {
  std::error_code ec;
  const char* path = std::getenv("PATH");
  if (!path) return "";
  const std::string dirs = path;
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = dirs.find(':', start);
    const std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!dir.empty() && std::filesystem::exists(dir + "/" + program, ec)) return dir + "/" + program;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return "";
}

}  // namespace clgrade
