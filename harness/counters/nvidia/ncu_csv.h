// Reading `ncu --csv --metrics ...` output: the hardware's shared-memory bank-conflict counts.
#pragma once

#include <string>
#include <vector>

namespace clgrade {

/// The metrics clgrade asks ncu for, comma-separated, as `--metrics` takes them.
extern const char* const kNcuSharedMetrics;

/// Per-kernel sums over all its profiled launches.
struct HardwareCounts {
  std::string kernel;
  long launches = 0;
  double sharedLoadConflicts = 0;       ///< l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  double sharedStoreConflicts = 0;      ///< l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  double sharedLoadInstructions = 0;    ///< smsp__sass_inst_executed_op_shared_ld.sum
  double sharedStoreInstructions = 0;   ///< smsp__sass_inst_executed_op_shared_st.sum
};

/// Parses ncu's CSV (lines that are not CSV rows, such as "==PROF==" and the program's own
/// output, are skipped). False with a clear message on a permission error (ERR_NVGPUCTRPERM),
/// "No kernels were profiled", or no metric rows at all.
bool parseNcuCsv(const std::string& csv, std::vector<HardwareCounts>* counts, std::string* err);

}  // namespace clgrade
