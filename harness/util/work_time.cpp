#include "util/work_time.h"

#include <chrono>
#include <mutex>

namespace clgrade::work_time {
namespace {

std::mutex& mutex() {
  static std::mutex m;
  return m;
}

std::map<std::string, double>& sums() {
  static std::map<std::string, double> s;
  return s;
}

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

}  // namespace

Scope::Scope(const char* what) : what_(what), start_(now()), span_(what, "work") {}

Scope::~Scope() {
  const double seconds = now() - start_;
  std::lock_guard<std::mutex> lock(mutex());
  sums()[what_] += seconds;
}

std::map<std::string, double> totals() {
  std::lock_guard<std::mutex> lock(mutex());
  return sums();
}

}  // namespace clgrade::work_time
