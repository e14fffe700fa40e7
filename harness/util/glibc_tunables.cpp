#include "util/glibc_tunables.h"

#include <algorithm>
#include <cstdlib>

namespace clgrade {

std::string hugePagesTunable() {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  const std::string all = tunables ? tunables : "", name = "glibc.malloc.hugetlb=";
  std::string found;
  for (size_t from = 0; from <= all.size();) {  // entries separated by colons
    const size_t to = std::min(all.find(':', from), all.size());
    if (all.compare(from, name.size(), name) == 0) found = all.substr(from, to - from);
    from = to + 1;
  }
  return found;
}

}  // namespace clgrade
