// The record a sandboxed runner hands back to the keeper: every result of a device step, in order
// (a build's log, a buffer read back, a launch's time, a counter dump), written by the runner as it
// goes. The keeper replays the same grading code against it: each step takes the next entry instead
// of touching the device, so every verdict is computed outside the sandbox, from data only.
//
// The runner is not trusted: a record is read as untrusted bytes (sizes bounded, never a link), and
// an entry that is not the step the keeper's own grading code asks for breaks the whole record.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace clgrade {

/// Thrown when the record does not fit the grading (another step, a payload of the wrong size, the
/// end of the record too early); the task is then an error, whatever else the record said.
struct TapeMismatch : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Tape {
 public:
  enum class Kind : uint8_t { Result = 0, DeviceError = 1 };
  struct Entry {
    Kind kind = Kind::Result;
    std::string op;
    std::string payload;  ///< the step's result; for a DeviceError: 4-byte code, then the message
  };

  /// A record to write at `path` (created, truncated). Null with `err` when it cannot be opened.
  static std::shared_ptr<Tape> recorder(const std::string& path, std::string* err);
  /// A record to replay from `path`, read without following a link. Null with `err` when unusable.
  /// `writing`, when given, says whether the runner may still write the record: while it does, the
  /// replay follows the record as it grows (waiting for the file, then for each entry), so the
  /// keeper judges while the runner runs; once it says false, the end of the file is the end.
  static std::shared_ptr<Tape> player(const std::string& path, std::string* err, std::function<bool()> writing = {});
  ~Tape();
  Tape(const Tape&) = delete;
  Tape& operator=(const Tape&) = delete;

  bool replaying() const { return replaying_; }

  /// Record: appends an entry (buffered; close() writes the end mark and flushes).
  void put(Kind kind, const std::string& op, const std::string& payload);
  /// Replay: the next entry, which must be of step `op`; throws TapeMismatch (and marks the record
  /// broken) otherwise.
  Entry take(const std::string& op);
  /// Replay: true when every entry was taken and the record ended with its end mark.
  bool finished();
  /// Record: writes the end mark; a record without one was not finished by the runner.
  void close();
  /// The first mismatch, if any ("" when the record fit so far).
  const std::string& broken() const { return broken_; }
  /// Entries written or taken.
  uint64_t steps() const { return steps_; }
  /// Record: the OpenCL error codes of the steps that failed, in order (a runner of several tasks
  /// says them for each, keeper/runner_process.h).
  const std::vector<int>& errorCodes() const { return errorCodes_; }

 private:
  Tape() = default;
  [[noreturn]] void mismatch(const std::string& what);
  bool readEntry(Entry* e, std::string* why);
  /// Reads exactly `n` bytes, waiting for them while the runner may still write; false at the end.
  bool readExactly(void* into, size_t n);
  /// True while the runner may still write the record.
  bool followed() const { return writing_ && writing_(); }
  std::function<bool()> writing_;
  std::FILE* file_ = nullptr;
  bool replaying_ = false;
  std::string broken_;
  uint64_t steps_ = 0;
  std::vector<int> errorCodes_;
};

/// Little-endian packing of the values steps hand back.
namespace tape {
std::string u64(uint64_t v);
std::string f64(double v);
/// Reads what u64/f64 wrote at `*at`, advancing it; throws TapeMismatch past the end.
uint64_t readU64(const std::string& bytes, size_t* at);
double readF64(const std::string& bytes, size_t* at);
/// A length-prefixed string, and its reader.
std::string str(const std::string& s);
std::string readStr(const std::string& bytes, size_t* at);
}  // namespace tape

}  // namespace clgrade
