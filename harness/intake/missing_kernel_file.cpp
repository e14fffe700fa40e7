#include "intake/missing_kernel_file.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "util/archive.h"
#include "util/markup.h"
#include "util/nearest_name.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

/// A regular file itself, not a symbolic link to one (the keeper runs this outside any sandbox:
/// a link could point anywhere, even at a mount that hangs).
bool plainFile(const fs::directory_entry& entry) {
  std::error_code ec;
  return entry.symlink_status(ec).type() == fs::file_type::regular;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

/// A copy of `file` kept under another name: "histogram (1).cl" (a browser's second download),
/// "Histogram-final.cl", "histogram.cl.txt" (an editor's extension): a name that starts with the
/// file's stem and still says ".cl" (case aside); "" when none. No task's file name starts with
/// another's stem (histogram, convolution3x3, convolutionseparable, convolutionbilateral; a unit
/// test holds every task of the registry to it), so another task's file is never taken for a copy.
std::string copyOfTheFile(const std::vector<std::string>& names, const std::string& file) {
  const std::string stem = lower(fs::path(file).stem().string());
  // ".cl" as an extension of its own: at the end or before another ("histogram.cl.txt"), not ".class".
  auto saysCl = [&](const std::string& low) {
    for (size_t at = low.find(".cl", stem.size()); at != std::string::npos; at = low.find(".cl", at + 1))
      if (at + 3 == low.size() || !std::isalnum(static_cast<unsigned char>(low[at + 3]))) return true;
    return false;
  };
  for (const std::string& name : names) {
    const std::string low = lower(name);
    if (low.rfind(stem, 0) == 0 && saysCl(low)) return name;
  }
  return "";
}

/// Two archives or more where a kernel file is missing: a submission folder's archive is unpacked
/// only when it is the one there (intake/submission.h's loneArchive), so which to grade is the
/// student's word (found by an intake corpus: kernels.zip and kernels-old.zip gave only "missing").
std::string severalArchives(const std::vector<std::string>& names) {
  constexpr size_t kNamed = 4;
  std::vector<std::string> archives;
  for (const std::string& name : names)
    if (!name.empty() && name[0] != '.' && looksLikeArchive(name)) archives.push_back(name);
  if (archives.size() < 2) return "";
  std::string named;
  for (size_t i = 0; i < archives.size() && i < kNamed; ++i) named += (i ? ", " : "") + terminalName(archives[i]);
  if (archives.size() > kNamed) named += " and " + std::to_string(archives.size() - kNamed) + " more";
  return "the folder holds " + std::to_string(archives.size()) + " archives (" + named +
         "): an archive is unpacked only when it is the only one; keep the one to grade";
}

}  // namespace

std::string missingKernelFileHint(const fs::path& root, const std::string& file) {
  constexpr size_t kMostEntries = 10000;
  constexpr int kDeepest = 4;
  std::error_code ec;
  // The folder itself: another case, or a near name with the .cl extension.
  std::vector<std::string> names;
  size_t listed = 0;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end && ++listed <= kMostEntries; it.increment(ec))
    if (plainFile(*it)) names.push_back(it->path().filename().string());
  std::sort(names.begin(), names.end());  // the same hint whatever order the folder lists them in
  for (const std::string& name : names)
    if (lower(name) == lower(file))
      return terminalName(name) + " is there: file names are case-sensitive; rename it to " + file;
  // Two edits at most: the four file names of the assignment differ by more than that, so another
  // task's file is never taken for a misspelling of this one.
  for (const std::string& name : names)
    if (lower(fs::path(name).extension().string()) == ".cl" && editDistance(lower(name), lower(file)) <= 2)
      return terminalName(name) + " is there: rename it to " + file;
  if (const std::string copy = copyOfTheFile(names, file); !copy.empty())
    return terminalName(copy) + " is there: rename it to " + file;
  // Folders below: a submission that kept its own layout (alice/kernels/Convolution3x3.cl).
  size_t seen = 0;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end && ++seen <= kMostEntries; it.increment(ec)) {
    if (it.depth() >= kDeepest) it.disable_recursion_pending();
    if (it.depth() == 0 || !plainFile(*it) || lower(it->path().filename().string()) != lower(file)) continue;
    const std::string where = terminalName(it->path().parent_path().lexically_relative(root).string());
    return terminalName(it->path().filename().string()) + " is in the folder " + where +
           " inside it: give clgrade that folder (the one that holds the .cl files)";
  }
  return severalArchives(names);
}

}  // namespace clgrade
