// The golden manifest: sizes and SHA-256 of every generated input and of the CPU reference
// output of every case of the shipped rubrics, so a person (and a test) can trust them.
#pragma once

#include <string>
#include <vector>

namespace clgrade {

/// Text of the manifest for the cases of these rubric files (one line per input or output:
/// kind, name, size, sha256). Deterministic: the same on every machine.
/// With `exportDir`, also writes every input there as PFM and as a PNG preview for people.
bool goldenManifest(const std::vector<std::string>& rubricPaths, std::string* manifest, std::string* err,
                    const std::string& exportDir = "");

}  // namespace clgrade
