#include "util/byte_size.h"

#include <cstdio>

namespace clgrade {

std::string mib(uintmax_t bytes) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f MiB", double(bytes) / (1 << 20));
  return buffer;
}

}  // namespace clgrade
