// A submission given to `grade` or `check` as an archive: unpacked by `clgrade unpack` (util/archive.h)
// inside a sandbox of its own, under limits, into a scratch folder that is then graded like any
// kernels folder (the same source policy) and removed afterwards.
#pragma once

#include <string>
#include <vector>

namespace clgrade {

struct UnpackedSubmission {
  std::string folder;                ///< what to grade (empty when the archive could not be unpacked)
  std::string error;                 ///< why not
  std::vector<std::string> leftOut;  ///< entries not unpacked, with why ("x -> /etc: not a regular file ...")
  std::string scratch;               ///< the folder to remove when the grade is done (see ~UnpackedSubmission)

  UnpackedSubmission() = default;
  UnpackedSubmission(const UnpackedSubmission&) = delete;
  UnpackedSubmission& operator=(const UnpackedSubmission&) = delete;
  UnpackedSubmission(UnpackedSubmission&&) = default;
  ~UnpackedSubmission();
};

/// Unpacks `archive` with `clgrade` (this executable) in a sandbox, or in a plain child process when
/// `sandboxed` is false (--no-sandbox).
UnpackedSubmission unpackSubmission(const std::string& archive, const std::string& clgrade, bool sandboxed);

}  // namespace clgrade
