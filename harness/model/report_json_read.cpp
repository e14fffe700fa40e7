#include "model/report_json.h"

#include <type_traits>

#include <nlohmann/json.hpp>

#include "model/figures_json.h"
#include "util/files.h"

namespace clgrade {
namespace {

// ordered_json keeps the counters' values in the order toJson wrote them.
using Json = nlohmann::ordered_json;

struct ReadError {
  std::string message;
};

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw ReadError{path + ": " + what}; }

std::string at(const std::string& path, const char* key) { return path.empty() ? key : path + "." + key; }
std::string at(const std::string& path, size_t index) { return path + "[" + std::to_string(index) + "]"; }

/// The value under `key`, or nullptr when it is missing or null (the model's default stays).
const Json* field(const Json& object, const char* key) {
  auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

void read(const Json& o, const char* key, const std::string& path, std::string* out) {
  if (const Json* v = field(o, key)) {
    if (!v->is_string()) fail(at(path, key), "expected a string");
    *out = v->get<std::string>();
  }
}

void read(const Json& o, const char* key, const std::string& path, bool* out) {
  if (const Json* v = field(o, key)) {
    if (!v->is_boolean()) fail(at(path, key), "expected true or false");
    *out = v->get<bool>();
  }
}

void read(const Json& o, const char* key, const std::string& path, double* out) {
  if (const Json* v = field(o, key)) {
    if (!v->is_number()) fail(at(path, key), "expected a number");
    *out = v->get<double>();
  }
}

template <typename Int>
void readInteger(const Json& o, const char* key, const std::string& path, Int* out) {
  if (const Json* v = field(o, key)) {
    if (!v->is_number_integer()) fail(at(path, key), "expected a whole number");
    if (std::is_unsigned<Int>::value && !v->is_number_unsigned() && v->get<long long>() < 0)
      fail(at(path, key), "expected a whole number of at least 0");
    *out = v->get<Int>();
  }
}

void read(const Json& o, const char* key, const std::string& path, std::vector<std::string>* out) {
  if (const Json* v = field(o, key)) {
    if (!v->is_array()) fail(at(path, key), "expected a list of strings");
    out->clear();
    for (size_t i = 0; i < v->size(); ++i) {
      if (!(*v)[i].is_string()) fail(at(at(path, key), i), "expected a string");
      out->push_back((*v)[i].get<std::string>());
    }
  }
}

void read(const Json& o, const char* key, const std::string& path, Status* out) {
  std::string name;
  read(o, key, path, &name);
  if (field(o, key) && !statusFromName(name, out)) fail(at(path, key), "unknown status '" + name + "'");
}

/// The objects of the list under `key` with their paths (none when the key is missing).
template <typename F>
void each(const Json& o, const char* key, const std::string& path, F f) {
  const Json* v = field(o, key);
  if (!v) return;
  if (!v->is_array()) fail(at(path, key), "expected a list");
  for (size_t i = 0; i < v->size(); ++i) {
    const std::string p = at(at(path, key), i);
    if (!(*v)[i].is_object()) fail(p, "expected an object");
    f((*v)[i], p);
  }
}

const Json& object(const Json& o, const char* key, const std::string& path) {
  static const Json empty = Json::object();
  const Json* v = field(o, key);
  if (!v) return empty;
  if (!v->is_object()) fail(at(path, key), "expected an object");
  return *v;
}

std::vector<Evidence> evidenceList(const Json& o, const std::string& path) {
  std::vector<Evidence> list;
  each(o, "evidence", path, [&](const Json& e, const std::string& p) {
    Evidence evidence;
    read(e, "label", p, &evidence.label);
    read(e, "path", p, &evidence.path);
    list.push_back(evidence);
  });
  return list;
}

CheckResult checkFrom(const Json& j, const std::string& path) {
  CheckResult c;
  read(j, "id", path, &c.id);
  read(j, "title", path, &c.title);
  read(j, "status", path, &c.status);
  read(j, "message", path, &c.message);
  each(j, "cases", path, [&](const Json& k, const std::string& p) {
    CaseOutcome o;
    read(k, "case", p, &o.caseId);
    read(k, "visible", p, &o.visible);
    read(k, "status", p, &o.status);
    read(k, "message", p, &o.message);
    read(k, "finding", p, &o.finding);
    read(k, "details", p, &o.details);
    read(k, "timings", p, &o.timings);
    o.evidence = evidenceList(k, p);
    c.cases.push_back(o);
  });
  return c;
}

CriterionResult criterionFrom(const Json& j, const std::string& path) {
  CriterionResult c;
  read(j, "id", path, &c.id);
  read(j, "title", path, &c.title);
  read(j, "points", path, &c.points);
  read(j, "max", path, &c.max);
  read(j, "min", path, &c.min);
  read(j, "status", path, &c.status);
  read(j, "message", path, &c.message);
  read(j, "checks", path, &c.checks);
  c.evidence = evidenceList(j, path);
  read(j, "overridden", path, &c.overridden);
  read(j, "original_points", path, &c.originalPoints);
  read(j, "override_comment", path, &c.overrideComment);
  read(j, "override_author", path, &c.overrideAuthor);
  read(j, "visibility", path, &c.visibility);
  return c;
}

TaskReport taskFrom(const Json& j, const std::string& path) {
  TaskReport t;
  read(j, "id", path, &t.id);
  read(j, "title", path, &t.title);
  read(j, "file", path, &t.file);
  read(j, "present", path, &t.present);
  read(j, "sha256", path, &t.sha256);
  each(j, "included_files", path, [&](const Json& f, const std::string& p) {
    std::string file, sha;
    read(f, "file", p, &file);
    read(f, "sha256", p, &sha);
    t.includedFiles.emplace_back(file, sha);
  });
  read(j, "problem", path, &t.problem);
  read(j, "machine_fault", path, &t.machineFault);
  read(j, "points", path, &t.points);
  read(j, "max", path, &t.max);
  each(j, "criteria", path, [&](const Json& c, const std::string& p) { t.criteria.push_back(criterionFrom(c, p)); });
  each(j, "checks", path, [&](const Json& c, const std::string& p) { t.checks.push_back(checkFrom(c, p)); });
  each(j, "builds", path, [&](const Json& b, const std::string& p) {
    BuildRecord build;
    read(b, "options", p, &build.options);
    read(b, "hidden", p, &build.hidden);
    read(b, "ok", p, &build.ok);
    read(b, "error", p, &build.error);
    read(b, "log", p, &build.logPath);
    t.builds.push_back(build);
  });
  each(j, "source_quotes", path, [&](const Json& q, const std::string& p) {
    SourceQuote quote;
    read(q, "file", p, &quote.file);
    readInteger(q, "line", p, &quote.line);
    readInteger(q, "first_line", p, &quote.firstLine);
    read(q, "lines", p, &quote.lines);
    read(q, "why", p, &quote.why);
    t.sourceQuotes.push_back(quote);
  });
  each(j, "counters", path, [&](const Json& c, const std::string& p) {
    CounterRow row;
    read(c, "kernel", p, &row.kernel);
    read(c, "provider", p, &row.provider);
    for (const auto& [name, value] : object(c, "values", p).items()) {
      if (!value.is_number()) fail(at(at(p, "values"), name.c_str()), "expected a number");
      row.values.emplace_back(name, value.get<double>());
    }
    t.counters.push_back(row);
  });
  each(j, "phases", path, [&](const Json& ph, const std::string& p) {
    PhaseTime phase;
    read(ph, "phase", p, &phase.name);
    read(ph, "seconds", p, &phase.seconds);
    if (const Json* within = field(ph, "within")) {
      if (!within->is_object()) fail(at(p, "within"), "expected an object");
      for (const auto& [work, seconds] : within->items()) {
        if (!seconds.is_number()) fail(at(at(p, "within"), work.c_str()), "expected a number");
        phase.within.emplace_back(work, seconds.get<double>());
      }
    }
    t.phases.push_back(phase);
  });
  if (const Json* v = field(j, "rerun")) {
    if (!v->is_object()) fail(at(path, "rerun"), "expected an object");
    const std::string p = at(path, "rerun");
    t.rerun.ran = true;
    read(*v, "first_outcome", p, &t.rerun.firstOutcome);
    read(*v, "first_message", p, &t.rerun.firstMessage);
    read(*v, "left_out", p, &t.rerun.leftOut);
    read(*v, "outcome", p, &t.rerun.outcome);
    read(*v, "message", p, &t.rerun.message);
  }
  if (const Json* v = field(j, "process")) {
    if (!v->is_object()) fail(at(path, "process"), "expected an object");
    const std::string p = at(path, "process");
    t.process.recorded = true;
    read(*v, "outcome", p, &t.process.outcome);
    read(*v, "seconds", p, &t.process.seconds);
    read(*v, "waited_seconds", p, &t.process.waitedSeconds);
    read(*v, "replay_seconds", p, &t.process.replaySeconds);
    read(*v, "peak_memory_mib", p, &t.process.peakMemoryMiB);
    read(*v, "kernel_output", p, &t.process.kernelOutput);
    readInteger(*v, "kernel_output_bytes", p, &t.process.kernelOutputBytes);
    read(*v, "kernel_output_truncated", p, &t.process.kernelOutputTruncated);
    read(*v, "shared_process", p, &t.process.sharedProcess);  // absent in reports before 2026-11-29
    read(*v, "ran_alone_because", p, &t.process.ranAloneBecause);
  }
  // The performance blocks have their own reader (json_performance.h); it throws on a wrong type.
  for (const char* key : {"performance", "sweep"}) {
    const Json* v = field(j, key);
    if (!v) continue;
    if (!v->is_object()) fail(at(path, key), "expected an object");
    try {
      const nlohmann::json plain = *v;
      if (std::string(key) == "performance")
        t.performance = performanceFromJson(plain);
      else
        t.sweep = sweepFromJson(plain);
    } catch (const nlohmann::json::exception& e) {
      fail(at(path, key), e.what());
    }
  }
  return t;
}

void reportFrom(const Json& j, GradeReport* r) {
  if (!j.is_object()) fail("report", "expected a JSON object");
  std::string schema;
  read(j, "schema", "", &schema);
  if (schema != "clgrade-report/1")
    fail("schema",
         schema.empty() ? "missing (expected \"clgrade-report/1\")" : "'" + schema + "' is not clgrade-report/1");
  read(j, "total", "", &r->total);
  read(j, "max", "", &r->max);
  read(j, "mode", "", &r->mode);
  read(j, "sandbox", "", &r->sandbox);
  const Json& rubric = object(j, "rubric", "");
  read(rubric, "id", "rubric", &r->rubricId);
  read(rubric, "title", "rubric", &r->rubricTitle);
  read(rubric, "path", "rubric", &r->rubricPath);
  read(rubric, "sha256", "rubric", &r->rubricSha256);
  const Json& device = object(j, "device", "");
  read(device, "platform", "device", &r->device.platform);
  read(device, "platform_version", "device", &r->device.platformVersion);
  read(device, "name", "device", &r->device.name);
  read(device, "driver", "device", &r->device.driver);
  read(device, "version", "device", &r->device.version);
  read(device, "type", "device", &r->device.type);
  readInteger(device, "compute_units", "device", &r->device.computeUnits);
  readInteger(device, "max_clock_mhz", "device", &r->device.maxClockMHz);
  readInteger(device, "global_mem_bytes", "device", &r->device.globalMemBytes);
  readInteger(device, "timer_resolution_ns", "device", &r->device.timerResolutionNs);
  each(j, "tasks", "", [&](const Json& t, const std::string& p) { r->tasks.push_back(taskFrom(t, p)); });
  const Json& repro = object(j, "reproducibility", "");
  read(repro, "clgrade_version", "reproducibility", &r->version);
  read(repro, "kernels_dir", "reproducibility", &r->kernelsDir);
  each(repro, "inputs", "reproducibility", [&](const Json& i, const std::string& p) {
    InputRecord input;
    read(i, "name", p, &input.name);
    readInteger(i, "width", p, &input.width);
    readInteger(i, "height", p, &input.height);
    readInteger(i, "channels", p, &input.channels);
    read(i, "sha256", p, &input.sha256);
    r->inputs.push_back(input);
  });
  if (field(repro, "hidden_seed")) {
    uint64_t seed = 0;
    readInteger(repro, "hidden_seed", "reproducibility", &seed);
    r->hiddenSeed = seed;
  }
  const Json& settings = object(repro, "settings", "reproducibility");
  const std::string sp = "reproducibility.settings";
  read(settings, "skip_last_row", sp, &r->settings.rule.skipLastRow);
  read(settings, "max_squared_error", sp, &r->settings.rule.maxSquaredError);
  read(settings, "mean_squared_error", sp, &r->settings.rule.meanSquaredError);
  std::string order = r->settings.eitherWeightOrder ? "either" : "reference";
  read(settings, "weight_order", sp, &order);
  if (order != "either" && order != "reference") fail(sp + ".weight_order", "expected \"either\" or \"reference\"");
  r->settings.eitherWeightOrder = order == "either";
  read(j, "notices", "", &r->notices);
  read(j, "started_at", "", &r->startedAt);
  read(j, "seconds", "", &r->seconds);
}

}  // namespace

bool readReportJson(const std::string& text, GradeReport* report, std::string* err) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    *err = std::string("not JSON: ") + e.what();
    return false;
  }
  GradeReport r;
  try {
    reportFrom(j, &r);
  } catch (const ReadError& e) {
    *err = e.message;
    return false;
  } catch (const nlohmann::json::exception& e) {
    *err = e.what();
    return false;
  }
  *report = std::move(r);
  return true;
}

bool readReportFile(const std::string& path, GradeReport* report, std::string* err) {
  std::string text;
  if (!readFile(path, &text, err)) return false;
  if (!readReportJson(text, report, err)) {
    *err = path + ": " + *err;
    return false;
  }
  return true;
}

}  // namespace clgrade
