// Reading ncu's per-instruction page (`ncu --import R --csv --page source --print-source sass`) and its
// launch page (`--page raw --metrics launch__grid_size`): exact counts of the atomics work-items
// execute. ncu's atomics counters (smsp__sass_inst_executed_op_*_atom) count warp instructions, which
// cannot tell one atomic per bin and work-group from one per pixel; the SourceCounters section gives,
// per SASS instruction, the work-items that executed it ("Predicated-On Thread Instructions Executed").
#pragma once

#include <string>
#include <vector>

namespace clgrade {

/// Where an atomic SASS instruction goes.
enum class AtomicSpace { None, Shared, Global };

/// Classifies one SASS instruction by its opcode (the first token of `source` after an optional
/// predicate such as "@P0" or "@!P1"): ATOMS is a shared (local) atomic; ATOMG and REDG are global;
/// the generic ATOM and RED are shared when ncu's "Address Space" says "Shared", global otherwise.
/// Anything else (REDUX, a warp reduction, included) is None.
AtomicSpace classifyAtomic(const std::string& source, const std::string& addressSpace);

/// One kernel's atomics, summed over its distinct blocks of the source page.
struct AtomicCounts {
  std::string kernel;
  long blocks = 0;              ///< distinct blocks (launches) read; ncu prints every block twice
  double sharedAtomics = 0;     ///< work-items' executions of shared (local) atomics
  double globalAtomics = 0;     ///< work-items' executions of global atomics
  long sharedInstructions = 0;  ///< SASS instructions counted into sharedAtomics, over the blocks
  long globalInstructions = 0;  ///< SASS instructions counted into globalAtomics, over the blocks
};

/// Parses the source page: blocks starting with `"Kernel Name","<name>"`, each with its own header
/// (read by column name: "Source", "Predicated-On Thread Instructions Executed", "Address Space").
/// A block identical to an earlier block of the same kernel (same instructions, same counts) is
/// ncu printing it again and counts once (with `-c 1` only one launch is profiled, so this is exact). False with a
/// clear message on a permission error (ERR_NVGPUCTRPERM), "No kernels were profiled", no blocks, or a block whose
/// header lacks those columns.
bool parseNcuSourceAtomics(const std::string& csv, std::vector<AtomicCounts>* counts, std::string* err);

/// One launch of the raw page.
struct NcuLaunch {
  std::string id;
  std::string kernel;
  long gridSize = 0;  ///< launch__grid_size: the launch's blocks (OpenCL work-groups)
};

/// Parses the raw page (a header, a units row, one row per launch) for "launch__grid_size". False
/// with a clear message on a permission error, "No kernels were profiled", no such column or no rows.
bool parseNcuLaunches(const std::string& csv, std::vector<NcuLaunch>* launches, std::string* err);

}  // namespace clgrade
