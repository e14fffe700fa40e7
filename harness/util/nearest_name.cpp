#include "util/nearest_name.h"

#include <algorithm>

namespace clgrade {

size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string nearestName(const std::string& word, const std::vector<std::string>& names) {
  std::string best;
  size_t bestDistance = std::string::npos;
  for (const std::string& name : names) {
    // A prefix ("conv3" of "conv3x3") is what a person types half-remembering a name.
    const size_t d = name.rfind(word, 0) == 0 && !word.empty() ? 1 : editDistance(word, name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  // Near enough to be a typo: two edits, or a third of a long name.
  return bestDistance <= std::max<size_t>(2, word.size() / 3) ? best : "";
}

}  // namespace clgrade
