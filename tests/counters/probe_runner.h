// Runs counter_probe in a child process under Oclgrind with the bank-conflict plugin, and reads
// the counters file it leaves. The environment is set for the child only, so tests can vary it.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace clgrade::test {

struct ProbeRun {
  int status = -1;          ///< the probe's exit status (0: launched)
  std::string output;       ///< its stdout and stderr, Oclgrind's messages included
  std::string dir;          ///< the folder that holds counters.json
  nlohmann::json counters;  ///< the parsed file; null when it is missing or not JSON
};

/// Runs `counter_probe args...` with OCL_ICD_VENDORS, OCLGRIND_PLUGINS, CLGRADE_COUNTERS_OUT (into a
/// fresh temporary folder) and the default bank model; `env` adds or overrides variables.
ProbeRun runProbe(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {});

/// A kernel's entry in the counters file (a null json when it is not there).
nlohmann::json kernelEntry(const nlohmann::json& counters, const std::string& name);

/// {requests, wavefronts, conflicts} of a triple, for readable comparisons.
std::vector<long> triple(const nlohmann::json& t);

/// {loads, stores, atomics} of an access-count object.
std::vector<long> accesses(const nlohmann::json& a);

/// The 1-based line of `file` that contains `marker` (0 if none).
int lineOf(const std::string& file, const std::string& marker);

}  // namespace clgrade::test
