// Reading `ncu --csv --metrics ...` output: the hardware's shared-memory bank-conflict counts.
#pragma once

#include <string>
#include <vector>

namespace clgrade {

/// The metrics clgrade asks ncu for, comma-separated, as `--metrics` takes them: shared-memory bank
/// conflicts and instructions, the global-memory sectors and requests of loads, and the launches' groups.
extern const char* const kNcuSharedMetrics;

/// Per-kernel sums over all its profiled launches.
struct HardwareCounts {
  std::string kernel;
  long launches = 0;
  double sharedLoadConflicts = 0;      ///< l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  double sharedStoreConflicts = 0;     ///< l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  double sharedLoadInstructions = 0;   ///< smsp__sass_inst_executed_op_shared_ld.sum
  double sharedStoreInstructions = 0;  ///< smsp__sass_inst_executed_op_shared_st.sum
  /// l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum: the 32-byte sectors that global loads asked for,
  /// cache hits included (a tap read again from global memory counts again); < 0 when not counted.
  double globalLoadSectors = -1;
  /// l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum: the warps' global load requests; < 0 when not counted.
  double globalLoadRequests = -1;
  long workGroups = 0;         ///< launch__grid_size, summed over the launches
  long groupSize[2] = {0, 0};  ///< launch__block_dim_x and _y (the largest of the launches); 0 not counted
};

/// The metrics of kNcuSharedMetrics that the GPU's counters give (the others, launch__*, are the
/// launch's geometry), in the order counterRowsCsv expects their values.
std::vector<std::string> hardwareCounterMetrics();

/// One counted launch: its kernel, groups per dimension, group size, and the values of
/// hardwareCounterMetrics() in that order.
struct CountedLaunchRow {
  std::string kernel;
  long groups[3] = {1, 1, 1};
  long groupSize[3] = {1, 1, 1};
  std::vector<double> values;
};

/// Counted launches in the CSV form parseNcuCsv reads (ncu's --csv columns it uses: ID, Kernel Name,
/// Metric Name, Metric Unit, Metric Value; launch__grid_size and launch__block_dim_x/y from the
/// geometry), after `note` as a "==PROF==" line that says who counted.
std::string counterRowsCsv(const std::vector<CountedLaunchRow>& rows, const std::string& note);

/// Parses ncu's CSV (lines that are not CSV rows, such as "==PROF==" and the program's own
/// output, are skipped). False with a clear message on a permission error (ERR_NVGPUCTRPERM),
/// "No kernels were profiled", or no metric rows at all.
bool parseNcuCsv(const std::string& csv, std::vector<HardwareCounts>* counts, std::string* err);

// Shared with the readers of ncu's other output.

/// Splits one line of ncu's CSV (every field double-quoted, "" inside quotes is a quote); false
/// when the line is not such a row (ncu's "==PROF==" lines, the program's own output).
bool splitNcuCsvLine(const std::string& line, std::vector<std::string>* fields);

/// "1,234.5" -> 1234.5 (ncu may group digits); false for "n/a", "-" and other non-numbers.
bool parseNcuNumber(std::string text, double* value);

/// The message for ncu's counter permission error when `output` holds ERR_NVGPUCTRPERM, else "".
std::string ncuPermissionError(const std::string& output);

}  // namespace clgrade
