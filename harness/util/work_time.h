// Wall time this process spent on named kinds of work ("builds", "inputs", ...), summed over its
// threads: what the phase times of a report (grading/phase_clock.h) say happened within a phase.
#pragma once

#include <map>
#include <string>

#include "util/trace.h"

namespace clgrade::work_time {

/// Adds the wall time of its scope to the total of `what` (a string literal).
class Scope {
 public:
  explicit Scope(const char* what);
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  const char* what_;
  double start_;
  trace::Span span_;  ///< the same scope on the timeline, when one is written
};

/// Every total so far in seconds, by kind of work.
std::map<std::string, double> totals();

}  // namespace clgrade::work_time
