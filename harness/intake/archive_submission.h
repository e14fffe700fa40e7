// A submission given to `grade` or `check` as an archive: unpacked by `clgrade unpack` (util/archive.h)
// inside a sandbox of its own, under limits, into a scratch folder that is then graded like any
// kernels folder (the same source policy) and removed afterwards. What it left out reaches the report
// as notices (GradeReport::notices).
#pragma once

#include <string>
#include <vector>

namespace clgrade {

struct UnpackedSubmission {
  std::string folder;  ///< what to grade (empty when the archive could not be unpacked)
  std::string error;   ///< why not
  /// The archive itself is at fault (damaged, a bomb, not an archive): the student's submission fails
  /// with `error`. False: clgrade could not unpack anything (no sandbox, no scratch folder).
  bool archiveAtFault = false;
  std::vector<std::string> leftOut;  ///< entries not unpacked, with why ("x -> /etc: not a regular file ...")
  int moreLeftOut = 0;               ///< and how many more, not listed
  std::string scratch;               ///< the folder to remove when the grade is done (see ~UnpackedSubmission)
  std::string cache;                 ///< the compiler caches its grade made (keyed on a folder that goes; every role's)

  UnpackedSubmission() = default;
  UnpackedSubmission(const UnpackedSubmission&) = delete;
  UnpackedSubmission& operator=(const UnpackedSubmission&) = delete;
  UnpackedSubmission(UnpackedSubmission&&) = default;
  ~UnpackedSubmission();
};

/// Unpacks `archive` with `clgrade` (this executable) in a sandbox, or in a plain child process when
/// `sandboxed` is false (--no-sandbox). The tree the child left is then settled by this process: the
/// unpacked folder must be a folder; inside it only folders and regular files stay (anything else is
/// removed), owned by this process, folders 0755 and files 0644: every task's sandbox reads it where
/// it is (no staged copy), none can change it.
/// An archive that holds only another archive (a zip in a zip, as an LMS's download of a zip a
/// student uploaded gives): when the unpacked folder has no .cl file at its top nor in its kernels/
/// and holds exactly one archive (intake/submission.h's loneArchive), that one is unpacked too, in
/// the same way, one level only, and graded instead.
UnpackedSubmission unpackSubmission(const std::string& archive, const std::string& clgrade, bool sandboxed);

/// The entries left out of the archive, `most` at most, then "and N more entries" for the rest.
std::vector<std::string> leftOutLines(const UnpackedSubmission& unpacked, size_t most);

/// The notices a report gets for an unpacked archive named `archiveName`: "<archiveName>: left out
/// <entry>: <why>", at most 20 of them, then how many more (the listing on the terminal says more).
std::vector<std::string> leftOutNotices(const UnpackedSubmission& unpacked, const std::string& archiveName);

}  // namespace clgrade
