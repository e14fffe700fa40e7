#include "model/report_json.h"

#include <nlohmann/json.hpp>

#include "model/figures_json.h"

namespace clgrade {
namespace {

using nlohmann::ordered_json;

ordered_json evidenceJson(const std::vector<Evidence>& evidence) {
  ordered_json list = ordered_json::array();
  for (const Evidence& e : evidence)
    if (!e.path.empty()) list.push_back({{"label", e.label}, {"path", e.path}});
  return list;
}

ordered_json checkJson(const CheckResult& check) {
  ordered_json cases = ordered_json::array();
  for (const CaseOutcome& o : check.cases) {
    cases.push_back({{"case", o.caseId},
                     {"visible", o.visible},
                     {"status", statusName(o.status)},
                     {"message", o.message},
                     {"finding", o.finding},
                     {"details", o.details},
                     {"timings", o.timings},
                     {"evidence", evidenceJson(o.evidence)}});
  }
  return {{"id", check.id},
          {"title", check.title},
          {"status", statusName(check.status)},
          {"message", check.message},
          {"cases", cases}};
}

}  // namespace

namespace {

/// A task's criteria, each with its override and visibility when it has one.
ordered_json criteriaJson(const TaskReport& t) {
  ordered_json criteria = ordered_json::array();
  for (const CriterionResult& c : t.criteria) {
    ordered_json criterion = {{"id", c.id},
                              {"title", c.title},
                              {"points", c.points},
                              {"max", c.max},
                              {"min", c.min},
                              {"status", statusName(c.status)},
                              {"message", c.message},
                              {"checks", c.checks},
                              {"evidence", evidenceJson(c.evidence)},
                              {"overridden", c.overridden}};
    if (c.overridden) {  // an instructor's override (report/overrides.h): points are then the instructor's
      criterion["original_points"] = c.originalPoints;
      criterion["override_comment"] = c.overrideComment;
      criterion["override_author"] = c.overrideAuthor;
    }
    if (!c.visibility.empty()) criterion["visibility"] = c.visibility;  // the rubric's, when it says one
    criteria.push_back(criterion);
  }
  return criteria;
}

/// One task of report.json.
ordered_json taskJson(const TaskReport& t) {
  ordered_json criteria = criteriaJson(t);
  ordered_json checks = ordered_json::array();
  for (const CheckResult& c : t.checks) checks.push_back(checkJson(c));
  ordered_json builds = ordered_json::array();
  for (const BuildRecord& b : t.builds) {
    builds.push_back({{"options", b.options}, {"ok", b.ok}, {"error", b.error}, {"log", b.logPath}});
    if (b.hidden) builds.back()["hidden"] = true;
  }
  ordered_json quotes = ordered_json::array();
  for (const SourceQuote& q : t.sourceQuotes)
    quotes.push_back(
        {{"file", q.file}, {"line", q.line}, {"first_line", q.firstLine}, {"lines", q.lines}, {"why", q.why}});
  ordered_json counters = ordered_json::array();
  for (const CounterRow& row : t.counters) {
    ordered_json values = ordered_json::object();
    for (const auto& [name, value] : row.values) values[name] = value;
    counters.push_back({{"kernel", row.kernel}, {"provider", row.provider}, {"values", values}});
  }
  ordered_json included = ordered_json::array();
  for (const auto& [file, sha] : t.includedFiles) included.push_back({{"file", file}, {"sha256", sha}});
  ordered_json task = {{"id", t.id},
                       {"title", t.title},
                       {"file", t.file},
                       {"present", t.present},
                       {"sha256", t.sha256},
                       {"included_files", included},
                       {"problem", t.problem},
                       {"machine_fault", t.machineFault},
                       {"points", t.points},
                       {"max", t.max},
                       {"criteria", criteria},
                       {"checks", checks},
                       {"builds", builds},
                       {"source_quotes", quotes},
                       {"counters", counters},
                       {"performance", performanceJson(t.performance)},
                       {"sweep", sweepJson(t.sweep)}};
  ordered_json phases = ordered_json::array();
  for (const PhaseTime& p : t.phases) {
    ordered_json within = ordered_json::object();
    for (const auto& [work, seconds] : p.within) within[work] = seconds;
    phases.push_back({{"phase", p.name}, {"seconds", p.seconds}, {"within", within}});
  }
  task["phases"] = phases;
  if (t.rerun.ran) {
    task["rerun"] = {{"first_outcome", t.rerun.firstOutcome},
                     {"first_message", t.rerun.firstMessage},
                     {"left_out", t.rerun.leftOut}};
    if (!t.rerun.outcome.empty()) {
      task["rerun"]["outcome"] = t.rerun.outcome;
      task["rerun"]["message"] = t.rerun.message;
    }
  }
  if (t.process.recorded)
    task["process"] = {{"outcome", t.process.outcome},
                       {"seconds", t.process.seconds},
                       {"waited_seconds", t.process.waitedSeconds},
                       {"replay_seconds", t.process.replaySeconds},
                       {"peak_memory_mib", t.process.peakMemoryMiB},
                       {"kernel_output", t.process.kernelOutput},
                       {"kernel_output_bytes", t.process.kernelOutputBytes},
                       {"kernel_output_truncated", t.process.kernelOutputTruncated},
                       {"shared_process", t.process.sharedProcess},
                       {"ran_alone_because", t.process.ranAloneBecause}};
  return task;
}

}  // namespace

std::string toJson(const GradeReport& r) {
  ordered_json tasks = ordered_json::array();
  for (const TaskReport& t : r.tasks) tasks.push_back(taskJson(t));
  ordered_json inputs = ordered_json::array();
  for (const InputRecord& i : r.inputs)
    inputs.push_back(
        {{"name", i.name}, {"width", i.width}, {"height", i.height}, {"channels", i.channels}, {"sha256", i.sha256}});
  ordered_json kernelFiles = ordered_json::object();
  for (const TaskReport& t : r.tasks)
    if (t.present) {
      kernelFiles[t.file] = t.sha256;
      for (const auto& [file, sha] : t.includedFiles) kernelFiles[file] = sha;
    }
  ordered_json j = {
      {"schema", "clgrade-report/1"},
      {"total", r.total},
      {"max", r.max},
      {"mode", r.mode},
      {"sandbox", r.sandbox},
      {"rubric", {{"id", r.rubricId}, {"title", r.rubricTitle}, {"path", r.rubricPath}, {"sha256", r.rubricSha256}}},
      {"device",
       {{"platform", r.device.platform},
        {"platform_version", r.device.platformVersion},
        {"name", r.device.name},
        {"driver", r.device.driver},
        {"version", r.device.version},
        {"type", r.device.type},
        {"compute_units", r.device.computeUnits},
        {"max_clock_mhz", r.device.maxClockMHz},
        {"global_mem_bytes", r.device.globalMemBytes},
        {"timer_resolution_ns", r.device.timerResolutionNs}}},
      {"tasks", tasks},
      {"reproducibility",
       {{"clgrade_version", r.version},
        {"kernels_dir", r.kernelsDir},
        {"kernel_files", kernelFiles},
        {"inputs", inputs},
        {"settings",
         {{"skip_last_row", r.settings.rule.skipLastRow},
          {"max_squared_error", r.settings.rule.maxSquaredError},
          {"mean_squared_error", r.settings.rule.meanSquaredError},
          {"weight_order", r.settings.eitherWeightOrder ? "either" : "reference"}}}}},
      {"started_at", r.startedAt},
      {"seconds", r.seconds},
  };
  // Only a grade has one: `--seed` with this number makes the same hidden inputs again.
  if (r.hiddenSeed) j["reproducibility"]["hidden_seed"] = *r.hiddenSeed;
  // Only a submission that has some: what was left out of its archive, .cl files not graded.
  if (!r.notices.empty()) j["notices"] = r.notices;
  // Compiler logs and source lines quoted in messages may hold bytes that are not UTF-8 (a student's
  // Latin-1 comment): replace them instead of failing the whole report.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace clgrade
