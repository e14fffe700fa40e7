#include "intake/archive_submission.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "intake/submission.h"
#include "sandbox/sandbox.h"
#include "util/archive.h"
#include "util/files.h"
#include "util/subprocess.h"

namespace clgrade {

namespace fs = std::filesystem;

UnpackedSubmission::~UnpackedSubmission() {
  std::error_code ec;
  if (!scratch.empty()) fs::remove_all(scratch, ec);
  removeSubmissionCaches(cache);
}

namespace {

/// See unpackSubmission: what the child left, made the keeper's and readable by every sandbox.
bool settle(const fs::path& box, const fs::path& dest, std::string* err) {
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(dest, ec))) {
    *err = "the unpacking left no folder";
    return false;
  }
  const uid_t uid = geteuid();
  const gid_t gid = getegid();
  auto own = [&](const fs::path& p, mode_t mode) {
    return lchown(p.c_str(), uid, gid) == 0 && chmod(p.c_str(), mode) == 0;
  };
  if (!own(box, 0711) || !own(dest, 0755)) {
    *err = std::string("the unpacked folder cannot be taken over: ") + std::strerror(errno);
    return false;
  }
  std::vector<fs::path> strays;
  for (auto it = fs::recursive_directory_iterator(dest, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const fs::file_status st = fs::symlink_status(it->path(), ec);
    const bool folder = fs::is_directory(st), file = fs::is_regular_file(st);
    if ((!folder && !file) || !own(it->path(), folder ? 0755 : 0644)) strays.push_back(it->path());
    if (!folder && !file) it.disable_recursion_pending();
  }
  if (ec) {
    *err = "the unpacked folder cannot be read: " + ec.message();
    return false;
  }
  for (const fs::path& p : strays) fs::remove_all(p, ec);
  return true;
}

}  // namespace

namespace {

/// More entries left out than any archive within the limits has (UnpackLimits::headers).
constexpr int kMostLeftOut = 1 << 24;

/// The count of a "left out more: N" line. The child read a student's bytes: what it says is held
/// between 0 and kMostLeftOut, so no sum of two overflows.
int listedCount(const std::string& text) {
  return int(std::clamp(std::strtoll(text.c_str(), nullptr, 10), 0LL, static_cast<long long>(kMostLeftOut)));
}

/// One run of `clgrade unpack` on `archive` into <keeper>/<box>/unpacked, in a sandbox of its own
/// (a plain child when not `sandboxed`), its tree then settled; that folder, or "" with u->error. Its
/// left-out entries are added to u's, each after `prefix` (the inner archive's name, for a nested one).
std::string unpackInto(const std::string& archive, const fs::path& keeper, const std::string& box,
                       const std::string& clgrade, bool sandboxed, const std::string& prefix, UnpackedSubmission* u) {
  const std::string scratch = (keeper / box).string(), dest = scratch + "/unpacked",
                    listing = (keeper / (box + ".listing")).string();
  // `dest` is made by the child, as the sandbox's uid that owns the scratch folder.
  std::error_code ec;
  const std::string whole = fs::absolute(archive, ec).lexically_normal().string();
  ProcessSpec spec;
  spec.argv = {clgrade, "unpack", whole, dest};
  spec.timeoutSeconds = 60;
  spec.memoryLimitBytes = uint64_t(1) << 30;
  spec.limits.fileSizeBytes = UnpackLimits{}.fileBytes + 1;
  spec.limits.noCoreDumps = true;
  spec.stdoutPath = listing;
  spec.stderrPath = listing + ".err";
  spec.outputLimitBytes = size_t(256) << 10;
  if (sandboxed) {
    SandboxSpec sandbox;
    sandbox.scratch = scratch;
    sandbox.mounts = {{clgrade, false}, {whole, false}};
    sandbox.maxTreeProcesses = 4;
    std::string err;
    if (!sandboxProcess(sandbox, &spec, &err)) {
      u->archiveAtFault = false;
      u->error = "no sandbox to unpack it in: " + err;
      return "";
    }
  }
  const ProcessResult p = runProcess(spec);
  u->archiveAtFault = true;  // from here on, what went wrong is the archive's doing
  std::string out, errors;
  readUntrustedFile(listing, size_t(256) << 10, &out);
  readUntrustedFile(listing + ".err", size_t(16) << 10, &errors);
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("left out: ", 0) == 0) u->leftOut.push_back(prefix + line.substr(10));
    if (line.rfind("left out more: ", 0) == 0)
      u->moreLeftOut = std::min(u->moreLeftOut + listedCount(line.substr(15)), kMostLeftOut);
  }
  if (!p.ok()) {
    while (!errors.empty() && (errors.back() == '\n' || errors.back() == '\r')) errors.pop_back();
    const std::string clgradeSays = "clgrade unpack: ";
    if (errors.rfind(clgradeSays, 0) == 0) errors.erase(0, clgradeSays.size());
    u->error = prefix + (errors.empty() ? "unpacking it " + p.describe() : errors);
    return "";
  }
  std::string err;
  if (!settle(keeper / box, dest, &err)) {
    u->error = prefix + err;
    return "";
  }
  return dest;
}

}  // namespace

UnpackedSubmission unpackSubmission(const std::string& archive, const std::string& clgrade, bool sandboxed) {
  UnpackedSubmission u;
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / "clgrade-unpack-XXXXXX").string();
  if (!mkdtemp(pattern.data())) {
    u.error = "no scratch folder to unpack it into";
    return u;
  }
  // The keeper's own folder holds the children's listings; each sandbox gets a scratch folder below it.
  const fs::path keeper = pattern;
  u.scratch = keeper.string();
  // Searchable (not readable) by the sandbox's uid, which resolves its scratch folder's path below it.
  fs::permissions(keeper, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec, ec);
  const std::string dest = unpackInto(archive, keeper, "box", clgrade, sandboxed, "", &u);
  if (dest.empty()) return u;
  std::string root = unpackedRoot(dest);
  // A zip in a zip: found by an intake corpus, an LMS's download of a student's lab3.zip holding
  // kernels.zip said only "kernel file missing". One level: an archive inside that one is graded as
  // found (missing files), and no chain of archives multiplies the limits.
  if (const std::string inner = loneArchive(root); !inner.empty()) {
    const std::string named = fs::path(inner).filename().string() + ": ";
    const std::string innerDest = unpackInto(inner, keeper, "inner", clgrade, sandboxed, named, &u);
    if (innerDest.empty()) return u;
    root = unpackedRoot(innerDest);
  }
  u.folder = root;
  u.cache = submissionCacheDir(u.folder);
  return u;
}

std::vector<std::string> leftOutLines(const UnpackedSubmission& unpacked, size_t most) {
  const size_t listed = std::min(most, unpacked.leftOut.size());
  std::vector<std::string> lines(unpacked.leftOut.begin(), unpacked.leftOut.begin() + long(listed));
  const size_t more = unpacked.leftOut.size() - listed + size_t(std::max(0, unpacked.moreLeftOut));
  if (more > 0) lines.push_back("and " + std::to_string(more) + " more entries");
  return lines;
}

std::vector<std::string> leftOutNotices(const UnpackedSubmission& unpacked, const std::string& archiveName) {
  // A report is read, not searched: the first entries (kernel files first, see `clgrade unpack`) and
  // a count; the whole listing went to the terminal.
  constexpr size_t kMostInReport = 20;
  const size_t listed = std::min(kMostInReport, unpacked.leftOut.size());
  std::vector<std::string> notices;
  for (size_t i = 0; i < listed; ++i) notices.push_back(archiveName + ": left out " + unpacked.leftOut[i]);
  const size_t more = unpacked.leftOut.size() - listed + size_t(std::max(0, unpacked.moreLeftOut));
  if (more > 0) notices.push_back(archiveName + ": and " + std::to_string(more) + " more entries left out");
  return notices;
}

}  // namespace clgrade
