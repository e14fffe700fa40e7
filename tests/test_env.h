// Where the tests find the repository and which OpenCL device they use. Both can be overridden
// from the environment, so the same test binaries run on another machine (the GPU one):
//   CLGRADE_SOURCE_DIR   the repository root (default: where it was built)
//   CLGRADE_SAMPLES_DIR  the sample submissions as full folders (default: the build tree's, made from
//                        submissions/ by cmake/samples.cmake)
//   CLGRADE_TEST_DEVICE  a --device string (default "cpu": PoCL, as CI has it)
//   CLGRADE_TEST_SEED    the hidden seed of in-process grades (default: the golden one, kGoldenHiddenSeed),
//                        to check that the samples' verdicts hold for other hidden inputs
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace clgrade::test {

inline std::string sourceDir() {
  const char* env = std::getenv("CLGRADE_SOURCE_DIR");
  return env && *env ? env : CLGRADE_SOURCE_DIR;
}

inline std::string samplesDir() {
  const char* env = std::getenv("CLGRADE_SAMPLES_DIR");
  return env && *env ? env : CLGRADE_SAMPLES_DIR;
}

inline std::string deviceSpec() {
  const char* env = std::getenv("CLGRADE_TEST_DEVICE");
  return env && *env ? env : "cpu";
}

/// The hidden seed the end-to-end grades use; empty when CLGRADE_TEST_SEED is unset (the caller's default).
inline std::optional<unsigned long long> hiddenSeed() {
  const char* env = std::getenv("CLGRADE_TEST_SEED");
  if (!env || !*env) return std::nullopt;
  return std::strtoull(env, nullptr, 10);
}

}  // namespace clgrade::test
