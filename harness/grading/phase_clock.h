// How long each phase of a task's grading took (report.json's "phases", what `clgrade profile`
// sums), so that the time of a grade is measured, not guessed. The process that runs the kernels
// times its phases; in a sandboxed grade that is the runner, and the keeper's replay reads the
// runner's figures back from its record. Figures only: nothing is graded on them.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cl/runtime.h"
#include "model/report.h"

namespace clgrade {

class PhaseClock {
 public:
  explicit PhaseClock(const Runtime& rt) : rt_(rt) {}

  /// Runs `body` as phase `name` and adds its wall time and what of it went to kinds of work
  /// (util/work_time.h; in a replay: the runner's figures). A phase that throws adds nothing.
  void time(const std::string& name, const std::function<void()>& body);
  /// The same for a phase this process does itself whether it runs kernels or replays a record (the
  /// simulator, which the keeper runs): its own wall time, nothing recorded.
  void timeHere(const std::string& name, const std::function<void()>& body);
  const std::vector<PhaseTime>& phases() const { return phases_; }

 private:
  void add(const PhaseTime& phase);
  const Runtime& rt_;
  std::vector<PhaseTime> phases_;
};

}  // namespace clgrade
