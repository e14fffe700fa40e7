#include "grading/runner_request.h"

#include <nlohmann/json.hpp>

namespace clgrade {

using nlohmann::json;

std::string runnerRequestJson(const RunnerRequest& r) {
  return json{{"schema", "clgrade-runner-request/1"},
              {"kernels_dir", r.kernelsDir},
              {"rubric", r.rubricPath},
              {"task", r.task},
              {"device", r.device},
              {"visible_only", r.visibleOnly},
              {"hidden_seed", r.hiddenSeed},
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
    if (j.value("schema", "") != "clgrade-runner-request/1") {
      *err = "not a clgrade-runner-request/1 record";
      return false;
    }
    r.kernelsDir = j.at("kernels_dir").get<std::string>();
    r.rubricPath = j.at("rubric").get<std::string>();
    r.task = j.at("task").get<std::string>();
    r.device = j.at("device").get<std::string>();
    r.visibleOnly = j.at("visible_only").get<bool>();
    if (!j.at("hidden_seed").is_number_unsigned()) {
      *err = "hidden_seed: expected a whole number of at least 0";
      return false;
    }
    r.hiddenSeed = j.at("hidden_seed").get<uint64_t>();
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
