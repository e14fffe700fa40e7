#include "cl/device_step.h"

#include "util/trace.h"
#include "util/work_time.h"

#include <mutex>
#include <set>

namespace clgrade {
namespace {

/// cl::Error keeps a `const char*`: replayed messages live here for the life of the process.
const char* interned(const std::string& text) {
  static std::mutex mutex;
  static std::set<std::string> strings;
  std::lock_guard<std::mutex> lock(mutex);
  return strings.insert(text.substr(0, 200)).first->c_str();
}

}  // namespace

std::string deviceStep(const Runtime& rt, const std::string& op, const std::function<std::string()>& step) {
  Tape* tape = rt.tape.get();
  if (!tape) return step();
  if (tape->replaying()) {
    Tape::Entry e = tape->take(op);
    if (e.kind == Tape::Kind::DeviceError) {
      size_t at = 0;
      const int code = static_cast<int>(static_cast<int64_t>(tape::readU64(e.payload, &at)));
      throw cl::Error(code, interned(tape::readStr(e.payload, &at)));
    }
    return std::move(e.payload);
  }
  try {
    std::string bytes;
    {
      const work_time::Scope onDevice("device steps");  // what the runner spends on the device, builds included
      const trace::Span named(op, "device");            // which step, on a timeline
      bytes = step();
    }
    const work_time::Scope writing("record writes");
    tape->put(Tape::Kind::Result, op, bytes);
    return bytes;
  } catch (const cl::Error& e) {
    tape->put(Tape::Kind::DeviceError, op,
              tape::u64(static_cast<uint64_t>(static_cast<int64_t>(e.err()))) + tape::str(e.what() ? e.what() : ""));
    throw;
  }
}

void deviceAction(const Runtime& rt, const std::string& op, const std::function<void()>& step) {
  deviceStep(rt, op, [&] {
    step();
    return std::string();
  });
}

}  // namespace clgrade
