// The files a submission's profiler session (`clgrade hwsession`, runner/runner.h) leaves in its
// scratch folder for the keeper's hardware session (keeper/hardware_session.h), which reads them as
// untrusted bytes (protocol/channels.h).
#pragma once

#include <string>

namespace clgrade {

/// Where the session's count of `kernel`'s atomics for `task` leaves its record (protocol/atomics_record.h).
inline std::string atomicsRecordPath(const std::string& workDir, const std::string& task, const std::string& kernel) {
  return workDir + "/atomics-" + task + "-" + kernel + ".record";
}

/// The session's exit code (and hwcount's) when a kernel asked for could not be counted by the
/// replay's PTX counters (a memory instruction they do not follow, an old target, a counted copy that
/// does not launch) while every launch replayed well: the keeper counts it with ncu instead.
constexpr int kHwcountNotCounted = 6;

}  // namespace clgrade
