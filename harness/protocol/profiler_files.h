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

}  // namespace clgrade
