// The generators' rows on several threads (generator_internal.h): a 4096 x 4096 input took seconds
// on one core, in every task process that uses it.
#include <algorithm>
#include <system_error>
#include <thread>
#include <vector>

#include "image/generator_internal.h"

namespace clgrade::gen {

void parallelRows(int height, const std::function<void(int y0, int y1)>& rows) {
  if (height <= 0) return;
  const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  // Bands of at least 64 rows: small images are not worth a thread.
  const int bands = std::max(1, std::min({cores, 16, height / 64}));
  std::vector<std::thread> threads;
  std::vector<int> inline_;
  for (int b = 1; b < bands; ++b) {
    const int y0 = int(int64_t(height) * b / bands), y1 = int(int64_t(height) * (b + 1) / bands);
    try {
      threads.emplace_back(rows, y0, y1);
    } catch (const std::system_error&) {
      inline_.push_back(b);
    }
  }
  rows(0, int(int64_t(height) / bands));
  for (std::thread& t : threads) t.join();
  for (int b : inline_) rows(int(int64_t(height) * b / bands), int(int64_t(height) * (b + 1) / bands));
}

}  // namespace clgrade::gen
