#include "protocol/runner_request.h"

#include <nlohmann/json.hpp>

#include "util/base64.h"

namespace clgrade {

using nlohmann::json;

namespace {

/// The task's kernel file as the keeper read it: its bytes as base64 (a kernel file need not be UTF-8).
json sourceJson(const std::string& file, const KernelSource& s) {
  return {{"file", file},
          {"present", s.present},
          {"exists", s.exists},
          {"bytes", base64Encode(s.fileBytes)},
          {"text", base64Encode(s.text)},
          {"included", s.included},
          {"included_sha256", s.includedSha256},
          {"problem", s.problem}};
}

bool readSource(const json& j, std::string* file, KernelSource* s, std::string* err) {
  *file = j.at("file").get<std::string>();
  s->present = j.at("present").get<bool>();
  s->exists = j.at("exists").get<bool>();
  s->included = j.at("included").get<std::vector<std::string>>();
  s->includedSha256 = j.at("included_sha256").get<std::vector<std::string>>();
  s->problem = j.at("problem").get<std::string>();
  if (!base64Decode(j.at("bytes").get<std::string>(), &s->fileBytes) ||
      !base64Decode(j.at("text").get<std::string>(), &s->text)) {
    *err = "source: its bytes are not base64";
    return false;
  }
  return true;
}

}  // namespace

std::string runnerRequestJson(const RunnerRequest& r) {
  return json{{"schema", "clgrade-runner-request/4"},
              {"kernels_dir", r.kernelsDir},
              {"rubric", r.rubricPath},
              {"rubric_text", r.rubricText},
              {"source", sourceJson(r.sourceFile, r.source)},
              {"task", r.task},
              {"device", r.device},
              {"expected_device", r.expectedDevice},
              {"probe", r.probe},
              {"visible_only", r.visibleOnly},
              {"hidden_seeds",
               {{"photo", r.hiddenSeeds.photo},
                {"scene", r.hiddenSeeds.scene},
                {"extremes", r.hiddenSeeds.extremes},
                {"rows", r.hiddenSeeds.rows}}},
              {"out", r.outDir},
              {"record", r.recordPath},
              {"progress", r.progressPath},
              {"timing_lock", r.timingLock},
              {"hardware_elsewhere", r.hardwareElsewhere},
              {"trusted_timings", r.trustedTimings},
              {"input_store", r.inputStore},
              {"stopped", json::parse(stopInfoJson(r.stopped))}}
      .dump(-1, ' ', false, json::error_handler_t::replace);
}

bool readRunnerRequest(const std::string& text, RunnerRequest* request, std::string* err) {
  RunnerRequest r;
  try {
    const json j = json::parse(text);
    if (j.value("schema", "") != "clgrade-runner-request/4") {
      *err = "not a clgrade-runner-request/4 record";
      return false;
    }
    r.kernelsDir = j.at("kernels_dir").get<std::string>();
    r.rubricPath = j.at("rubric").get<std::string>();
    r.rubricText = j.at("rubric_text").get<std::string>();
    if (!readSource(j.at("source"), &r.sourceFile, &r.source, err)) return false;
    r.task = j.at("task").get<std::string>();
    r.device = j.at("device").get<std::string>();
    r.expectedDevice = j.at("expected_device").get<std::string>();
    r.probe = j.at("probe").get<bool>();
    r.visibleOnly = j.at("visible_only").get<bool>();
    const json& seeds = j.at("hidden_seeds");
    for (auto [key, seed] : {std::pair<const char*, uint64_t*>{"photo", &r.hiddenSeeds.photo},
                             {"scene", &r.hiddenSeeds.scene},
                             {"extremes", &r.hiddenSeeds.extremes},
                             {"rows", &r.hiddenSeeds.rows}}) {
      if (!seeds.at(key).is_number_unsigned()) {
        *err = std::string("hidden_seeds.") + key + ": expected a whole number of at least 0";
        return false;
      }
      *seed = seeds.at(key).get<uint64_t>();
    }
    r.outDir = j.at("out").get<std::string>();
    r.recordPath = j.at("record").get<std::string>();
    r.progressPath = j.at("progress").get<std::string>();
    r.timingLock = j.at("timing_lock").get<std::string>();
    r.hardwareElsewhere = j.at("hardware_elsewhere").get<bool>();
    r.trustedTimings = j.value("trusted_timings", "");
    r.inputStore = j.value("input_store", "");
    if (!readStopInfo(j.at("stopped").dump(), &r.stopped, err)) return false;
  } catch (const json::exception& e) {
    *err = e.what();
    return false;
  }
  if (r.task.empty() || r.recordPath.empty()) {
    *err = "a runner request needs a task and a record path";
    return false;
  }
  *request = std::move(r);
  return true;
}

}  // namespace clgrade
