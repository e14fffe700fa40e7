// Where the tests find the repository and which OpenCL device they use. Both can be overridden
// from the environment, so the same test binaries run on another machine (the GPU one):
//   CLGRADE_SOURCE_DIR   the repository root (default: where it was built)
//   CLGRADE_TEST_DEVICE  a --device string (default "cpu": PoCL, as CI has it)
#pragma once

#include <cstdlib>
#include <string>

namespace clgrade::test {

inline std::string sourceDir() {
  const char* env = std::getenv("CLGRADE_SOURCE_DIR");
  return env && *env ? env : CLGRADE_SOURCE_DIR;
}

inline std::string deviceSpec() {
  const char* env = std::getenv("CLGRADE_TEST_DEVICE");
  return env && *env ? env : "cpu";
}

}  // namespace clgrade::test
