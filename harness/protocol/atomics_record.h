// The record `clgrade hwcount` leaves for each kernel whose atomics it counted (PtxReplay's counted
// copy of the launch, counters/nvidia/ptx_atomics.h): text, one line per atomic instruction, so that
// the instructor can read it as evidence. It comes from inside the sandbox: the keeper reads it as
// untrusted (sizes bounded, every field checked).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace clgrade {

/// One atomic instruction of the counted kernel's PTX and the work-items that executed it.
struct AtomicsRecordSite {
  int line = 0;                 ///< in the module's PTX
  std::string space;            ///< "shared", "global" or "generic" as written
  uint64_t shared = 0;          ///< executions whose address was in local (shared) memory
  uint64_t global = 0;          ///< executions whose address was elsewhere (global)
  /// What its local executions added (an inc 1 each, an integer add its value, others 0); not known
  /// for an add whose value was not read, or in a record of the first version.
  int64_t added = 0;
  bool addedKnown = false;
  std::string instruction;
};

struct AtomicsRecord {
  std::string kernel;
  long workGroups = 0;
  std::string error;  ///< why the launch was not counted ("" when it was)
  std::vector<AtomicsRecordSite> sites;
};

std::string atomicsRecordText(const AtomicsRecord& record);

/// False with a message when `text` is not such a record (a runner is not trusted).
bool readAtomicsRecord(const std::string& text, AtomicsRecord* record, std::string* err);

}  // namespace clgrade
