#include "similarity/kept_sources.h"

#include <cctype>
#include <filesystem>

#include "intake/source_policy.h"
#include "util/files.h"

namespace clgrade {

namespace fs = std::filesystem;

bool isKeptSourceName(const std::string& file) {
  if (file.empty() || file.size() > 255 || file[0] == '.') return false;
  for (char c : file)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
  return true;
}

bool keepSources(const std::string& kernelsDir, const std::vector<std::string>& files, const std::string& reportDir,
                 std::string* err) {
  const fs::path folder = fs::path(reportDir) / kSourcesFolder;
  for (const std::string& file : files) {
    if (!isKeptSourceName(file)) continue;
    const KernelSource source = loadKernelSource(kernelsDir, file);
    if (!source.present) continue;
    if (!makeDirectories(folder.string(), err) ||
        !writeFileAtomically((folder / file).string(), source.fileBytes, err, false))
      return false;
  }
  return true;
}

bool readKeptSource(const std::string& reportDir, const std::string& file, std::string* text, size_t limitBytes) {
  if (!isKeptSourceName(file)) return false;
  return readUntrustedFile((fs::path(reportDir) / kSourcesFolder / file).string(), limitBytes, text);
}

}  // namespace clgrade
