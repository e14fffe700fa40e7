#include "rubric/rubric.h"

#include <tinyxml2.h>

#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include "util/files.h"
#include "util/sha256.h"

namespace clgrade {

double TaskRubric::maxPoints() const {
  double sum = 0;
  for (const Criterion& c : criteria) sum += c.points;
  return sum;
}

bool TaskRubric::analysisCase(CaseSpec* spec) const {
  if (!analysis.present) return false;
  for (const CaseSpec& c : cases) {
    if (c.id != analysis.caseId) continue;
    *spec = c;
    spec->id = "analysis";
    spec->params["width"] = std::to_string(analysis.width);
    spec->params["height"] = std::to_string(analysis.height);
    return true;
  }
  return false;
}

double Rubric::maxPoints() const {
  double sum = 0;
  for (const TaskRubric& t : tasks) sum += t.maxPoints();
  return sum;
}

namespace {

using tinyxml2::XMLElement;

/// Collects "file:line: message" problems.
class Problems {
 public:
  Problems(std::string path, std::vector<std::string>* out) : path_(std::move(path)), out_(out) {}
  void add(int line, const std::string& message) { out_->push_back(path_ + ":" + std::to_string(line) + ": " + message); }
  bool any() const { return !out_->empty(); }

 private:
  std::string path_;
  std::vector<std::string>* out_;
};

bool readBool(const XMLElement* e, const char* name, bool fallback, Problems& problems) {
  const char* v = e->Attribute(name);
  if (!v) return fallback;
  const std::string s = v;
  if (s == "true" || s == "1" || s == "yes") return true;
  if (s == "false" || s == "0" || s == "no") return false;
  problems.add(e->GetLineNum(), std::string("attribute '") + name + "' must be true or false, not '" + s + "'");
  return fallback;
}

double readNumber(const XMLElement* e, const char* name, double fallback, Problems& problems, bool required = false) {
  const char* v = e->Attribute(name);
  if (!v) {
    if (required) problems.add(e->GetLineNum(), std::string("<") + e->Name() + "> needs the attribute '" + name + "'");
    return fallback;
  }
  char* end = nullptr;
  const double d = std::strtod(v, &end);
  if (end == v || *end != '\0' || !std::isfinite(d) || d < 0) {
    problems.add(e->GetLineNum(), std::string("attribute '") + name + "' must be a non-negative number, not '" + v + "'");
    return fallback;
  }
  return d;
}

std::string readId(const XMLElement* e, Problems& problems) {
  const char* v = e->Attribute("id");
  if (!v || !*v) {
    problems.add(e->GetLineNum(), std::string("<") + e->Name() + "> needs an 'id' attribute");
    return "";
  }
  return v;
}

void readSettings(const XMLElement* e, GradeSettings* s, Problems& problems) {
  for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
    const std::string name = a->Name();
    if (name != "skip_last_row" && name != "max_squared_error" && name != "mean_squared_error" &&
        name != "out_of_bounds_writes_fail" && name != "banks" && name != "bank_bytes" && name != "warp_size" &&
        name != "analysis_timeout" && name != "sanitizer_findings_fail" && name != "uninitialized_check" &&
        name != "hardware_conflict_tolerance")
      problems.add(e->GetLineNum(), "unknown setting '" + name + "'");
  }
  s->rule.skipLastRow = readBool(e, "skip_last_row", s->rule.skipLastRow, problems);
  s->rule.maxSquaredError = readNumber(e, "max_squared_error", s->rule.maxSquaredError, problems);
  s->rule.meanSquaredError = readNumber(e, "mean_squared_error", s->rule.meanSquaredError, problems);
  s->outOfBoundsWritesFail = readBool(e, "out_of_bounds_writes_fail", s->outOfBoundsWritesFail, problems);
  s->banks = static_cast<int>(readNumber(e, "banks", s->banks, problems));
  s->bankBytes = static_cast<int>(readNumber(e, "bank_bytes", s->bankBytes, problems));
  s->warpSize = static_cast<int>(readNumber(e, "warp_size", s->warpSize, problems));
  s->analysisTimeoutSeconds = readNumber(e, "analysis_timeout", s->analysisTimeoutSeconds, problems);
  s->sanitizerFindingsFail = readBool(e, "sanitizer_findings_fail", s->sanitizerFindingsFail, problems);
  s->uninitializedCheck = readBool(e, "uninitialized_check", s->uninitializedCheck, problems);
  s->hardwareConflictTolerance = readNumber(e, "hardware_conflict_tolerance", s->hardwareConflictTolerance, problems);
  if (s->banks < 1 || s->bankBytes < 1 || s->warpSize < 1)
    problems.add(e->GetLineNum(), "banks, bank_bytes and warp_size must be at least 1");
}

void readTask(const XMLElement* e, TaskRubric* t, Problems& problems) {
  t->id = readId(e, problems);
  t->line = e->GetLineNum();
  const Task* task = findTask(t->id);
  if (!t->id.empty() && !task) {
    std::string known;
    for (const Task* k : allTasks()) known += (known.empty() ? "" : ", ") + k->info().id;
    problems.add(e->GetLineNum(), "unknown task '" + t->id + "' (known: " + known + ")");
  }
  std::set<std::string> criterionIds, caseIds;
  for (const XMLElement* child = e->FirstChildElement(); child; child = child->NextSiblingElement()) {
    const std::string kind = child->Name();
    if (kind == "criterion") {
      Criterion c;
      c.id = readId(child, problems);
      c.line = child->GetLineNum();
      c.points = readNumber(child, "points", 0, problems, true);
      c.title = child->GetText() ? child->GetText() : (child->Attribute("title") ? child->Attribute("title") : c.id);
      std::istringstream checks(child->Attribute("checks") ? child->Attribute("checks") : "");
      std::string check;
      while (checks >> check) c.checks.push_back(check);
      if (c.checks.empty()) problems.add(c.line, "criterion '" + c.id + "' names no checks (attribute 'checks')");
      if (task) {
        for (const std::string& id : c.checks) {
          bool known = false;
          std::string list;
          for (const CheckInfo& ci : task->info().checks) {
            known = known || ci.id == id;
            list += (list.empty() ? "" : ", ") + ci.id;
          }
          if (!known) problems.add(c.line, "task '" + t->id + "' has no check '" + id + "' (it has: " + list + ")");
        }
      }
      if (!criterionIds.insert(c.id).second) problems.add(c.line, "criterion id '" + c.id + "' appears twice");
      t->criteria.push_back(c);
    } else if (kind == "case") {
      CaseSpec spec;
      spec.id = readId(child, problems);
      spec.line = child->GetLineNum();
      spec.visible = readBool(child, "visible", false, problems);
      for (const tinyxml2::XMLAttribute* a = child->FirstAttribute(); a; a = a->Next()) {
        const std::string name = a->Name();
        if (name != "id" && name != "visible") spec.params[name] = a->Value();
      }
      std::string err;
      if (task && !task->validateCase(spec, &err)) problems.add(spec.line, err);
      if (!caseIds.insert(spec.id).second) problems.add(spec.line, "case id '" + spec.id + "' appears twice");
      t->cases.push_back(spec);
    } else if (kind == "analysis") {
      if (t->analysis.present) problems.add(child->GetLineNum(), "a task has at most one <analysis>");
      t->analysis.present = true;
      t->analysis.line = child->GetLineNum();
      t->analysis.caseId = child->Attribute("case") ? child->Attribute("case") : "";
      t->analysis.width = static_cast<int>(readNumber(child, "width", 0, problems, true));
      t->analysis.height = static_cast<int>(readNumber(child, "height", 0, problems, true));
      if (t->analysis.width < 1 || t->analysis.height < 1)
        problems.add(child->GetLineNum(), "<analysis> needs a width and a height of at least 1");
    } else {
      problems.add(child->GetLineNum(),
                   "unexpected <" + kind + "> inside <task> (expected <criterion>, <case> or <analysis>)");
    }
  }
  if (t->analysis.present) {
    CaseSpec spec;
    std::string err;
    if (!t->analysisCase(&spec))
      problems.add(t->analysis.line, "<analysis case=\"" + t->analysis.caseId + "\"> names no case of this task");
    else if (task && !task->validateCase(spec, &err))
      problems.add(t->analysis.line, err);
  }
  if (task) {
    for (const Criterion& c : t->criteria)
      for (const std::string& id : c.checks)
        for (const CheckInfo& ci : task->info().checks)
          if (ci.id == id && ci.simulated && !t->analysis.present)
            problems.add(c.line, "criterion '" + c.id + "' needs the simulated check '" + id +
                                     "': the task needs an <analysis case=\"...\" width=\"...\" height=\"...\"/>");
  }
  if (t->criteria.empty()) problems.add(t->line, "task '" + t->id + "' has no <criterion>");
  if (t->cases.empty()) problems.add(t->line, "task '" + t->id + "' has no <case>");
}

}  // namespace

bool parseRubric(const std::string& text, const std::string& path, Rubric* rubric, std::vector<std::string>* errors) {
  Problems problems(path, errors);
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
    // tinyxml2's ErrorStr repeats name and line; keep only its detail ("XMLElement name=task").
    std::string detail = doc.ErrorStr() ? doc.ErrorStr() : "";
    const size_t colon = detail.find(": ", detail.find("Line number="));
    detail = colon == std::string::npos ? "" : " (" + detail.substr(colon + 2) + ")";
    problems.add(doc.ErrorLineNum(), std::string("not well-formed XML: ") + doc.ErrorName() + detail);
    return false;
  }
  const XMLElement* root = doc.RootElement();
  if (!root || std::string(root->Name()) != "rubric") {
    problems.add(root ? root->GetLineNum() : 1, "the root element must be <rubric>");
    return false;
  }
  *rubric = Rubric();
  rubric->path = path;
  rubric->sha256 = sha256Hex(text);
  rubric->id = readId(root, problems);
  rubric->title = root->Attribute("title") ? root->Attribute("title") : rubric->id;
  std::set<std::string> taskIds;
  for (const XMLElement* child = root->FirstChildElement(); child; child = child->NextSiblingElement()) {
    const std::string kind = child->Name();
    if (kind == "settings") {
      readSettings(child, &rubric->settings, problems);
    } else if (kind == "task") {
      TaskRubric t;
      readTask(child, &t, problems);
      if (!taskIds.insert(t.id).second) problems.add(t.line, "task '" + t.id + "' appears twice");
      rubric->tasks.push_back(t);
    } else {
      problems.add(child->GetLineNum(), "unexpected <" + kind + "> inside <rubric> (expected <settings> or <task>)");
    }
  }
  if (rubric->tasks.empty()) problems.add(root->GetLineNum(), "the rubric has no <task>");
  const double declared = readNumber(root, "points", -1, problems);
  if (declared >= 0 && std::fabs(declared - rubric->maxPoints()) > 1e-9) {
    std::ostringstream m;
    m << "the rubric declares points=\"" << declared << "\" but its criteria add up to " << rubric->maxPoints();
    problems.add(root->GetLineNum(), m.str());
  }
  return !problems.any();
}

bool loadRubric(const std::string& path, Rubric* rubric, std::vector<std::string>* errors) {
  std::string text, err;
  if (!readFile(path, &text, &err, size_t(4) << 20)) {
    errors->push_back(path + ":0: " + err);
    return false;
  }
  return parseRubric(text, path, rubric, errors);
}

}  // namespace clgrade
