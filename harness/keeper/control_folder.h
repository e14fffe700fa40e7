// The keeper's own folder in a report folder (`.clgrade`: requests, the runners' stderr, staged
// evidence) and the runners' scratch folders. A sandbox's uid must reach its scratch folder: where
// it cannot reach the report folder (a report folder under a home others cannot enter), the scratch
// folders are made under the system's temporary folder instead, and removed at the end.
#pragma once

#include <mutex>
#include <string>
#include <vector>

namespace clgrade {

/// An absolute, normal form of `path` (the sandbox starts in its scratch folder).
std::string absolutePath(const std::string& path);

/// A new folder `<stem>-XXXXXX` under the system's temporary folder (TMPDIR) that a sandbox's uid
/// can pass through but not list (mode 0711), for what the sandboxes use when the report folder is
/// out of their reach (a results folder below a private one); "" when none can be made.
std::string makeReachableTempFolder(const std::string& stem);

class ControlFolder {
 public:
  /// Makes `outDir` and an empty `outDir`/.clgrade.
  ControlFolder(const std::string& outDir, bool sandboxed);
  const std::string& path() const { return control_; }
  /// The scratch folder of a task's runner (`name`: the task id, or "hardware"). Thread-safe.
  std::string scratchFor(const std::string& name);
  /// The timing lock of a grade whose tasks run side by side and that was given none: its runners'
  /// timings and profiler sessions take turns on it.
  std::string ownTimingLock();
  /// Removes the scratch folders made outside the report folder, then the control folder.
  void removeAll();

 private:
  std::string reachableFolder();
  std::string control_;
  bool sandboxed_;
  std::mutex mutex_;
  std::vector<std::string> made_;  ///< folders outside the report folder
};

}  // namespace clgrade
