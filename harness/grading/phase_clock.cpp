#include "grading/phase_clock.h"

#include <chrono>
#include <cmath>

#include "cl/device_step.h"
#include "util/trace.h"
#include "util/work_time.h"

namespace clgrade {
namespace {

/// A figure from a record (the runner is not trusted): a number of seconds a grade can take, or 0.
double sane(double seconds) { return std::isfinite(seconds) && seconds > 0 && seconds < 1e7 ? seconds : 0; }

/// A kind of work as util/work_time.h names them ("builds", "cpu reference"): from a record, anything
/// else (an escape sequence for the instructor's terminal, megabytes of name) is not taken.
bool workName(const std::string& name) {
  if (name.empty() || name.size() > 32) return false;
  for (char c : name)
    if (!(c >= 'a' && c <= 'z') && c != ' ') return false;
  return true;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The kinds of work done since `before` (work_time totals), those that took any time.
std::vector<std::pair<std::string, double>> workSince(const std::map<std::string, double>& before) {
  std::vector<std::pair<std::string, double>> within;
  for (const auto& [work, total] : work_time::totals()) {
    const auto it = before.find(work);
    const double seconds = total - (it == before.end() ? 0 : it->second);
    if (seconds > 0) within.emplace_back(work, seconds);
  }
  return within;
}

}  // namespace

void PhaseClock::time(const std::string& name, const std::function<void()>& body) {
  const auto start = std::chrono::steady_clock::now();
  const std::map<std::string, double> before = work_time::totals();
  {
    const trace::Span span(name, rt_.replaying() ? "replayed phase" : "phase");
    body();
  }
  const std::string recorded = deviceStep(rt_, "phase time", [&] {
    const std::vector<std::pair<std::string, double>> within = workSince(before);
    std::string bytes = tape::f64(secondsSince(start)) + tape::u64(within.size());
    for (const auto& [work, seconds] : within) bytes += tape::str(work) + tape::f64(seconds);
    return bytes;
  });
  size_t at = 0;
  PhaseTime phase{name, sane(tape::readF64(recorded, &at)), {}};
  const uint64_t count = tape::readU64(recorded, &at);
  for (uint64_t i = 0; i < count && i < 64; ++i) {
    const std::string work = tape::readStr(recorded, &at);
    const double seconds = sane(tape::readF64(recorded, &at));
    if (workName(work)) phase.within.emplace_back(work, seconds);
  }
  add(phase);
}

void PhaseClock::timeHere(const std::string& name, const std::function<void()>& body) {
  const auto start = std::chrono::steady_clock::now();
  const std::map<std::string, double> before = work_time::totals();
  {
    const trace::Span span(name, "phase");
    body();
  }
  add({name, secondsSince(start), workSince(before)});
}

void PhaseClock::add(const PhaseTime& phase) {
  for (PhaseTime& p : phases_)
    if (p.name == phase.name) {
      p.seconds += phase.seconds;
      for (const auto& [work, seconds] : phase.within) {
        bool found = false;
        for (auto& [w, s] : p.within)
          if (w == work) s += seconds, found = true;
        if (!found) p.within.emplace_back(work, seconds);
      }
      return;
    }
  phases_.push_back(phase);
}

}  // namespace clgrade
