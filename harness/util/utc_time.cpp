#include "util/utc_time.h"

#include <ctime>

namespace clgrade {

std::string nowUtc() {
  const std::time_t t = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buffer;
}

}  // namespace clgrade
