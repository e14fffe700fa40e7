#include "util/side_by_side.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace clgrade {

void forEachSideBySide(size_t n, int jobs, const std::function<void(size_t)>& work) {
  if (jobs <= 1 || n <= 1) {
    for (size_t i = 0; i < n; ++i) work(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::mutex failed;
  std::exception_ptr first;
  auto worker = [&] {
    for (size_t i = next++; i < n; i = next++) {
      try {
        work(i);
      } catch (...) {
        const std::lock_guard<std::mutex> hold(failed);
        if (!first) first = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  try {
    for (size_t t = 0; t < std::min(n, static_cast<size_t>(jobs)); ++t) threads.emplace_back(worker);
  } catch (const std::system_error&) {
    // No thread to spare (a limit on processes): those started share the work, or this thread does it.
    if (threads.empty()) worker();
  }
  for (std::thread& t : threads) t.join();
  if (first) std::rethrow_exception(first);
}

}  // namespace clgrade
