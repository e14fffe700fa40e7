#include "report/override_ledger.h"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "report/text.h"
#include "util/files.h"

using nlohmann::ordered_json;

namespace clgrade {
namespace {

constexpr const char* kSchema = "clgrade-override-ledger/1";

bool samePoints(double a, double b) { return std::fabs(a - b) < 1e-9; }

const TaskReport* findTask(const GradeReport& report, const std::string& id) {
  for (const TaskReport& t : report.tasks)
    if (t.id == id) return &t;
  return nullptr;
}

const CriterionResult* findCriterion(const TaskReport& task, const std::string& id) {
  for (const CriterionResult& c : task.criteria)
    if (c.id == id) return &c;
  return nullptr;
}

}  // namespace

std::string taskFilesHash(const TaskReport& task) {
  std::string text = task.file + " " + task.sha256;
  for (const auto& [name, sha] : task.includedFiles) text += "\n" + name + " " + sha;
  return text;
}

ordered_json staleOverridesJson(const std::vector<StaleOverride>& stale) {
  ordered_json list = ordered_json::array();
  for (const StaleOverride& o : stale)
    list.push_back({{"task", o.task}, {"criterion", o.criterion}, {"points", o.points}, {"message", o.message}});
  return list;
}

std::vector<StaleOverride> staleOverridesFromJson(const ordered_json& list) {
  std::vector<StaleOverride> out;
  if (!list.is_array()) return out;
  for (const ordered_json& o : list) {
    if (!o.is_object() || !o.value("task", ordered_json()).is_string() ||
        !o.value("criterion", ordered_json()).is_string() || !o.value("message", ordered_json()).is_string() ||
        !o.value("points", ordered_json()).is_number())
      continue;
    out.push_back({o["task"].get<std::string>(), o["criterion"].get<std::string>(), o["points"].get<double>(), "",
                   o["message"].get<std::string>()});
  }
  return out;
}

bool OverrideLedger::load(const std::string& path, std::string* err) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return true;
  std::string text;
  if (!readFile(path, &text, err)) return false;
  try {
    const ordered_json j = ordered_json::parse(text);
    if (j.value("schema", "") != kSchema) {
      *err = path + " is not an override ledger (" + kSchema + ")";
      return false;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& r : j.at("overrides")) {
      OverrideRecord rec{r.at("points").get<double>(), r.at("comment").get<std::string>(),
                         r.at("measured").get<double>(), r.at("task_files").get<std::string>()};
      records_[{r.at("submission").get<std::string>(), r.at("task").get<std::string>(),
                r.at("criterion").get<std::string>()}] = rec;
    }
  } catch (const nlohmann::json::exception& e) {
    *err = path + ": " + e.what();
    return false;
  }
  return true;
}

bool OverrideLedger::save(const std::string& path, std::string* err) const {
  ordered_json list = ordered_json::array();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [key, r] : records_)
      list.push_back({{"submission", std::get<0>(key)},
                      {"task", std::get<1>(key)},
                      {"criterion", std::get<2>(key)},
                      {"points", r.points},
                      {"comment", r.comment},
                      {"measured", r.measured},
                      {"task_files", r.taskFiles}});
  }
  const ordered_json j{{"schema", kSchema}, {"overrides", list}};
  return writeFileAtomically(path, j.dump(2) + "\n", err);
}

std::vector<Override> OverrideLedger::current(const std::vector<Override>& overrides, const std::string& submission,
                                              const GradeReport& report, bool confirm,
                                              std::vector<StaleOverride>* stale) {
  std::vector<Override> out;
  std::lock_guard<std::mutex> lock(mutex_);
  for (const Override& o : overrides) {
    if (o.submission != submission) continue;
    const TaskReport* task = findTask(report, o.task);
    const CriterionResult* criterion = task ? findCriterion(*task, o.criterion) : nullptr;
    if (!criterion) {  // applyOverrides names what is missing
      out.push_back(o);
      continue;
    }
    const OverrideRecord now{o.points, o.comment, criterion->points, taskFilesHash(*task)};
    auto it = records_.find({o.submission, o.task, o.criterion});
    const bool sameDecision =
        it != records_.end() && samePoints(it->second.points, o.points) && it->second.comment == o.comment;
    if (!sameDecision || confirm) {
      records_[{o.submission, o.task, o.criterion}] = now;
      out.push_back(o);
      continue;
    }
    const OverrideRecord& then = it->second;
    const bool filesChanged = then.taskFiles != now.taskFiles;
    if (!filesChanged && samePoints(then.measured, now.measured)) {
      out.push_back(o);
      continue;
    }
    if (stale)
      stale->push_back({o.task, o.criterion, o.points, o.where,
                        "stale override of " + o.task + "." + o.criterion + " (" + formatPoints(o.points) +
                            (samePoints(o.points, 1) ? " point" : " points") + "): written for " +
                            (filesChanged ? "other files of the task (resubmitted since), " : "") + "measured " +
                            formatPoints(then.measured) + " then, " + formatPoints(now.measured) +
                            " now; not applied until confirmed (--confirm-overrides " + submission + ") or removed"});
  }
  return out;
}

void OverrideLedger::keepOnly(const std::vector<Override>& overrides) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::map<Key, OverrideRecord> kept;
  for (const Override& o : overrides) {
    auto it = records_.find({o.submission, o.task, o.criterion});
    if (it != records_.end()) kept.insert(*it);
  }
  records_ = std::move(kept);
}

}  // namespace clgrade
