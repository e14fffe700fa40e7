// The submissions' PoCL compiler caches (intake/submission.h, submissionCacheDir) do not pile up over a
// semester: each is kept for a resubmission of the same files, and only a while. Measured on the CI
// machine after a few weeks of grading: 4639 caches, 2.1 GB, none ever removed.
#pragma once

#include <cstdint>
#include <string>

namespace clgrade {

struct CacheEviction {
  int removed = 0;
  uint64_t freedBytes = 0;
  uint64_t keptBytes = 0;
};

/// Under `root` (<cache home>/clgrade/pocl): removes each submission's cache last used more than
/// `maxAgeDays` ago (its lock file's time: the sandbox touches it when it takes the cache), then the
/// least recently used until the rest take at most `maxBytes`. A cache in use (its lock held by a
/// sandbox) is never removed. Its lock file goes with it.
CacheEviction evictSubmissionCaches(const std::string& root, double maxAgeDays, uint64_t maxBytes);

/// evictSubmissionCaches on the submissions' cache folder with clgrade's limits (14 days, 2 GiB), at
/// most once a day (a stamp file in it); what grade, check and batch call as they start.
CacheEviction evictSubmissionCachesDaily();

}  // namespace clgrade
