// What each instructor override was written against. An override is a judgement of one grade: when
// the submission is graded again and the criterion's measured points or the task's files differ from
// those it was first applied to (a resubmission, a regrade by another build), it is stale: not
// applied, and said so in the batch's output, class.json and summary.html, until the instructor
// confirms it (`batch --confirm-overrides NAME`) or removes it. The ledger lives in the results
// folder (<out>/overrides_applied.json), beside the results it was applied to.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "model/report.h"
#include "report/overrides.h"

namespace clgrade {

/// The ledger's file in a batch's results folder (a class top-level name: report/outputs.h).
inline constexpr const char* kOverrideLedgerFile = "overrides_applied.json";

/// One override as it was first applied: the decision (points, comment) and what it judged.
struct OverrideRecord {
  double points = 0;
  std::string comment;
  double measured = 0;     ///< the criterion's measured points then
  std::string taskFiles;   ///< the task's kernel file and included files then (taskFilesHash)
};

/// What a task's points were computed from: its kernel file's and included files' hashes, as one text.
std::string taskFilesHash(const TaskReport& task);

/// An override not applied: what it names, and why in words ("stale override of conv3x3.convolution
/// (1 point): written for ..."), without the overrides file's name, which `where` holds.
struct StaleOverride {
  std::string task, criterion;
  double points = 0;
  std::string where;  ///< "overrides.csv:4"
  std::string message;
};

/// Stale overrides as class.json lists them (`stale_overrides`: task, criterion, points, message), and
/// back (entries that are not such objects are left out: class.json is a file, read, never trusted).
nlohmann::ordered_json staleOverridesJson(const std::vector<StaleOverride>& stale);
std::vector<StaleOverride> staleOverridesFromJson(const nlohmann::ordered_json& list);

class OverrideLedger {
 public:
  /// Reads `path` (no file: an empty ledger). False with *err when it exists but is unreadable or not
  /// a ledger: the batch then refuses to apply any override rather than re-record them all silently.
  bool load(const std::string& path, std::string* err);
  bool save(const std::string& path, std::string* err) const;

  /// The overrides of `submission` that apply to `report` (measured points, as report.json holds
  /// them): each one that has no record yet, whose decision changed (edited points or comment) or whose
  /// submission is in `confirm` is recorded as applied to this report; one whose record's measured
  /// points or task files differ from the report's is stale, and goes to *stale instead.
  /// Overrides naming a task or criterion the report lacks are passed on (applyOverrides says so).
  /// Thread-safe.
  std::vector<Override> current(const std::vector<Override>& overrides, const std::string& submission,
                                const GradeReport& report, bool confirm, std::vector<StaleOverride>* stale);

  /// Drops the records no override of `overrides` names any more (a removed override is forgotten).
  void keepOnly(const std::vector<Override>& overrides);

 private:
  using Key = std::tuple<std::string, std::string, std::string>;  ///< submission, task, criterion
  mutable std::mutex mutex_;
  std::map<Key, OverrideRecord> records_;
};

}  // namespace clgrade
