// What a kernel source may be before it reaches a compiler: a regular file inside the submission's
// kernels folder, at most kMaxSourceBytes, whose #include directives name only files of that same
// folder. clgrade expands those includes itself, so the OpenCL compiler never opens a file: an
// include cannot read the grading machine's files, another student's work or the rubric's hidden
// cases, whatever the device's compiler would search.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace clgrade {

/// The largest source accepted: the file itself, and the text after its includes are expanded.
constexpr size_t kMaxSourceBytes = size_t(1) << 20;
/// How deeply includes may nest.
constexpr int kMaxIncludeDepth = 16;

struct KernelSource {
  bool present = false;                     ///< a file of that name was read from the folder
  bool exists = false;                      ///< something of that name is in the folder (a link, a pipe, a folder too)
  std::string fileBytes;                    ///< the file as submitted (its SHA-256 goes into the report)
  std::string text;                         ///< what the compiler gets: fileBytes with its includes expanded
  std::vector<std::string> included;        ///< files expanded into `text`, relative to the kernels folder
  std::vector<std::string> includedSha256;  ///< the SHA-256 of each, as it was read
  std::string problem;                      ///< why the task cannot use it (missing, refused); empty when usable
};

/// Reads `file` of `kernelsDir` under the policy above. Never throws.
///  - a missing file, a directory or another non-regular file, a symbolic link that resolves outside
///    the kernels folder, a file over `limitBytes`, NUL bytes: refused with a message;
///  - `#include "name"` (also #include_next and #import) is expanded when `name` is a relative path
///    without `..` to a regular file inside the kernels folder (symbolic links resolved), with
///    `#line` directives so the compiler's line numbers stay those of each file; `<...>`, absolute
///    paths, `..`, computed includes (a macro), missing files, cycles and nesting deeper than
///    kMaxIncludeDepth are refused with a message naming the file, the line and the directive.
KernelSource loadKernelSource(const std::string& kernelsDir, const std::string& file,
                              size_t limitBytes = kMaxSourceBytes);

/// Reasons a source text with no folder around it is refused before it reaches a compiler (any
/// #include directive, NUL bytes). Empty when the source is acceptable.
std::string refuseSource(const std::string& source);

}  // namespace clgrade
