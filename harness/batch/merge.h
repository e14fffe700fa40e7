// `clgrade merge`: the class results of a batch graded in shards (`clgrade batch --shard K/N`, on a
// cluster through `clgrade slurm`), put together in one folder: each shard's completed submission
// folders copied in, then class.json, gradebook.csv, summary.html and every submission's outputs
// written by the same code a single batch uses (report/outputs.h), so the merged class.json is the one
// `clgrade batch` writes for the whole class with the same seed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/audience.h"
#include "report/overrides.h"

namespace clgrade {

struct MergeOptions {
  std::string outDir;                  ///< the merged class folder (never one of the shards')
  std::vector<std::string> shardDirs;  ///< the shards' --out folders
  std::vector<Override> overrides;     ///< the instructor's adjustments, as `batch --overrides`
  std::optional<Audience> audience;    ///< as `batch --audience`
  bool similarity = true;              ///< as `batch --no-similarity` (false)
};

struct MergeResult {
  /// Why the shards cannot make one class (graded with different rubrics, clgrade versions, hidden
  /// seeds, modes or task lists; split into different numbers of shards; a submission with different
  /// results in two shards; the output folder is a shard's). Nothing is written then.
  std::string refusal;
  /// Shards not given or not started, and submissions of a shard without completed results, one
  /// message each. What is there is merged all the same, so a merge run after the missing work is done
  /// completes the folder.
  std::vector<std::string> missing;
  std::vector<std::string> notWritten;  ///< files or folders that could not be written, one message each
  std::vector<std::string> problems;    ///< override problems (unknown submission, task or criterion)
  int merged = 0;                       ///< submissions in the merged class.json
  int copied = 0;                       ///< of them, copied by this run (the others were already there, the same)
};

/// Merges; idempotent (a folder already merged with the same completion marker and report.json is
/// kept) and resumable (each submission is copied into <out>/.partial/<id> and renamed into place, so
/// an interrupted merge leaves only whole folders, and the next run copies what is missing).
MergeResult mergeShards(const MergeOptions& options);

}  // namespace clgrade
