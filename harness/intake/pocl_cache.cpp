#include "intake/pocl_cache.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <vector>

#include "util/cache_home.h"
#include "util/files.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

struct Cache {
  fs::path folder;
  fs::file_time_type used;
  uint64_t bytes = 0;
};

/// Removes `c` if no sandbox holds it: its lock taken (not waited for), the folder removed, then the
/// lock file. A sandbox that opens the lock file meanwhile takes a fresh one and makes the cache anew.
bool removeUnused(const Cache& c) {
  const std::string lockPath = c.folder.string() + ".lock";
  const int lock = open(lockPath.c_str(), O_RDWR | O_CLOEXEC);
  if (lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) != 0) {
    close(lock);
    return false;  // in use
  }
  std::error_code ec;
  fs::remove_all(c.folder, ec);
  const bool gone = !fs::exists(c.folder, ec);
  if (gone) unlink(lockPath.c_str());
  if (lock >= 0) close(lock);
  return gone;
}

}  // namespace

CacheEviction evictSubmissionCaches(const std::string& root, double maxAgeDays, uint64_t maxBytes) {
  CacheEviction result;
  std::vector<Cache> caches;
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e2;
    if (!fs::is_directory(fs::symlink_status(it->path(), e2))) continue;
    Cache c;
    c.folder = it->path();
    const fs::path lock = c.folder.string() + ".lock";
    c.used = fs::exists(lock, e2) ? fs::last_write_time(lock, e2) : fs::last_write_time(c.folder, e2);
    c.bytes = diskUsageBytes(c.folder.string());
    caches.push_back(c);
  }
  const auto now = fs::file_time_type::clock::now();
  const auto maxAge = std::chrono::duration_cast<fs::file_time_type::duration>(
      std::chrono::duration<double>(maxAgeDays * 86400.0));
  std::sort(caches.begin(), caches.end(), [](const Cache& a, const Cache& b) { return a.used < b.used; });
  uint64_t total = 0;
  for (const Cache& c : caches) total += c.bytes;
  for (const Cache& c : caches) {
    const bool old = now - c.used > maxAge;
    if (!old && total <= maxBytes) break;  // the oldest first: the rest are younger and fit
    if (!removeUnused(c)) continue;
    ++result.removed;
    result.freedBytes += c.bytes;
    total -= c.bytes;
  }
  result.keptBytes = total;
  return result;
}

CacheEviction evictSubmissionCachesDaily() {
  const std::string root = cacheHome() + "/clgrade/pocl";
  const fs::path stamp = fs::path(root) / ".evicted";
  std::error_code ec;
  if (fs::exists(stamp, ec) &&
      fs::file_time_type::clock::now() - fs::last_write_time(stamp, ec) < std::chrono::hours(24))
    return {};
  if (!fs::is_directory(root, ec)) return {};
  // The stamp first: two grades starting together do not both walk the folder.
  std::string ignored;
  writeFileAtomically(stamp.string(), "", &ignored, false);
  return evictSubmissionCaches(root, 14, uint64_t(2) << 30);
}

}  // namespace clgrade
