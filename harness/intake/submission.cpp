#include "intake/submission.h"

#include <filesystem>

#include "util/cache_home.h"
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

bool inside(const fs::path& root, const fs::path& p) {
  auto r = root.begin(), q = p.begin();
  for (; r != root.end(); ++r, ++q)
    if (q == p.end() || *r != *q) return false;
  return true;
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
  if (fs::is_symlink(fs::symlink_status(sub, ec))) {
    const fs::path root = fs::canonical(dir, ec);
    const fs::path target = fs::canonical(sub, ec);
    if (ec || !inside(root, target))
      s.problem = "kernels/ is a symbolic link to " + fs::read_symlink(sub, ec).string() +
                  ", outside the submission folder; submit the files themselves";
  }
  return s;
}

std::string submissionName(const std::string& dir) {
  fs::path p = fs::path(dir).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();  // "alice/" names alice
  if (p.filename() == "kernels" && p.has_parent_path()) p = p.parent_path();
  return p.filename().string();
}

std::string submissionCacheDir(const std::string& kernelsDir) {
  std::error_code ec;
  const std::string key = sha256Hex(fs::absolute(kernelsDir, ec).lexically_normal().string()).substr(0, 24);
  return cacheHome() + "/clgrade/pocl/" + key;
}

}  // namespace clgrade
