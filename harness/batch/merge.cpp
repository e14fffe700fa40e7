#include "batch/merge.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "batch/batch.h"
#include "batch/class_entry.h"
#include "model/report_json.h"
#include "report/outputs.h"
#include "report/override_ledger.h"
#include "util/files.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

using nlohmann::ordered_json;

/// A shard's --out folder as its class.json describes it.
struct ShardFolder {
  fs::path dir;
  std::string label;               ///< "DIR (shard 2/8)", how messages name it
  ordered_json cls;                ///< its class.json
  int index = 0, count = 0;        ///< 0/0: a whole batch's folder (no --shard), merged like a shard
  std::vector<std::string> names;  ///< the submissions it was given
  int found = 0;
};

/// A completed submission folder of a shard.
struct Piece {
  fs::path dir;
  std::string shard;  ///< the shard's label
  std::string markerText, reportText;
  GradeReport report;
  ordered_json measured;  ///< its class entry without overrides: what two shards must agree on
  /// The overrides its shard's batch found stale (report/override_ledger.h): not applied here either.
  std::vector<StaleOverride> stale;
};

/// The class.json fields every shard must share for the merge to be one batch's class results, and
/// how a refusal names each.
const std::pair<const char*, const char*> kSameEverywhere[] = {{"clgrade_version", "clgrade versions"},
                                                               {"mode", "modes (grade or --visible-only)"},
                                                               {"tasks", "task lists (--task)"},
                                                               {"hidden_seed", "hidden seeds (--seed)"},
                                                               {"roster", "rosters (--roster)"}};

std::string shown(const ordered_json& j) { return j.is_string() ? j.get<std::string>() : j.dump(); }

/// j[key], or null where j has no such key (class.json and markers are files: read, never trusted).
ordered_json field(const ordered_json& j, const char* key) { return j.contains(key) ? j[key] : ordered_json(); }

bool loadShard(const std::string& dirText, ShardFolder* s, std::string* why) {
  s->dir = fs::absolute(dirText);
  s->label = dirText;
  std::string text, err;
  if (!readFile((s->dir / "class.json").string(), &text, &err)) {
    *why = dirText + ": no class.json: this shard has not started (or its --out is elsewhere)";
    return false;
  }
  try {
    s->cls = ordered_json::parse(text);
    if (s->cls.value("schema", "") != "clgrade-class/1" || !field(s->cls, "rubric").is_object() ||
        !field(s->cls["rubric"], "sha256").is_string() || !field(s->cls, "submissions").is_array()) {
      *why = dirText + "/class.json is not a clgrade batch's class.json";
      return false;
    }
    if (s->cls.contains("shard")) {
      const ordered_json& sh = s->cls["shard"];
      s->index = sh.at("index").get<int>();
      s->count = sh.at("count").get<int>();
      s->names = sh.at("submissions").get<std::vector<std::string>>();
      s->found = int(s->names.size());
      s->label += " (shard " + std::to_string(s->index) + "/" + std::to_string(s->count) + ")";
    } else {  // a whole batch: what it completed
      for (const ordered_json& e : s->cls["submissions"]) s->names.push_back(e.at("submission").get<std::string>());
      s->found = s->cls.value("submissions_found", int(s->names.size()));
    }
  } catch (const nlohmann::json::exception& e) {
    *why = dirText + "/class.json cannot be read: " + e.what();
    return false;
  }
  return true;
}

/// Why the points of `report` cannot be what clgrade gave ("" when they can): a criterion above its
/// maximum or below its deduction, a task's or the total's sum that is not its criteria's (issue 27: a
/// shard's report.json edited to give a 1-point criterion 50 was merged as it was).
std::string inconsistentScores(const GradeReport& report) {
  constexpr double kEps = 1e-6;
  double total = 0, max = 0;
  for (const TaskReport& t : report.tasks) {
    double sum = 0, taskMax = 0;
    for (const CriterionResult& c : t.criteria) {
      if (c.points > c.max + kEps || c.points < std::min(0.0, c.min) - kEps || c.max < 0)
        return t.id + "." + c.id + " has " + shown(c.points) + " points of " + shown(c.max);
      sum += c.points;
      taskMax += c.max;
    }
    if (std::abs(t.points - std::max(0.0, sum)) > kEps || std::abs(t.max - taskMax) > kEps)
      return t.id + "'s points are not its criteria's";
    total += t.points;
    max += t.max;
  }
  if (std::abs(report.total - total) > kEps || std::abs(report.max - max) > kEps) return "its total is not its tasks'";
  return "";
}

/// The shard's completed folder for `name`: a completion marker of the shard's rubric, mode, tasks and
/// seed, and a readable report (what `clgrade batch` itself takes as complete). Else false and why.
bool loadPiece(const ShardFolder& s, const std::string& name, Piece* p, std::string* why) {
  p->dir = s.dir / name;
  p->shard = s.label;
  std::string err;
  if (!readFile((p->dir / "batch.json").string(), &p->markerText, &err)) {
    *why = name + " (" + s.label + "): not graded yet (no completion marker)";
    return false;
  }
  try {
    const ordered_json m = ordered_json::parse(p->markerText);
    const bool same = field(m, "rubric_sha256") == s.cls["rubric"]["sha256"] &&
                      field(m, "mode") == field(s.cls, "mode") && field(m, "tasks") == field(s.cls, "tasks") &&
                      field(m, "hidden_seed") == field(s.cls, "hidden_seed");
    if (!same) {
      *why = name + " (" + s.label +
             "): its results were graded with another rubric, seed, mode or task list than "
             "the shard's: run the shard again";
      return false;
    }
  } catch (const nlohmann::json::exception& e) {
    *why = name + " (" + s.label + "): its completion marker cannot be read: " + e.what();
    return false;
  }
  if (!readFile((p->dir / "report.json").string(), &p->reportText, &err, size_t(512) << 20) ||
      !readReportJson(p->reportText, &p->report, &err)) {
    *why = name + " (" + s.label + "): report.json cannot be read: " + err;
    return false;
  }
  if (const std::string wrong = inconsistentScores(p->report); !wrong.empty()) {
    *why = name + " (" + s.label + "): report.json is not as clgrade wrote it (" + wrong + "): grade it again";
    return false;
  }
  p->measured = classJsonEntry(name, p->report);
  for (const ordered_json& e : field(s.cls, "submissions"))
    if (e.is_object() && e.value("submission", ordered_json()) == name)
      p->stale = staleOverridesFromJson(field(e, "stale_overrides"));
  return true;
}

/// The overrides of `name` its shard applied: those given, less the ones it found stale.
std::vector<Override> appliedOverrides(const std::vector<Override>& overrides, const std::string& name,
                                       const Piece& p) {
  std::vector<Override> out;
  for (const Override& o : overrides) {
    bool stale = false;
    for (const StaleOverride& s : p.stale) stale = stale || (s.task == o.task && s.criterion == o.criterion);
    if (o.submission == name && !stale) out.push_back(o);
  }
  return out;
}

/// Whether `dest` already holds this piece (a merge run before): the same marker and report.json.
bool alreadyMerged(const fs::path& dest, const Piece& p) {
  std::string marker, report, err;
  return readFile((dest / "batch.json").string(), &marker, &err) && marker == p.markerText &&
         readFile((dest / "report.json").string(), &report, &err, size_t(512) << 20) && report == p.reportText;
}

/// Copies the piece into `out`/<name> through .partial/<id> (only whole folders are ever in place).
bool copyIn(const fs::path& out, const std::string& name, const Piece& p, std::string* err) {
  std::error_code ec;
  const fs::path partial = out / ".partial" / stagingId(name), old = out / ".partial" / (stagingId(name) + "-old");
  const fs::path dest = out / name;
  fs::remove_all(partial, ec);
  fs::copy(p.dir, partial, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  if (ec) {
    *err = "cannot copy " + p.dir.string() + " to " + partial.string() + ": " + ec.message();
    return false;
  }
  fs::remove_all(old, ec);
  if (fs::exists(fs::symlink_status(dest, ec))) fs::rename(dest, old, ec);
  ec.clear();
  fs::rename(partial, dest, ec);
  if (ec) {
    *err = "cannot move " + partial.string() + " to " + dest.string() + ": " + ec.message();
    return false;
  }
  fs::remove_all(old, ec);
  return true;
}

/// The shards' folders that have results (the others are listed as missing); false with the
/// refusal when the output folder is one of them or none has results.
bool loadShards(const MergeOptions& o, const fs::path& out, std::vector<ShardFolder>* shardsOut, MergeResult* result) {
  MergeResult& r = *result;
  std::vector<ShardFolder>& shards = *shardsOut;
  std::error_code ec;
  for (const std::string& dir : o.shardDirs) {
    if (fs::weakly_canonical(dir, ec) == fs::weakly_canonical(out, ec)) {
      r.refusal = "the output folder " + o.outDir + " is one of the shards' folders: choose another";
      return false;
    }
    ShardFolder s;
    std::string why;
    if (loadShard(dir, &s, &why))
      shards.push_back(std::move(s));
    else
      r.missing.push_back(why);
  }
  if (shards.empty()) {
    r.refusal = "no shard has results to merge";
    for (const std::string& m : r.missing) r.refusal += "\n  " + m;
    r.missing.clear();
    return false;
  }

  return true;
}

/// One rubric, clgrade version, mode, task list, seed and split: else these are not one batch's
/// shards (false with the refusal). Shards of the split that were not given are listed as missing.
bool oneBatch(const std::vector<ShardFolder>& shards, MergeResult* result) {
  MergeResult& r = *result;
  const ShardFolder& first = shards.front();
  for (const ShardFolder& s : shards) {
    const std::string a = first.cls["rubric"].value("sha256", ""), b = s.cls["rubric"].value("sha256", "");
    if (a != b) {
      r.refusal = "the shards were graded with different rubrics: " + first.label + " with " +
                  first.cls["rubric"].value("id", "?") + " (sha256 " + a + "), " + s.label + " with " +
                  s.cls["rubric"].value("id", "?") + " (sha256 " + b + ")";
      return false;
    }
    for (const auto& [key, what] : kSameEverywhere) {
      const ordered_json x = field(first.cls, key), y = field(s.cls, key);
      if (x != y) {
        r.refusal = std::string("the shards were graded with different ") + what + ": " + first.label + ": " +
                    shown(x) + ", " + s.label + ": " + shown(y);
        return false;
      }
    }
    if (s.count != first.count) {
      r.refusal = "the shards come from different splits: " + first.label + " and " + s.label;
      return false;
    }
  }
  if (first.count > 0) {
    std::set<int> given;
    for (const ShardFolder& s : shards) given.insert(s.index);
    for (int k = 1; k <= first.count; ++k)
      if (!given.count(k))
        r.missing.push_back("shard " + std::to_string(k) + "/" + std::to_string(first.count) +
                            ": no results among the folders given");
  }

  return true;
}

/// Every completed submission; one present in two shards must have the same results in both (false
/// with the refusal). `found`: the folders the batch found, graded or not.
bool collectPieces(const std::vector<ShardFolder>& shards, std::map<std::string, Piece>* piecesOut, int* foundOut,
                   MergeResult* result) {
  MergeResult& r = *result;
  std::map<std::string, Piece>& pieces = *piecesOut;
  std::map<std::string, std::string> incomplete;  // name -> why, for those no shard completed
  int found = 0;
  std::set<std::string> counted;
  for (const ShardFolder& s : shards) {
    for (const std::string& name : s.names) {
      if (counted.insert(name).second) ++found;
      Piece p;
      std::string why;
      if (!loadPiece(s, name, &p, &why)) {
        incomplete.emplace(name, why);
        continue;
      }
      // One rubric and task list: every report has the same maximum (a criterion's raised with its
      // points changes it).
      if (!pieces.empty() && std::abs(p.report.max - pieces.begin()->second.report.max) > 1e-6) {
        incomplete.emplace(name, name + " (" + s.label + "): report.json has " + shown(p.report.max) +
                                     " points at most, the others " + shown(pieces.begin()->second.report.max) +
                                     ": it is not as clgrade wrote it; grade it again");
        continue;
      }
      const auto it = pieces.find(name);
      if (it == pieces.end()) {
        pieces.emplace(name, std::move(p));
      } else if (it->second.measured != p.measured) {
        r.refusal = "the submission '" + name + "' has different results in " + it->second.shard + " and " + s.label +
                    " (totals " + shown(it->second.measured["total"]) + " and " + shown(p.measured["total"]) +
                    "): grade it again in one of them, or leave one folder out";
        return false;
      }
    }
  }
  // A whole batch's class.json counts the folders it found, graded or not.
  for (const ShardFolder& s : shards)
    if (s.count == 0) found += std::max(0, s.found - int(s.names.size()));
  // A submission incomplete in one shard but completed in another is not missing.
  for (const auto& [name, why] : incomplete)
    if (!pieces.count(name)) r.missing.push_back(why);

  *foundOut = found;
  return true;
}

/// The merged folder: each submission copied in (once), class.json as a single batch writes it, and
/// the class outputs.
void writeMerged(const MergeOptions& o, const fs::path& out, const std::vector<ShardFolder>& shards,
                 std::map<std::string, Piece>& pieces, int found, MergeResult* result) {
  MergeResult& r = *result;
  const ShardFolder& first = shards.front();
  std::error_code ec;
  std::string err;
  if (!makeDirectories(out.string(), &err)) {
    r.notWritten.push_back(err);
    return;
  }
  // One merge per folder at a time (a second would rename the same folders).
  const int lockFd = open((out / ".merge.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lockFd < 0 || flock(lockFd, LOCK_EX | LOCK_NB) != 0) {
    if (lockFd >= 0) close(lockFd);
    r.refusal = "another clgrade merge is writing into " + out.string();
    return;
  }
  fs::remove_all(out / ".partial", ec);  // what an interrupted merge left half copied
  fs::create_directories(out / ".partial", ec);

  ordered_json list = ordered_json::array();
  std::vector<Override> applied;  // what the class outputs apply: each piece's, and those naming none
  for (const Override& given : o.overrides)
    if (!pieces.count(given.submission)) applied.push_back(given);
  for (auto& [name, p] : pieces) {
    if (isClassFileName(name)) continue;  // never graded by a batch; never shadows a class file
    if (!alreadyMerged(out / name, p)) {
      if (!copyIn(out, name, p, &err)) {
        r.notWritten.push_back(err);
        continue;
      }
      ++r.copied;
    }
    GradeReport report = p.report;
    const std::vector<Override> own = appliedOverrides(o.overrides, name, p);
    applied.insert(applied.end(), own.begin(), own.end());
    applyOverrides(own, name, &report);
    ordered_json entry = classJsonEntry(name, report);
    if (!p.stale.empty()) {
      entry["stale_overrides"] = staleOverridesJson(p.stale);
      for (const StaleOverride& s : p.stale) r.problems.push_back(name + ": " + s.message);
    }
    list.push_back(entry);
  }
  r.merged = int(list.size());

  // class.json as a single batch writes it: the first shard's, without the shard, for the whole class.
  ordered_json cls = first.cls;
  cls.erase("shard");
  std::set<std::string> devices;
  for (const ShardFolder& s : shards) devices.insert(s.cls.value("device", ""));
  std::string device;
  for (const std::string& d : devices) device += (device.empty() ? "" : "; ") + d;  // nodes with different devices
  cls["device"] = device;
  cls["submissions_found"] = found;
  cls["submissions_graded"] = list.size();
  cls["submissions"] = list;
  if (!writeFileAtomically((out / "class.json").string(), classFileText(cls), &err))
    r.notWritten.push_back(err);
  else
    writeClassOutputs(out.string(), cls, &r.notWritten, applied, &r.problems, o.audience, o.similarity);
  fs::remove_all(out / ".partial", ec);
  close(lockFd);
}

}  // namespace

MergeResult mergeShards(const MergeOptions& o) {
  MergeResult r;
  std::error_code ec;
  const fs::path out = fs::absolute(o.outDir, ec);
  std::vector<ShardFolder> shards;
  if (!loadShards(o, out, &shards, &r) || !oneBatch(shards, &r)) return r;
  std::map<std::string, Piece> pieces;  // sorted by name, as class.json lists them
  int found = 0;
  if (!collectPieces(shards, &pieces, &found, &r)) return r;
  writeMerged(o, out, shards, pieces, found, &r);
  return r;
}

}  // namespace clgrade
