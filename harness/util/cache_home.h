// Where clgrade keeps what it makes once and uses again (PoCL's compiler caches, the course's inputs).
#pragma once

#include <string>

namespace clgrade {

/// The folder under which clgrade keeps its caches: /var/cache as root (root's home is not searchable
/// by a sandbox's uid, which must read some of them), else $XDG_CACHE_HOME, else ~/.cache (/tmp/.cache
/// with no HOME). clgrade's own folder is `clgrade` below it.
std::string cacheHome();

/// Who made the running program: its GNU build id (a hash the linker writes into the executable, the
/// same for the same build, kept by `strip`), else the SHA-256 of the executable's bytes; hex.
/// Whatever this program generates or computes can be kept under it: another build gets its own.
std::string buildId();

}  // namespace clgrade
