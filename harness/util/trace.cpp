#include "util/trace.h"

#include "util/files.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

namespace clgrade::trace {
namespace {

/// Read each time (a getenv is cheap next to a span): a test or a process may turn it on late.
std::string tracePath() {
  const char* v = std::getenv(kVariable);
  return std::string(v && *v == '/' ? v : "");
}

/// One event as a line of the trace file.
std::string lineOf(const nlohmann::json& event) {
  // A span may be named after a submission folder, whose name need not be valid UTF-8: replaced, never thrown
  // (a span ends in a destructor).
  return event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + ",\n";
}

/// Appends whole lines; a trace file is a JSON array whose closing bracket may be left out.
void appendLines(std::string lines) {
  const int fd = ::open(tracePath().c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  // The opening bracket from whoever finds the file empty; O_APPEND keeps each line whole. The lock
  // makes the look and the write one step: two first spans at once (a batch's sandbox probes, one a
  // GPU) each wrote a bracket, and the file was no longer JSON.
  ::flock(fd, LOCK_EX);
  if (::lseek(fd, 0, SEEK_END) == 0) lines = "[\n" + lines;
  for (size_t at = 0; at < lines.size();) {  // a large write may be cut short
    const ssize_t written = ::write(fd, lines.data() + at, lines.size() - at);
    if (written <= 0) break;
    at += static_cast<size_t>(written);
  }
  ::close(fd);  // and its lock with it
}

void append(const nlohmann::json& event) { appendLines(lineOf(event)); }

long long threadId() { return static_cast<long long>(::syscall(SYS_gettid)); }

/// A name from a child's trace: short, printable ASCII only.
bool plainName(const nlohmann::json& v) {
  if (!v.is_string()) return false;
  const std::string& s = v.get_ref<const std::string&>();
  if (s.empty() || s.size() > 64) return false;
  for (unsigned char c : s)
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return false;
  return true;
}

bool count(const nlohmann::json& v) { return v.is_number_integer() && v.get<long long>() >= 0; }

}  // namespace

bool enabled() { return !tracePath().empty(); }

// CLOCK_MONOTONIC, which every process of the machine shares (bwrap makes no time namespace), so the
// keeper's spans and its runners' line up.
long long nowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Span::Span(std::string name, const char* category) : name_(std::move(name)), category_(category) {
  if (enabled()) start_ = nowMicros();
}

Span::~Span() {
  if (start_ < 0) return;
  append({{"name", name_},
          {"cat", category_},
          {"ph", "X"},
          {"ts", start_},
          {"dur", nowMicros() - start_},
          {"pid", static_cast<long long>(::getpid())},
          {"tid", threadId()}});
}

std::map<std::string, std::string> childEnvironment(const std::string& file) {
  if (!enabled()) return {};
  return {{kVariable, file}};
}

void adoptChildTrace(const std::string& file, const std::string& label, long long fromMicros, long long toMicros) {
  if (!enabled()) return;
  // The child owns its scratch folder: no link is followed, no FIFO waited on, nothing over 64 MiB read.
  std::string text;
  if (!readUntrustedFile(file, size_t(64) << 20, &text)) text.clear();
  std::error_code ec;
  std::filesystem::remove(file, ec);
  if (text.empty()) return;  // a child outside a sandbox wrote into this process's file itself
  std::istringstream in(text);
  // A child runs in a PID namespace of its own (its pid may be anyone's): one number per adopted trace.
  static std::atomic<long long> next{1000000};
  const long long pid = next++;
  // Written in one piece: a runner's trace holds thousands of spans, and a step each (open, lock,
  // write, close) kept the batch's process, and every job's span waiting on the file's lock, busy.
  std::string lines = lineOf({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", label}}}});
  std::string line;
  int kept = 0;
  while (kept < 100000 && std::getline(in, line)) {
    if (!line.empty() && line.back() == ',') line.pop_back();
    const nlohmann::json e = nlohmann::json::parse(line, nullptr, false);
    // Every field checked for its type before it is compared (json's value() throws on another type).
    if (!e.is_object() || !plainName(e.value("name", nlohmann::json())) ||
        !plainName(e.value("cat", nlohmann::json())) || e.value("ph", nlohmann::json()) != nlohmann::json("X") ||
        !count(e.value("ts", nlohmann::json())) || !count(e.value("dur", nlohmann::json())) ||
        !count(e.value("tid", nlohmann::json())))
      continue;
    const long long ts = e["ts"].get<long long>(), dur = e["dur"].get<long long>();
    if ((fromMicros >= 0 && ts < fromMicros) || (toMicros >= 0 && (dur > toMicros || ts > toMicros - dur))) continue;
    lines += lineOf({{"name", e["name"]},
                     {"cat", "sandboxed:" + e["cat"].get<std::string>()},
                     {"ph", "X"},
                     {"ts", e["ts"]},
                     {"dur", e["dur"]},
                     {"pid", pid},
                     {"tid", e["tid"]}});
    ++kept;
  }
  appendLines(std::move(lines));
}

}  // namespace clgrade::trace
