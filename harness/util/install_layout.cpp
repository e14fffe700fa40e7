#include "util/install_layout.h"

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
  for (const fs::path& candidate : {tools / "share" / "clgrade", (tools / ".." / ".." / "share" / "clgrade").lexically_normal()})
    if (fs::is_directory(candidate, ec)) return candidate.string();
  return "";
}

std::string dataPath(const std::string& relative) {
  const std::string data = dataFolder();
  if (!data.empty()) return data + "/" + relative;
  return "<clgrade's data folder, share/clgrade beside or above " + toolsFolder() + ", is missing>/" + relative;
}

}  // namespace clgrade
