// Test binaries that grade in-process live in build/tests/..., not in clgrade's tools folder: point
// util/install_layout.h at the build folder, where clgrade, its Oclgrind plugin and share/clgrade are
// (the environment's CLGRADE_TOOLS_DIR, e.g. on another machine, wins). Linked into every test binary.
#include <cstdlib>

namespace {
const bool kToolsFolderSet = (setenv("CLGRADE_TOOLS_DIR", CLGRADE_BINARY_DIR, 0), true);
}  // namespace
