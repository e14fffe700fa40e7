// The kernel files a batch compared, kept in each submission's result folder as
// <out>/<submission>/sources/<file>: the class's similarity (similarity/measure.h) reads them there,
// after the grade, in a merge of shards and for an instructor, without the class's submissions
// folder. Only the rubric's task file names ever name a file here, never a name read from inside a
// submission.
#pragma once

#include <string>
#include <vector>

namespace clgrade {

/// The folder of a submission's result folder that holds its kept sources.
constexpr const char* kSourcesFolder = "sources";

/// A task's file name that may name a file in sources/: a plain name of letters, digits, '_', '-'
/// and '.', not starting with '.', at most 255 bytes (the rubric's are; anything else is refused).
bool isKeptSourceName(const std::string& file);

/// Writes each of `files` as the source policy reads it from `kernelsDir` (intake/source_policy.h:
/// the file's own bytes, at most 1 MiB, includes not expanded) into `reportDir`/sources/<file>.
/// Files the policy does not read (missing, a link out, too large) are left out. False with a
/// message when one could not be written.
bool keepSources(const std::string& kernelsDir, const std::vector<std::string>& files, const std::string& reportDir,
                 std::string* err);

/// Reads `reportDir`/sources/<file>: a regular file (never through a link), at most `limitBytes`.
/// False when there is none (or it is refused).
bool readKeptSource(const std::string& reportDir, const std::string& file, std::string* text,
                    size_t limitBytes = size_t(1) << 20);

}  // namespace clgrade
