// The files a submission's profiler session (`clgrade hwsession`, runner/runner.h) leaves in its
// scratch folder for the keeper's hardware session (keeper/hardware_session.h), which reads them as
// untrusted bytes (protocol/channels.h).
#pragma once

#include <string>

namespace clgrade {

/// Where the session's atomics run of `kernel` for `task` leaves its bytes.
inline std::string atomicsRecordPath(const std::string& workDir, const std::string& task, const std::string& kernel) {
  return workDir + "/atomics-" + task + "-" + kernel + ".record";
}

}  // namespace clgrade
