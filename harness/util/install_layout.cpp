#include "util/install_layout.h"

#include <algorithm>

#include <cstdlib>
#include <filesystem>

#include "util/subprocess.h"

namespace clgrade {

namespace fs = std::filesystem;

std::string toolsFolder() {
  const char* env = std::getenv("CLGRADE_TOOLS_DIR");
  if (env && *env) return env;
  return fs::path(selfExecutable()).parent_path().string();
}

std::string dataFolder() {
  const fs::path tools = toolsFolder();
  std::error_code ec;
  // A folder, not a file inside it: in a sandbox only the parts a child needs are mounted, and the
  // folders above them exist all the same.
  for (const fs::path& candidate :
       {tools / "share" / "clgrade", (tools / ".." / ".." / "share" / "clgrade").lexically_normal()})
    if (fs::is_directory(candidate, ec)) return candidate.string();
  return "";
}

std::string dataPath(const std::string& relative) {
  const std::string data = dataFolder();
  if (!data.empty()) return data + "/" + relative;
  return "<clgrade's data folder, share/clgrade beside or above " + toolsFolder() + ", is missing>/" + relative;
}

std::vector<std::string> rubricFiles(const std::string& folder) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const std::filesystem::directory_entry& e : std::filesystem::directory_iterator(folder, ec))
    if (e.path().extension() == ".xml" && e.is_regular_file(ec)) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace clgrade
