// The name a person most likely meant: for typos in subcommands and task ids, and for kernel files
// named almost right.
#pragma once

#include <string>
#include <vector>

namespace clgrade {

/// Levenshtein distance (insertions, deletions, substitutions; bytes).
size_t editDistance(const std::string& a, const std::string& b);

/// The name of `names` nearest to `word`, when near enough to be a typo (two edits, or a third of a
/// long word) or `word` is its prefix; "" when none is.
std::string nearestName(const std::string& word, const std::vector<std::string>& names);

}  // namespace clgrade
