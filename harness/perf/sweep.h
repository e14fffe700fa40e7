// The performance experiment of the assignment sheet: a case rerun over RESULT_STEPS and group
// sizes, correct at every point or found out, with each pass timed for the chart.
#pragma once

#include <array>
#include <set>
#include <string>
#include <vector>

#include "perf/figures.h"
#include "tasks/task_context.h"

namespace clgrade {

/// A point of a sweep: `base` with both passes at `steps` RESULT_STEPS and both group sizes `group`;
/// id "steps4_32x16".
CaseSpec sweepPoint(const CaseSpec& base, int steps, const std::array<int, 2>& group);

/// `spec` at the sweep's timing size (`width` x `height`, 0: its own) where it is timed there: on a
/// GPU. A CPU device times the case's own size (its figures are indicative only).
CaseSpec sweepTimingCase(CaseSpec spec, bool gpu, int width, int height);

struct SweepRequest {
  const Task* task = nullptr;
  CaseSpec base;
  std::vector<int> steps;
  std::vector<std::array<int, 2>> groups;
  int timingWidth = 0, timingHeight = 0;  ///< 0: the case's own size
  std::string source;
  std::set<std::string> checks;  ///< the checks that decide a point's correctness (empty: every check)
  PerfSettings settings;
  GradeSettings grade;
};

/// Runs every point: the task's checks on the case at its own size (correctness; each failing
/// check's outcome is appended to *failures, its case id naming the point) and the timed launches.
SweepReport runSweep(const Runtime& rt, const SweepRequest& request, InputCache& inputs, EvidenceWriter& evidence,
                     std::vector<CaseOutcome>* failures);

/// Draws the sweep (bandwidth and time against RESULT_STEPS, one line per pass and group size,
/// the copy roofline, wrong points marked) into <dir>/<stem>.svg and .png.
bool writeSweepChart(const SweepReport& sweep, const std::string& dir, const std::string& stem, std::string* err);

}  // namespace clgrade
