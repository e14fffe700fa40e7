// Where the time of grading goes, summed over reports (`clgrade profile`): per task the mean
// seconds of each phase (cases, simulator, counters, sweep, timing; builds within them), of the
// task's process as a whole and of its waits for other jobs' timings, and the grades' own times.
// Read from report.json files only, so a batch is profiled after the fact.
#pragma once

#include <string>
#include <vector>

#include "model/report.h"

namespace clgrade {

struct ProfileRow {
  std::string task;  ///< a task id, or "all tasks"
  int reports = 0;   ///< how many reports have the task
  /// Mean seconds per report of each phase (ProfileTable::phases order), of its builds, of each kind
  /// of work over all phases (ProfileTable::work order), of the task's process (0 when graded in
  /// one process), of its waits for the timing lock and of the keeper's replay after it.
  std::vector<double> phaseSeconds, buildSeconds, workSeconds;
  double processSeconds = 0, waitedSeconds = 0, replaySeconds = 0;
};

struct ProfileTable {
  int reports = 0;
  std::vector<std::string> phases;  ///< in the order they first appear
  std::vector<std::string> work;    ///< kinds of work within the phases (builds, inputs, ...)
  std::vector<ProfileRow> rows;     ///< tasks in report order, then "all tasks"
  double meanGradeSeconds = 0, longestGradeSeconds = 0, totalGradeSeconds = 0;
  std::string device;  ///< of the first report ("" when the reports name several)
};

ProfileTable profileOf(const std::vector<GradeReport>& reports);

/// The table as text for a terminal.
std::string renderProfile(const ProfileTable& table);

}  // namespace clgrade
