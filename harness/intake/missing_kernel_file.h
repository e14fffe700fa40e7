// When a kernel file is not where it must be, what a student most often did instead: named it with
// another case or a typo, kept a copy under another name, left it in a folder below the one given
// to clgrade, or handed in two archives.
#pragma once

#include <filesystem>
#include <string>

namespace clgrade {

/// A sentence for the missing `file` of the kernels folder `root`: "convolution3x3.cl is there:
/// file names are case-sensitive; rename it to Convolution3x3.cl", "histogram (1).cl is there:
/// rename it to histogram.cl", "... is in alice/kernels: give clgrade that folder", "the folder
/// holds 2 archives (...): ... keep the one to grade"; "" when nothing like it is found. Looks at
/// most 4 folders deep and at 10000 entries, follows no symbolic link, and names what it found as
/// terminal-safe text on one line.
std::string missingKernelFileHint(const std::filesystem::path& root, const std::string& file);

}  // namespace clgrade
