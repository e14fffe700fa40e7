// --gradescope-results FILE and --prairielearn-results FILE of grade and check: the platform's
// results file where the platform reads it (/autograder/results/results.json, /grade/results/
// results.json). After a grade it is the report folder's copy; when clgrade could not grade at all
// (an exit other than 0 and 1, or an internal error) it is the platform's "could not grade" form
// (report/platform_failure.h) with what clgrade said on stderr, never no file.
#pragma once

#include <functional>
#include <string>

namespace clgrade::cli {

struct PlatformResultPaths {
  std::string gradescope;
  std::string prairieLearn;
  bool any() const { return !gradescope.empty() || !prairieLearn.empty(); }
};

/// Runs `grade` (which returns its exit code and sets the report folder) and writes the files.
int withPlatformResults(const PlatformResultPaths& paths, const std::function<int(std::string* reportDir)>& grade);

}  // namespace clgrade::cli
