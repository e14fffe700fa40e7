#include "rubric/rubric.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>

#include "util/files.h"
#include "util/markup.h"
#include "util/sha256.h"

namespace clgrade {

double TaskRubric::maxPoints() const {
  double sum = 0;
  for (const Criterion& c : criteria)
    if (!c.deduction) sum += c.points;
  return sum;
}

bool TaskRubric::analysisCase(CaseSpec* spec) const {
  if (!analysis.present) return false;
  for (const CaseSpec& c : cases) {
    if (c.id != analysis.caseId) continue;
    *spec = c;
    spec->id = "analysis";
    // Without a size of its own the simulator runs the graded case itself (spec section 5b).
    if (analysis.width > 0) spec->params["width"] = std::to_string(analysis.width);
    if (analysis.height > 0) spec->params["height"] = std::to_string(analysis.height);
    return true;
  }
  return false;
}

bool TaskRubric::drawnAnalysisCase(CaseSpec* spec) const {
  if (!analysis.present || analysis.drawnCaseId.empty()) return false;
  const CaseSpec* drawn = findCase(analysis.drawnCaseId);
  if (!drawn) return false;
  *spec = *drawn;
  spec->id = "analysis_drawn";
  return true;
}

bool TaskRubric::needsCheck(const std::string& id) const {
  for (const Criterion& c : criteria)
    if (std::find(c.checks.begin(), c.checks.end(), id) != c.checks.end()) return true;
  return false;
}

const CaseSpec* TaskRubric::findCase(const std::string& id) const {
  for (const CaseSpec& c : cases)
    if (c.id == id) return &c;
  return nullptr;
}

bool TaskRubric::performanceCase(bool gpu, CaseSpec* spec) const {
  const CaseSpec* c = performance.present ? findCase(performance.caseId) : nullptr;
  if (!c) return false;
  *spec = *c;
  spec->id = "performance";
  const bool timingSize = gpu || performance.timingSizeOnCpu;
  if (timingSize && performance.width > 0) spec->params["width"] = std::to_string(performance.width);
  if (timingSize && performance.height > 0) spec->params["height"] = std::to_string(performance.height);
  return true;
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
  void add(int line, const std::string& message) {
    out_->push_back(path_ + ":" + std::to_string(line) + ": " + message);
  }
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

/// The largest number of points a criterion, and a whole rubric, may carry: far beyond any course,
/// far below where sums lose their units or overflow.
constexpr double kMaxPoints = 1e6;
/// The largest image side, case size or sweep dimension a rubric may ask for.
constexpr double kMaxSide = 65536;

/// An element as messages name it: <criterion id="speed">.
std::string element(const XMLElement* e) {
  const char* id = e->Attribute("id");
  return std::string("<") + e->Name() + (id ? " id=\"" + terminalText(id) + "\"" : "") + ">";
}

double readNumber(const XMLElement* e, const char* name, double fallback, Problems& problems, bool required = false,
                  double max = 1e9) {
  const char* v = e->Attribute(name);
  if (!v) {
    if (required) problems.add(e->GetLineNum(), std::string("<") + e->Name() + "> needs the attribute '" + name + "'");
    return fallback;
  }
  char* end = nullptr;
  const double d = std::strtod(v, &end);
  if (end == v || *end != '\0' || !std::isfinite(d) || d < 0) {
    problems.add(e->GetLineNum(), std::string("attribute '") + name + "' must be a non-negative number, not '" +
                                      terminalText(v) + "' (in " + element(e) + ")");
    return fallback;
  }
  if (d > max) {
    std::ostringstream m;
    m << "attribute '" << name << "' is " << d << " (in " << element(e) << "); at most " << max << " is allowed";
    problems.add(e->GetLineNum(), m.str());
    return fallback;
  }
  return d;
}

/// A whole number in [0, max]: counts and sizes become ints, and a double beyond an int's range
/// converted to one is undefined behaviour.
int readCount(const XMLElement* e, const char* name, int fallback, Problems& problems, double max,
              bool required = false) {
  const double d = readNumber(e, name, fallback, problems, required, max);
  if (d != std::floor(d)) {
    problems.add(e->GetLineNum(),
                 std::string("attribute '") + name + "' must be a whole number (in " + element(e) + ")");
    return fallback;
  }
  return static_cast<int>(d);
}

/// Why `id` cannot be an id, or "". Ids become file names (evidence/<task>/<case>_diff.png), JSON
/// keys, CSV columns and command-line arguments: letters, digits, '_', '-' and '.', never a
/// leading '.' or "..", so none can leave the report folder or hide a file.
std::string idProblem(const std::string& id) {
  if (id.size() > 64) return "is longer than 64 characters";
  for (char c : id)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
      return "may hold only letters, digits, '_', '-' and '.'";
  if (id.front() == '.') return "may not start with '.'";
  if (id.find("..") != std::string::npos) return "may not hold '..'";
  return "";
}

std::string readId(const XMLElement* e, Problems& problems) {
  const char* v = e->Attribute("id");
  if (!v || !*v) {
    problems.add(e->GetLineNum(), std::string("<") + e->Name() + "> needs an 'id' attribute");
    return "";
  }
  const std::string problem = idProblem(v);
  if (!problem.empty()) {
    problems.add(e->GetLineNum(), std::string("the id of <") + e->Name() + "> ('" + terminalText(v) + "') " + problem);
    return terminalText(v);  // for later messages only: the rubric is refused
  }
  return v;
}

/// Space-separated numbers of attribute `name` ("1 2 4 8").
std::vector<double> readList(const XMLElement* e, const char* name, Problems& problems, double max) {
  std::vector<double> values;
  std::istringstream in(e->Attribute(name) ? e->Attribute(name) : "");
  std::string word;
  while (in >> word) {
    char* end = nullptr;
    const double d = std::strtod(word.c_str(), &end);
    if (*end != '\0' || !std::isfinite(d) || d <= 0 || d > max || d != std::floor(d))
      problems.add(e->GetLineNum(), std::string("attribute '") + name + "': '" + terminalText(word) +
                                        "' is not a whole number from 1 to " + std::to_string(int(max)) + " (in " +
                                        element(e) + ")");
    else
      values.push_back(d);
  }
  return values;
}

void readPerfSettings(const XMLElement* e, PerfSettings* p, Problems& problems) {
  p->warmups = readCount(e, "perf_warmups", p->warmups, problems, 10000);
  p->runs = readCount(e, "perf_runs", p->runs, problems, 100000);
  p->maxCv = readNumber(e, "perf_max_cv", p->maxCv, problems);
  p->minTimerMultiple = readNumber(e, "perf_min_timer_multiple", p->minTimerMultiple, problems);
  p->cpuRuns = readCount(e, "perf_cpu_runs", p->cpuRuns, problems, 100000);
  if (p->runs < 3 || p->cpuRuns < 1)
    problems.add(e->GetLineNum(), "perf_runs must be at least 3 (a median and a spread) and perf_cpu_runs at least 1");
}

void readSettings(const XMLElement* e, GradeSettings* s, Problems& problems) {
  for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
    const std::string name = a->Name();
    if (name != "skip_last_row" && name != "max_squared_error" && name != "mean_squared_error" && name != "banks" &&
        name != "bank_bytes" && name != "warp_size" && name != "analysis_timeout" &&
        name != "sanitizer_findings_fail" && name != "uninitialized_check" && name != "hardware_conflict_tolerance" &&
        name != "weight_order" && name.rfind("perf_", 0) != 0)
      if (name != "out_of_bounds_writes_fail") problems.add(e->GetLineNum(), "unknown setting '" + name + "'");
  }
  for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
    const std::string name = a->Name();
    if (name.rfind("perf_", 0) == 0 && name != "perf_warmups" && name != "perf_runs" && name != "perf_max_cv" &&
        name != "perf_min_timer_multiple" && name != "perf_cpu_runs")
      problems.add(e->GetLineNum(), "unknown setting '" + name + "'");
  }
  s->rule.skipLastRow = readBool(e, "skip_last_row", s->rule.skipLastRow, problems);
  s->rule.maxSquaredError = readNumber(e, "max_squared_error", s->rule.maxSquaredError, problems);
  s->rule.meanSquaredError = readNumber(e, "mean_squared_error", s->rule.meanSquaredError, problems);
  if (e->Attribute("out_of_bounds_writes_fail"))
    problems.add(e->GetLineNum(),
                 "the setting out_of_bounds_writes_fail is gone: writes outside the image are the check 'writes' of "
                 "every task, and cost what a <deduction checks=\"writes\" points=\"...\"> gives (spec section 5)");
  s->banks = readCount(e, "banks", s->banks, problems, 1024);
  s->bankBytes = readCount(e, "bank_bytes", s->bankBytes, problems, 1024);
  s->warpSize = readCount(e, "warp_size", s->warpSize, problems, 1024);
  s->analysisTimeoutSeconds = readNumber(e, "analysis_timeout", s->analysisTimeoutSeconds, problems, false, 86400);
  s->sanitizerFindingsFail = readBool(e, "sanitizer_findings_fail", s->sanitizerFindingsFail, problems);
  s->uninitializedCheck = readBool(e, "uninitialized_check", s->uninitializedCheck, problems);
  s->hardwareConflictTolerance = readNumber(e, "hardware_conflict_tolerance", s->hardwareConflictTolerance, problems);
  if (const char* order = e->Attribute("weight_order")) {
    const std::string value = order;
    if (value != "either" && value != "reference")
      problems.add(e->GetLineNum(),
                   "weight_order must be 'either' (k[R-k] or k[R+k] per pass) or 'reference' (k[R-k])");
    s->eitherWeightOrder = value != "reference";
  }
  if (s->banks < 1 || s->bankBytes < 1 || s->warpSize < 1)
    problems.add(e->GetLineNum(), "banks, bank_bytes and warp_size must be at least 1");
}

/// The kernel name of a signature "ConvHorizontal(__global ...".
std::string kernelName(const std::string& signature) { return signature.substr(0, signature.find('(')); }

/// visibility="...": who sees a criterion's test on Gradescope, and when ("" when not given).
std::string readVisibility(const XMLElement* e, Problems& problems) {
  const char* v = e->Attribute("visibility");
  if (!v) return "";
  const std::string value = v;
  for (const char* known : {"visible", "hidden", "after_due_date", "after_published"})
    if (value == known) return value;
  problems.add(e->GetLineNum(), "attribute 'visibility' is '" + terminalText(value) +
                                    "' (expected visible, hidden, after_due_date or after_published)");
  return "";
}

/// A performance criterion: performance="kernel ..." and <level ratio="..." points="..."/> children.
void readSpeed(const XMLElement* e, const Task* task, Criterion* c, Problems& problems) {
  std::istringstream kernels(e->Attribute("performance") ? e->Attribute("performance") : "");
  std::string k;
  while (kernels >> k) {
    bool known = !task;
    std::string list;
    if (task)
      for (const std::string& sig : task->info().kernels) {
        known = known || kernelName(sig) == k;
        list += (list.empty() ? "" : ", ") + kernelName(sig);
      }
    if (!known)
      problems.add(c->line, "criterion '" + c->id + "': the task has no kernel '" + k + "' (it has: " + list + ")");
    c->kernels.push_back(k);
  }
  for (const XMLElement* l = e->FirstChildElement(); l; l = l->NextSiblingElement()) {
    if (std::string(l->Name()) != "level") {
      problems.add(l->GetLineNum(),
                   std::string("unexpected <") + l->Name() + "> inside <criterion> (expected <level>)");
      continue;
    }
    SpeedLevel level{readNumber(l, "ratio", 0, problems, true, 1e6),
                     readNumber(l, "points", 0, problems, true, kMaxPoints)};
    if (level.ratio <= 0) problems.add(l->GetLineNum(), "<level ratio> must be above 0");
    if (level.points > c->points) problems.add(l->GetLineNum(), "<level points> cannot exceed the criterion's points");
    if (!c->levels.empty() && level.ratio <= c->levels.back().ratio)
      problems.add(l->GetLineNum(), "<level> elements must have increasing ratios");
    c->levels.push_back(level);
  }
  if (c->kernels.empty() != c->levels.empty())
    problems.add(c->line, "criterion '" + c->id +
                              "': a performance criterion needs both performance=\"kernels\" and <level> elements");
}

/// <performance> and <sweep> name a case of the task, and every sweep point is a valid case.
void checkPerformanceAndSweep(const Task* task, const TaskRubric& t, Problems& problems) {
  std::string err;
  if (t.performance.present) {
    CaseSpec spec;
    if (!t.performanceCase(true, &spec))
      problems.add(t.performance.line,
                   "<performance case=\"" + t.performance.caseId + "\"> names no case of this task");
    else if (task && !task->validateCase(spec, &err))
      problems.add(t.performance.line, err);
  }
  if (!t.sweep.present) return;
  const CaseSpec* base = t.findCase(t.sweep.caseId);
  if (!base) {
    problems.add(t.sweep.line, "<sweep case=\"" + t.sweep.caseId + "\"> names no case of this task");
    return;
  }
  bool swept = false;
  if (task)
    for (const CheckInfo& ci : task->info().checks) swept = swept || ci.swept;
  if (task && !swept) problems.add(t.sweep.line, "task '" + t.id + "' has no check a <sweep> decides");
  for (int steps : t.sweep.steps)
    for (const auto& g : t.sweep.groups) {
      CaseSpec spec = sweepPoint(*base, steps, g);
      if (task && !task->validateCase(spec, &err)) {
        problems.add(t.sweep.line, "sweep point " + spec.id + ": " + err);
        return;
      }
    }
}

/// A <criterion> or <deduction>: its checks (each a check of `task`), points and speed levels.
Criterion readCriterion(const XMLElement* child, const Task* task, const std::string& taskId, Problems& problems) {
  const std::string kind = child->Name();
  Criterion c;
  c.deduction = kind == "deduction";
  c.id = readId(child, problems);
  c.line = child->GetLineNum();
  c.visibility = readVisibility(child, problems);
  c.points = readNumber(child, "points", 0, problems, true, kMaxPoints);
  c.title = child->GetText() ? child->GetText() : (child->Attribute("title") ? child->Attribute("title") : c.id);
  c.title.erase(c.title.find_last_not_of(" \t\r\n") + 1);  // the text before a <level> ends in its indentation
  std::istringstream checks(child->Attribute("checks") ? child->Attribute("checks") : "");
  std::string check;
  while (checks >> check) {
    // "output@visible": the check over the visible cases only (or @hidden).
    const size_t at = check.find('@');
    if (at != std::string::npos) {
      const std::string set = check.substr(at + 1);
      check.erase(at);
      if (set != "visible" && set != "hidden")
        problems.add(c.line, "criterion '" + c.id + "': '" + terminalText(check + "@" + set) +
                                 "' names an unknown case set (use @visible or @hidden)");
      c.caseSets[check] = set;
    }
    const std::string problem = idProblem(check);
    if (problem.empty())
      c.checks.push_back(check);
    else
      problems.add(c.line, "criterion '" + c.id + "': check '" + terminalText(check) + "' " + problem);
  }
  if (c.checks.empty()) problems.add(c.line, "criterion '" + c.id + "' names no checks (attribute 'checks')");
  readSpeed(child, task, &c, problems);
  if (c.deduction && !c.kernels.empty())
    problems.add(c.line, "deduction '" + c.id + "' cannot grade speed (performance=\"...\" is for a <criterion>)");
  if (task) {
    for (const std::string& id : c.checks) {
      bool known = false;
      std::string list;
      for (const CheckInfo& ci : task->info().checks) {
        known = known || ci.id == id;
        list += (list.empty() ? "" : ", ") + ci.id;
      }
      if (!known) problems.add(c.line, "task '" + taskId + "' has no check '" + id + "' (it has: " + list + ")");
    }
  }
  return c;
}

/// A <case>: its id, visibility and parameters, validated by the task.
CaseSpec readCase(const XMLElement* child, const Task* task, Problems& problems) {
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
  return spec;
}

void readPerformance(const XMLElement* child, TaskRubric* t, Problems& problems) {
  if (t->performance.present) problems.add(child->GetLineNum(), "a task has at most one <performance>");
  t->performance.present = true;
  t->performance.line = child->GetLineNum();
  t->performance.caseId = child->Attribute("case") ? child->Attribute("case") : "";
  t->performance.width = readCount(child, "width", 0, problems, kMaxSide);
  t->performance.height = readCount(child, "height", 0, problems, kMaxSide);
  if (const char* onCpu = child->Attribute("size_on_cpu")) {
    const std::string v = onCpu;
    if (v != "timing" && v != "case")
      problems.add(child->GetLineNum(), "<performance size_on_cpu> must be \"timing\" or \"case\"");
    t->performance.timingSizeOnCpu = v == "timing";
  }
}

void readSweep(const XMLElement* child, TaskRubric* t, Problems& problems) {
  if (t->sweep.present) problems.add(child->GetLineNum(), "a task has at most one <sweep>");
  t->sweep.present = true;
  t->sweep.line = child->GetLineNum();
  t->sweep.caseId = child->Attribute("case") ? child->Attribute("case") : "";
  for (double v : readList(child, "steps", problems, 1024)) t->sweep.steps.push_back(static_cast<int>(v));
  std::istringstream groups(child->Attribute("groups") ? child->Attribute("groups") : "");
  std::string g;
  while (groups >> g) {
    int x = 0, y = 0;
    char sep = 0, extra = 0;
    if (g.size() > 16 || std::sscanf(g.c_str(), "%d%c%d%c", &x, &sep, &y, &extra) != 3 || sep != 'x' || x < 1 ||
        y < 1 || x > 4096 || y > 4096)
      problems.add(child->GetLineNum(), "<sweep groups>: '" + terminalText(g) + "' is not a group size like 32x16");
    else
      t->sweep.groups.push_back({x, y});
  }
  t->sweep.width = readCount(child, "width", 0, problems, kMaxSide);
  t->sweep.height = readCount(child, "height", 0, problems, kMaxSide);
  if (t->sweep.steps.empty() || t->sweep.groups.empty())
    problems.add(child->GetLineNum(), "<sweep> needs steps=\"1 2 ...\" and groups=\"32x16 ...\"");
}

void readAnalysis(const XMLElement* child, TaskRubric* t, Problems& problems) {
  if (t->analysis.present) problems.add(child->GetLineNum(), "a task has at most one <analysis>");
  t->analysis.present = true;
  t->analysis.line = child->GetLineNum();
  t->analysis.caseId = child->Attribute("case") ? child->Attribute("case") : "";
  t->analysis.drawnCaseId = child->Attribute("drawn") ? child->Attribute("drawn") : "";
  const bool sized = child->Attribute("width") || child->Attribute("height");
  t->analysis.width = readCount(child, "width", 0, problems, kMaxSide, sized);
  t->analysis.height = readCount(child, "height", 0, problems, kMaxSide, sized);
  if (sized && (t->analysis.width < 1 || t->analysis.height < 1))
    problems.add(child->GetLineNum(),
                 "<analysis> needs both a width and a height of at least 1, or neither "
                 "(the case at its own size)");
}

/// What a task needs as a whole: a valid analysis case, the <analysis>, <sweep> and <performance>
/// its criteria's checks need, a criterion, a case.
void checkTask(const Task* task, const TaskRubric* t, Problems& problems) {
  if (t->analysis.present) {
    CaseSpec spec;
    std::string err;
    if (!t->analysisCase(&spec))
      problems.add(t->analysis.line, "<analysis case=\"" + t->analysis.caseId + "\"> names no case of this task");
    else if (task && !task->validateCase(spec, &err))
      problems.add(t->analysis.line, err);
    if (!t->analysis.drawnCaseId.empty() && !t->drawnAnalysisCase(&spec))
      problems.add(t->analysis.line, "<analysis drawn=\"" + t->analysis.drawnCaseId + "\"> names no case of this task");
  }
  checkPerformanceAndSweep(task, *t, problems);
  if (task) {
    for (const Criterion& c : t->criteria) {
      for (const std::string& id : c.checks)
        for (const CheckInfo& ci : task->info().checks) {
          if (ci.id == id && ci.simulated && !t->analysis.present)
            problems.add(c.line, "criterion '" + c.id + "' needs the simulated check '" + id +
                                     "': the task needs an <analysis case=\"...\" width=\"...\" height=\"...\"/>");
          if (ci.id == id && ci.swept && !t->sweep.present)
            problems.add(c.line, "criterion '" + c.id + "' needs the check '" + id +
                                     "': the task needs a <sweep case=\"...\" steps=\"...\" groups=\"...\"/>");
        }
      if (!c.kernels.empty() && !t->performance.present)
        problems.add(c.line, "criterion '" + c.id + "' grades speed: the task needs a <performance case=\"...\"/>");
    }
  }
  if (std::none_of(t->criteria.begin(), t->criteria.end(), [](const Criterion& c) { return !c.deduction; }))
    problems.add(t->line, "task '" + t->id + "' has no <criterion>");
  if (t->cases.empty()) problems.add(t->line, "task '" + t->id + "' has no <case>");
}

void readTask(const XMLElement* e, TaskRubric* t, Problems& problems) {
  t->id = readId(e, problems);
  t->visibility = readVisibility(e, problems);
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
    if (kind == "criterion" || kind == "deduction") {
      Criterion c = readCriterion(child, task, t->id, problems);
      if (!criterionIds.insert(c.id).second) problems.add(c.line, "criterion id '" + c.id + "' appears twice");
      t->criteria.push_back(c);
    } else if (kind == "case") {
      CaseSpec spec = readCase(child, task, problems);
      if (!caseIds.insert(spec.id).second) problems.add(spec.line, "case id '" + spec.id + "' appears twice");
      t->cases.push_back(spec);
    } else if (kind == "performance") {
      readPerformance(child, t, problems);
    } else if (kind == "sweep") {
      readSweep(child, t, problems);
    } else if (kind == "analysis") {
      readAnalysis(child, t, problems);
    } else {
      problems.add(child->GetLineNum(),
                   "unexpected <" + kind +
                       "> inside <task> (expected <criterion>, <deduction>, <case>, <analysis>, <performance> or "
                       "<sweep>)");
    }
  }
  checkTask(task, t, problems);
}

}  // namespace

/// tinyxml2's error in words, naming the element where it has one ("XMLElement name=task").
std::string xmlErrorInWords(const tinyxml2::XMLDocument& doc) {
  std::string detail = doc.ErrorStr() ? doc.ErrorStr() : "";
  const size_t name = detail.find("name=", detail.find("Line number="));
  const std::string element = name == std::string::npos ? "" : detail.substr(name + 5);
  const std::string at = element.empty() ? "" : " <" + element + ">";
  switch (doc.ErrorID()) {
    case tinyxml2::XML_ERROR_EMPTY_DOCUMENT:
      return "the file is empty: a rubric is one <rubric> element";
    case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT:
      return "element" + at + " is closed by another element's end tag (or never closed)";
    case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE:
      return "an attribute of" + (at.empty() ? std::string(" an element") : at) +
             " cannot be read (a value needs quotes: id=\"x\")";
    case tinyxml2::XML_ERROR_PARSING_ELEMENT:
      return "element" + at + " cannot be read (a tag not closed by '>'?)";
    case tinyxml2::XML_ERROR_PARSING_COMMENT:
      return "a comment is not closed by -->";
    case tinyxml2::XML_ERROR_PARSING_CDATA:
      return "a CDATA section is not closed by ]]>";
    case tinyxml2::XML_ERROR_PARSING_TEXT:
      return "text cannot be read (a '<' or '&' that should be &lt; or &amp;?)";
    case tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED:
      return "elements are nested too deeply";
    default:
      return "it ends before every element is closed, or holds something that is not XML";
  }
}

bool parseRubric(const std::string& text, const std::string& path, Rubric* rubric, std::vector<std::string>* errors) {
  Problems problems(path, errors);
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
    // Line 0 is tinyxml2's for "no line" (an empty file): the first.
    problems.add(std::max(1, doc.ErrorLineNum()), "not well-formed XML: " + xmlErrorInWords(doc));
    return false;
  }
  const XMLElement* root = doc.RootElement();
  if (!root || std::string(root->Name()) != "rubric") {
    problems.add(root ? root->GetLineNum() : 1, "the root element must be <rubric>");
    return false;
  }
  *rubric = Rubric();
  rubric->path = path;
  rubric->text = text;
  rubric->sha256 = sha256Hex(text);
  rubric->id = readId(root, problems);
  rubric->title = root->Attribute("title") ? root->Attribute("title") : rubric->id;
  std::set<std::string> taskIds;
  for (const XMLElement* child = root->FirstChildElement(); child; child = child->NextSiblingElement()) {
    const std::string kind = child->Name();
    if (kind == "settings") {
      readSettings(child, &rubric->settings, problems);
      readPerfSettings(child, &rubric->perf, problems);
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
  // Each criterion is bounded, their sum need not be: 1e6 criteria of 1e6 points would do.
  if (!(rubric->maxPoints() <= kMaxPoints)) {
    std::ostringstream m;
    m << "the criteria add up to " << rubric->maxPoints() << " points; a rubric may total at most " << kMaxPoints;
    problems.add(root->GetLineNum(), m.str());
  }
  const double declared = readNumber(root, "points", -1, problems, false, kMaxPoints);
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

bool loadRubricOrComplain(const std::string& path, Rubric* rubric, const std::string& who) {
  std::vector<std::string> problems;
  if (loadRubric(path, rubric, &problems)) return true;
  std::cerr << who << ": the rubric cannot be used:\n";
  for (const std::string& p : problems) std::cerr << "  " << p << "\n";
  return false;
}

std::string rubricForTask(const Rubric& rubric, const std::string& taskId) {
  return rubricForTasks(rubric, {taskId});
}

std::string rubricForTasks(const Rubric& rubric, const std::vector<std::string>& taskIds) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(rubric.text.data(), rubric.text.size()) != tinyxml2::XML_SUCCESS || !doc.RootElement()) return "";
  XMLElement* root = doc.RootElement();
  root->DeleteAttribute("points");  // the whole rubric's total: the part holds some tasks' only
  for (XMLElement* child = root->FirstChildElement(); child;) {
    XMLElement* next = child->NextSiblingElement();
    const char* id = child->Attribute("id");
    const bool kept = id && std::find(taskIds.begin(), taskIds.end(), std::string(id)) != taskIds.end();
    if (std::string(child->Name()) == "task" && !kept) root->DeleteChild(child);
    child = next;
  }
  tinyxml2::XMLPrinter printer;
  doc.Print(&printer);
  return printer.CStr();
}

}  // namespace clgrade
