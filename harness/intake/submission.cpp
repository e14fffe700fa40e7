#include "intake/submission.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <vector>

#include "util/archive.h"
#include "util/cache_home.h"
#include "util/files.h"
#include "util/markup.h"
#include "util/sha256.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

bool holdsClFile(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".cl") return true;
  return false;
}

/// The notice of a folder whose kernels/ is graded while .cl files lie beside it too: "histogram.cl,
/// Convolution3x3.cl are beside kernels/ ..." (at most a few named, in name order).
std::string notGradedBesideKernels(const fs::path& dir) {
  constexpr size_t kNamed = 4;
  std::error_code ec;
  std::vector<std::string> names;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".cl") names.push_back(it->path().filename().string());
  std::sort(names.begin(), names.end());
  std::string named;
  for (size_t i = 0; i < names.size() && i < kNamed; ++i) named += (i ? ", " : "") + terminalName(names[i]);
  if (names.size() > kNamed) named += " and " + std::to_string(names.size() - kNamed) + " more";
  return named + (names.size() == 1 ? " is" : " are") +
         " beside the kernels folder and not graded: the .cl files in kernels/ are; keep one set of files";
}

}  // namespace

SubmissionFolder resolveSubmission(const std::string& dirIn) {
  SubmissionFolder s;
  s.kernelsDir = dirIn;
  std::error_code ec;
  const fs::path dir(dirIn);
  const fs::path sub = dir / "kernels";
  if (!fs::is_directory(sub, ec)) return s;
  if (!holdsClFile(sub) && holdsClFile(dir)) return s;
  s.kernelsDir = sub.string();
  // Both hold .cl files: kernels/ is what a student who made one meant, but the other set must not be
  // ignored without a word (found by an intake corpus: a fixed file left beside kernels/ went unseen).
  if (holdsClFile(dir)) s.notices.push_back(notGradedBesideKernels(dir));
  if (fs::is_symlink(fs::symlink_status(sub, ec))) {
    const fs::path root = fs::canonical(dir, ec);
    const fs::path target = fs::canonical(sub, ec);
    if (ec || !pathWithin(target, root))
      s.problem = "kernels/ is a symbolic link to " + fs::read_symlink(sub, ec).string() +
                  ", outside the submission folder; submit the files themselves";
  }
  return s;
}

std::string loneArchive(const std::string& dirIn) {
  const fs::path dir(dirIn);
  std::error_code ec;
  if (holdsClFile(dir) || holdsClFile(dir / "kernels")) return "";
  std::string found;
  int archives = 0;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code e2;
    if (!fs::is_regular_file(fs::symlink_status(it->path(), e2)) || !looksLikeArchive(name)) continue;
    ++archives;
    found = it->path().string();
  }
  return archives == 1 ? found : "";
}

std::string submissionName(const std::string& dir) {
  fs::path p = fs::path(dir).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();  // "alice/" names alice
  if (p.filename() == "kernels" && p.has_parent_path()) p = p.parent_path();
  return p.filename().string();
}

std::string submissionContentSha256(const std::string& kernelsDir) {
  std::error_code fileEc;
  if (fs::is_regular_file(kernelsDir, fileEc)) {  // an archive: its bytes
    std::string bytes;
    return sha256Hex("archive " + (readFile(kernelsDir, &bytes, nullptr, size_t(1) << 30) ? sha256Hex(bytes) : "(unread)"));
  }
  // The files below it, in name order, each name with its bytes' hash (a kernels folder is small:
  // the policy refuses sources over its limit; at most 64 MiB are read here).
  std::error_code ec;
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(kernelsDir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec) && !it->is_symlink(ec)) files.push_back(it->path());
  std::sort(files.begin(), files.end());
  std::string listing;
  size_t budget = size_t(64) << 20;
  for (const fs::path& f : files) {
    std::string bytes;
    if (budget == 0 || !readFile(f.string(), &bytes, nullptr, budget)) bytes = "(unread)";
    budget -= std::min(budget, bytes.size());
    listing += f.lexically_relative(kernelsDir).string() + " " + sha256Hex(bytes) + "\n";
  }
  return sha256Hex(listing);
}

std::string submissionCacheDir(const std::string& kernelsDir, const std::string& role) {
  std::error_code ec;
  const std::string identity =
      fs::absolute(kernelsDir, ec).lexically_normal().string() + "\n" + submissionContentSha256(kernelsDir);
  std::string named;  // a task id or a fixed word; anything else in it is not a file name's
  for (char c : role) named += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  return cacheHome() + "/clgrade/pocl/" + sha256Hex(identity).substr(0, 24) + (named.empty() ? "" : "-" + named);
}

void removeSubmissionCaches(const std::string& stem) {
  if (stem.empty()) return;
  std::error_code ec;
  const fs::path dir = fs::path(stem).parent_path();
  const std::string name = fs::path(stem).filename().string();
  std::vector<fs::path> gone;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string entry = it->path().filename().string();
    if (entry == name || entry == name + ".lock" || entry.rfind(name + "-", 0) == 0) gone.push_back(it->path());
  }
  for (const fs::path& p : gone) fs::remove_all(p, ec);
}

}  // namespace clgrade
