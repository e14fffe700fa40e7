// Where a grading process is, for the process that watches it: a task child appends one line per
// step (a case starts, a build, a kernel launch) to a file its parent reads when the child is
// killed or dies, so a time-out or a driver crash names the build options or the case.
// Without a file (in-process grading, the tests) every call is a no-op.
#pragma once

#include <string>

namespace clgrade::progress {

/// Kinds of step, as the lines name them.
enum class Step { Task, Case, Build, Kernel, Simulator, Hardware, Performance, Done };

/// Appends the steps to `path` from now on (empty: stop).
void setFile(const std::string& path);
/// Whether a file is set (callers skip preparing a note when not).
bool enabled();

/// The current case (kept for the steps that follow) and a line saying it started.
void enterCase(const std::string& caseId);
/// A step within the current case: `what` is the build options, the kernel name, ...
void note(Step step, const std::string& what);

/// A step that ends: the line before it is written again when the scope closes (after a build, the
/// process is back in its case or its performance measurement, not still building).
class Scope {
 public:
  Scope(Step step, const std::string& what);
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  Step savedStep_;
  std::string savedWhat_;
  bool active_;
};

/// One parsed line of a progress file.
struct Position {
  Step step = Step::Task;
  Step phase = Step::Task;  ///< what the step belongs to: a case, the simulator, hardware or performance run
  std::string task, caseId, what;
  bool valid = false;
};

/// The last complete line of a progress file (valid = false when there is none).
Position lastPosition(const std::string& path);

/// "while building with options '-DRESULT_STEPS=4' (case course_box4)" and the like; empty for
/// an invalid position.
std::string describe(const Position& position);

/// Whether a position is a build (the compiler is running).
inline bool isBuild(const Position& p) { return p.valid && p.step == Step::Build; }

}  // namespace clgrade::progress
