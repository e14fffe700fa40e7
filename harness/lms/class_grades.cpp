#include "lms/class_grades.h"

#include <filesystem>
#include <map>
#include <regex>

#include <nlohmann/json.hpp>

#include "report/class_roster.h"
#include "report/text.h"
#include "roster/roster_json.h"
#include "util/files.h"

namespace clgrade {

using nlohmann::ordered_json;

namespace {

double number(const ordered_json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::string text(const ordered_json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

bool readClassGrades(const std::string& classDir, const Roster* givenRoster, ClassGrades* out, std::string* err) {
  const std::string path = (std::filesystem::path(classDir) / "class.json").string();
  std::string bytes;
  if (!readFile(path, &bytes, err)) {
    *err += " (give the --out folder of a clgrade batch or merge)";
    return false;
  }
  ordered_json cls;
  try {
    cls = ordered_json::parse(bytes);
  } catch (const nlohmann::json::exception& e) {
    *err = path + " is not JSON: " + e.what();
    return false;
  }
  if (!cls.is_object() || text(cls, "schema") != "clgrade-class/1" || !cls.contains("submissions") ||
      !cls["submissions"].is_array()) {
    *err = path + " is not a clgrade class file (schema clgrade-class/1)";
    return false;
  }
  if (cls.contains("shard")) {
    *err = path + " is one shard's: export the folder `clgrade merge` wrote";
    return false;
  }
  if (cls.contains("rubric") && cls["rubric"].is_object()) out->rubricTitle = text(cls["rubric"], "title");

  // Each submission as a class entry (class.json's totals have the overrides applied), so that the
  // roster is matched exactly as the gradebook matched it (report/class_roster.h).
  std::vector<ClassEntry> entries;
  std::map<std::string, std::string> feedback;
  for (const ordered_json& s : cls["submissions"]) {
    if (!s.is_object()) continue;
    ClassEntry e;
    e.submission = text(s, "submission");
    if (e.submission.empty()) continue;
    if (const std::string fault = text(s, "not_graded"); !fault.empty()) {
      e.problem = "not graded: " + fault;
    } else {
      e.graded = true;
      e.report.total = number(s, "total");
      e.report.max = number(s, "max");
      std::string points, problems;
      if (s.contains("tasks") && s["tasks"].is_array())
        for (const ordered_json& t : s["tasks"]) {
          if (!t.is_object()) continue;
          points += (points.empty() ? "" : ", ") + text(t, "id") + " " + formatPoints(number(t, "points")) + "/" +
                    formatPoints(number(t, "max"));
          if (const std::string p = text(t, "problem"); !p.empty())
            problems += "; " + text(t, "id") + ": " + p;
        }
      feedback[e.submission] = "clgrade: " + formatPoints(e.report.total) + "/" + formatPoints(e.report.max) +
                               (points.empty() ? "" : " (" + points + ")") + problems;
      if (out->max == 0) out->max = e.report.max;
    }
    entries.push_back(e);
  }
  Roster roster;
  if (givenRoster)
    roster = *givenRoster;
  else if (cls.contains("roster"))
    roster = rosterFromJson(cls["roster"]);
  out->roster = !roster.empty();
  for (const ClassEntry& e : classWithRoster(entries, roster, &out->notes)) {
    ClassGrade g;
    g.student = e.student;
    g.submission = e.handedIn ? e.submission : "";
    g.handedIn = e.handedIn;
    g.graded = e.graded;
    g.total = e.report.total;
    g.max = e.report.max;
    g.problem = e.problem;
    const auto f = feedback.find(e.submission);
    g.feedback = f == feedback.end() || !e.handedIn ? e.problem : f->second;
    out->grades.push_back(g);
  }
  return true;
}

std::string moodleParticipant(const std::string& submission) {
  // Moodle's download_submissions(): clean_filename(fullname with '_' as ' ') . '_' . uniqueid, then
  // '_<plugin>_' (folders mode) or the file name: the first '_' ends the name.
  static const std::regex pattern("^[^_]*_([0-9]+)_assignsubmission_[a-z]+_.*$");
  std::smatch m;
  return std::regex_match(submission, m, pattern) ? m[1].str() : "";
}

std::string iliasUserId(const std::string& submission) {
  // ILIAS's downloadAllAssignmentFiles(): getASCIIFilename(lastname_firstname_login_usrid). Four
  // parts at least: "alice_2" (a second try) must not become user 2's mark.
  static const std::regex pattern("^[^_]+_.+_[^_]+_([0-9]+)$");
  std::smatch m;
  return std::regex_match(submission, m, pattern) ? m[1].str() : "";
}

}  // namespace clgrade
