#include "grading/phase_clock.h"

#include <chrono>
#include <cmath>

#include "cl/device_step.h"
#include "cl/program.h"

namespace clgrade {
namespace {

/// A figure from a record (the runner is not trusted): a number of seconds a grade can take, or 0.
double sane(double seconds) { return std::isfinite(seconds) && seconds > 0 && seconds < 1e7 ? seconds : 0; }

}  // namespace

void PhaseClock::time(const std::string& name, const std::function<void()>& body) {
  const auto start = std::chrono::steady_clock::now();
  const double buildsBefore = compileSecondsSoFar();
  body();
  const std::string recorded = deviceStep(rt_, "phase time", [&] {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return tape::f64(seconds) + tape::f64(compileSecondsSoFar() - buildsBefore);
  });
  size_t at = 0;
  const double seconds = sane(tape::readF64(recorded, &at));
  add(name, seconds, sane(tape::readF64(recorded, &at)));
}

void PhaseClock::timeHere(const std::string& name, const std::function<void()>& body) {
  const auto start = std::chrono::steady_clock::now();
  const double buildsBefore = compileSecondsSoFar();
  body();
  add(name, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
      compileSecondsSoFar() - buildsBefore);
}

void PhaseClock::add(const std::string& name, double seconds, double builds) {
  for (PhaseTime& p : phases_)
    if (p.name == name) {
      p.seconds += seconds;
      p.buildSeconds += builds;
      return;
    }
  phases_.push_back({name, seconds, builds});
}

}  // namespace clgrade
