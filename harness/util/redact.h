// Text shown to students must not name the grading machine's folders (its home, its compiler cache,
// its scratch folders): compilers put absolute paths into their diagnostics.
#pragma once

#include <string>

namespace clgrade {

/// `text` with every absolute path that names a file or a folder below the root's first level
/// ("/root/.cache/pocl/kcache/ab/program.cl", "/tmp/x.cl") replaced by its last component
/// ("program.cl"): a compiler message keeps the file and line it points at, not where it lay. A
/// path counts as absolute when its '/' starts the text or follows a space, a quote, '(', '<', '=',
/// ',' or ':', and it has at least three components or two with a '.' in the last: so the source
/// lines clang quotes (`a / b`, `in[i]/w`) are left alone. Relative names (the student's own files,
/// "common/tile.h") are never touched.
std::string redactPaths(const std::string& text);

}  // namespace clgrade
