#include "protocol/progress.h"

#include <fcntl.h>
#include <unistd.h>

#include <mutex>
#include <vector>

#include "util/files.h"
#include "util/markup.h"

namespace clgrade::progress {
namespace {

struct State {
  std::mutex mutex;
  int fd = -1;
  std::string task, caseId;
  Step phase = Step::Task;  ///< the last of task, case, simulator, hardware, performance
  Step step = Step::Task;   ///< the last line written
  std::string what;
};

State& state() {
  static State s;
  return s;
}

const char* const kNames[] = {"task", "case", "build", "kernel", "simulator", "hardware", "performance", "done"};

std::string clean(std::string s) {
  for (char& c : s)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  if (s.size() > 400) s = s.substr(0, 400) + "...";
  return s;
}

void writeLine(State& s, Step step, const std::string& what) {
  if (s.fd < 0) return;
  s.step = step;
  s.what = what;
  const std::string line = std::string(kNames[int(step)]) + "\t" + clean(s.task) + "\t" + kNames[int(s.phase)] + "\t" +
                           clean(s.caseId) + "\t" + clean(what) + "\n";
  // One write per line with O_APPEND: a reader never sees half a line from a live writer, and a
  // line written before a crash is on disk (in the page cache) when the parent reads it.
  if (write(s.fd, line.data(), line.size()) < 0) { /* nothing to do: progress is best effort */
  }
}

}  // namespace

void setFile(const std::string& path) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.fd >= 0) close(s.fd);
  s.fd = path.empty() ? -1 : open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

bool enabled() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.fd >= 0;
}

void enterCase(const std::string& caseId) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.caseId = caseId;
  s.phase = Step::Case;
  writeLine(s, Step::Case, caseId);
}

void note(Step step, const std::string& what) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (step == Step::Task) {
    s.task = what;
    s.caseId.clear();
    s.phase = Step::Task;
  }
  if (step == Step::Simulator || step == Step::Hardware || step == Step::Performance) {
    s.caseId.clear();
    s.phase = step;
  }
  writeLine(s, step, what);
}

Scope::Scope(Step step, const std::string& what) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  active_ = s.fd >= 0;
  savedStep_ = s.step;
  savedWhat_ = s.what;
  writeLine(s, step, what);
}

Scope::~Scope() {
  if (!active_) return;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  writeLine(s, savedStep_, savedWhat_);
}

Position lastPosition(const std::string& path) {
  Position p;
  std::string text;
  // Written by a runner: never through a link it put there (the keeper would read a file of its own).
  if (!readUntrustedFile(path, size_t(256) << 20, &text)) return p;
  const size_t end = text.rfind('\n');
  if (end == std::string::npos || end == 0) return p;
  const size_t previous = text.rfind('\n', end - 1);
  const size_t begin = previous == std::string::npos ? 0 : previous + 1;
  const std::string line = text.substr(begin, end - begin);
  std::vector<std::string> fields;
  size_t from = 0;
  while (fields.size() < 4) {
    const size_t tab = line.find('\t', from);
    if (tab == std::string::npos) return p;
    fields.push_back(line.substr(from, tab - from));
    from = tab + 1;
  }
  fields.push_back(line.substr(from));
  for (int i = 0; i < int(sizeof kNames / sizeof *kNames); ++i) {
    if (fields[0] == kNames[i]) {
      p.step = Step(i);
      p.valid = true;
    }
    if (fields[2] == kNames[i]) p.phase = Step(i);
  }
  p.task = fields[1];
  p.caseId = fields[3];
  p.what = fields[4];
  return p;
}

std::string describe(const Position& raw) {
  if (!raw.valid) return "";
  // The file was written by the process that ran student code: its fields are shown, never obeyed.
  Position p = raw;
  p.task = terminalText(p.task);
  p.caseId = terminalText(p.caseId);
  p.what = terminalText(p.what);
  std::string context;
  switch (p.phase) {
    case Step::Case:
      context = p.caseId.empty() ? "" : " (case " + p.caseId + ")";
      break;
    case Step::Simulator:
      context = " (the simulator run)";
      break;
    case Step::Hardware:
      context = " (the hardware-counter run)";
      break;
    case Step::Performance:
      context = " (performance measurement)";
      break;
    default:
      break;
  }
  switch (p.step) {
    case Step::Task:
      return "before its first case";
    case Step::Case:
      return "while running case " + p.caseId;
    case Step::Build:
      return "while building with options '" + p.what + "'" + context;
    case Step::Kernel:
      return "while running kernel " + p.what + context;
    case Step::Simulator:
      return "during the simulator run (Oclgrind)";
    case Step::Hardware:
      return "during the hardware-counter run";
    case Step::Performance:
      return "while measuring performance";
    case Step::Done:
      return "after grading, while writing its results";
  }
  return "";
}

}  // namespace clgrade::progress
