// A submission folder as instructors receive it: the .cl files directly, or in a kernels/ subfolder.
#pragma once

#include <string>
#include <vector>

namespace clgrade {

struct SubmissionFolder {
  std::string kernelsDir;  ///< where the .cl files are
  /// Why no task can be graded from it (kernels/ is a link to a folder outside the submission);
  /// empty when fine. Such a submission is still reported, every task refused with this message.
  std::string problem;
  /// What the student should know that refuses nothing (one set of .cl files graded, another beside
  /// it not): each reaches the report's notices (GradeReport::notices) and the terminal.
  std::vector<std::string> notices;
};

/// `dir`/kernels when that is a folder holding a .cl file (or `dir` holds none), else `dir`.
SubmissionFolder resolveSubmission(const std::string& dir);

/// The one archive a submission folder holds instead of kernel files: an LMS's "download all
/// submissions" gives a folder per student with what they uploaded (Moodle's
/// "Ada Lovelace_1234567_assignsubmission_file_/kernels.zip"). `dir`'s path to it when neither `dir`
/// nor its kernels/ folder holds a .cl file and `dir` holds exactly one regular file (links not
/// followed) that looks like an archive (util/archive.h), hidden files aside; "" otherwise.
std::string loneArchive(const std::string& dir);

/// The submission's name for default report folders: the folder's own name, or its parent's when
/// `dir` is a kernels/ folder ("submissions/alice/kernels" and "submissions/alice" are both "alice").
std::string submissionName(const std::string& dir);

/// What a grade of the folder reads, as one hash: the names (relative to it) and bytes of every file
/// below it, links not followed (of an archive file: its bytes). The same for the same files wherever
/// the folder lies; a batch keys a
/// submission's result on it, so a resubmission is graded again.
std::string submissionContentSha256(const std::string& kernelsDir);

/// The PoCL compiler cache of one submission folder as it is now, kept across its grades:
/// <cache home>/clgrade/pocl/<hash of the folder's absolute path and of its files' names and bytes>. A
/// kernel (native code on PoCL) can write into its cache; keyed by content, what it leaves there reaches
/// only a grade of the very same files, never another submission later graded at that path.
/// `role` ("conv3x3", "hardware": one name per kind of sandbox a grade starts at once) gives each
/// concurrent sandbox of a grade a cache of its own, <hash>-<role>: a cache is held by one sandbox at
/// a time (its uid), so with one cache for the submission only the first of a grade's runners kept
/// its builds and the others compiled everything again at every grade (NVIDIA's OpenCL compiler,
/// 0.1-0.25 s a build, caches them in CUDA_CACHE_PATH, below it).
std::string submissionCacheDir(const std::string& kernelsDir, const std::string& role = "");

/// Removes every cache of submissionCacheDir(kernelsDir) (each role's) and their lock files: for a
/// folder that goes away (an unpacked archive). `stem` is submissionCacheDir(kernelsDir).
void removeSubmissionCaches(const std::string& stem);

}  // namespace clgrade
