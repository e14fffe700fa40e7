// The kernel files of one submission as the source policy reads them (intake/source_policy.h), each
// read once: the keeper reads the submission's files and hands every runner its task's file inside
// the runner's request (protocol/runner_request.h), so no process re-reads or re-judges the folder
// and what a runner compiles is exactly what the keeper judged and quotes in the report.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "intake/source_policy.h"

namespace clgrade {

class KernelSources {
 public:
  /// The files of `kernelsDir`, each read at its first use.
  explicit KernelSources(std::string kernelsDir);
  /// Files handed over (a runner's, from its request): these are all there is; any other file is
  /// missing, and no folder is read.
  KernelSources(std::string kernelsDir, std::map<std::string, KernelSource> given);

  const std::string& kernelsDir() const { return kernelsDir_; }
  /// `file` as the policy reads it; thread-safe (tasks are kept side by side).
  const KernelSource& file(const std::string& name) const;

 private:
  std::string kernelsDir_;
  bool given_ = false;
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::unique_ptr<KernelSource>> files_;  ///< stable addresses
};

}  // namespace clgrade
