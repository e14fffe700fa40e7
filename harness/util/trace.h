// An opt-in timeline of a grade, for finding what waits on what (`clgrade profile` sums the phase
// times of reports; a timeline shows which of them overlapped). With CLGRADE_TRACE=FILE set, the
// keeper and every process it starts append spans (phases, builds, device steps, lock waits, child
// processes, replays) to FILE in Chrome's trace event format, which Perfetto (ui.perfetto.dev) and
// chrome://tracing open. A sandboxed runner writes its spans into its scratch folder and the keeper
// copies them over once the runner ended, checked field by field (a runner is not trusted).
// Figures for developers only: nothing is graded on them, and without the variable nothing is written.
#pragma once

#include <map>
#include <string>

namespace clgrade::trace {

/// The variable that turns tracing on (an absolute path), and what a sandboxed child gets.
constexpr const char* kVariable = "CLGRADE_TRACE";

/// True when this process writes a trace.
bool enabled();

/// A span from its construction to its destruction on the calling thread.
class Span {
 public:
  Span(std::string name, const char* category);
  ~Span();
  Span(const Span&) = delete;
  Span& operator=(const Span&) = delete;

 private:
  std::string name_;
  const char* category_;
  long long start_ = -1;
};

/// The variables a sandboxed child gets so that it traces into `file` (inside its scratch folder):
/// empty when this process does not trace.
std::map<std::string, std::string> childEnvironment(const std::string& file);

/// Microseconds on the clock every span uses (CLOCK_MONOTONIC, shared by every process of the machine).
long long nowMicros();

/// Copies the spans a child wrote into `file` into this process's trace as process `label`, keeping
/// only well-formed spans with short plain names that lie within [`fromMicros`, `toMicros`] (when
/// the child ran, nowMicros; -1: no bound), at most 100000; removes `file`. What a sandboxed child
/// wrote is the student's code's to forge: its spans keep their category under "sandboxed:", so a
/// reader of the timeline never takes them for the keeper's own.
void adoptChildTrace(const std::string& file, const std::string& label, long long fromMicros = -1,
                     long long toMicros = -1);

}  // namespace clgrade::trace
