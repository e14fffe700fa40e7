#include "grading/missing_kernel_file.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "util/markup.h"
#include "util/nearest_name.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

}  // namespace

std::string missingKernelFileHint(const fs::path& root, const std::string& file) {
  constexpr size_t kMostEntries = 10000;
  constexpr int kDeepest = 4;
  std::error_code ec;
  // The folder itself: another case, or a near name with the .cl extension.
  std::vector<std::string> names;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end && names.size() < kMostEntries; it.increment(ec))
    if (it->is_regular_file(ec)) names.push_back(it->path().filename().string());
  for (const std::string& name : names)
    if (lower(name) == lower(file))
      return terminalText(name) + " is there: file names are case-sensitive; rename it to " + file;
  // Two edits at most: the four file names of the assignment differ by more than that, so another
  // task's file is never taken for a misspelling of this one.
  for (const std::string& name : names)
    if (lower(fs::path(name).extension().string()) == ".cl" && editDistance(lower(name), lower(file)) <= 2)
      return terminalText(name) + " is there: rename it to " + file;
  // Folders below: a submission that kept its own layout (alice/kernels/Convolution3x3.cl).
  size_t seen = 0;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end && ++seen <= kMostEntries; it.increment(ec)) {
    if (it.depth() >= kDeepest) it.disable_recursion_pending();
    if (it.depth() == 0 || !it->is_regular_file(ec) || lower(it->path().filename().string()) != lower(file)) continue;
    const std::string where = terminalText(it->path().parent_path().lexically_relative(root).string());
    return terminalText(it->path().filename().string()) + " is in the folder " + where +
           " inside it: give clgrade that folder (the one that holds the .cl files)";
  }
  return "";
}

}  // namespace clgrade
