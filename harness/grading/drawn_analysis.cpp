#include "grading/drawn_analysis.h"

#include <tinyxml2.h>

#include <algorithm>
#include <vector>

#include "tasks/task.h"
#include "util/sha256.h"

namespace clgrade {
namespace {

/// Whether a criterion of the task needs a check the simulator counts (a technique criterion).
bool judgesTechnique(const Task& task, const TaskRubric& t) {
  for (const CheckInfo& ci : task.info().checks)
    if (ci.simulated && t.needsCheck(ci.id)) return true;
  return false;
}

int param(const CaseSpec& spec, const char* name) {
  const auto it = spec.params.find(name);
  return it == spec.params.end() ? 0 : std::atoi(it->second.c_str());
}

/// A number from the seeds and the task, the same wherever the same seeds are (the keeper, a runner).
uint64_t drawFor(const HiddenSeeds& seeds, const std::string& taskId) {
  const std::string digest =
      sha256Hex("drawn analysis\n" + std::to_string(seeds.photo) + " " + std::to_string(seeds.scene) + " " +
                std::to_string(seeds.extremes) + "\n" + taskId);
  return std::stoull(digest.substr(0, 15), nullptr, 16);
}

/// The drawn size: whole multiples of `unit` plus the course case's own remainder `rest` (its partial
/// work-groups, and so its rows' padding: 780 x 575 leaves 12 x 15 over 32 x 16, and a row of 780
/// floats is padded to 800 where one of 768 is not), at most `budget` pixels, not the analysis case's
/// size; two work-groups or more across and down where the budget allows (a tile's halo then crosses
/// group boundaries both ways), else two or more in all. A defect the course configuration's shape
/// hides (a halo read from the padding) is a hidden case's matter (spec 5), not the drawn case's.
bool drawSize(std::array<int, 2> unit, std::array<int, 2> rest, long budget, std::array<int, 2> avoid, uint64_t draw,
              std::array<int, 2>* size) {
  std::vector<std::array<int, 2>> tiers[3];  // both ways, one way, a single group
  for (int a = 1; a <= 64; ++a)
    for (int b = 1; b <= 64; ++b) {
      const long w = long(a) * unit[0] + rest[0], h = long(b) * unit[1] + rest[1];
      if (w * h > budget || w > 4096 || h > 4096 || (w == avoid[0] && h == avoid[1])) continue;
      tiers[a >= 2 && b >= 2 ? 0 : a * b >= 2 ? 1 : 2].push_back({int(w), int(h)});
    }
  for (const auto& candidates : tiers)
    if (!candidates.empty()) {
      *size = candidates[draw % candidates.size()];
      return true;
    }
  return false;
}

}  // namespace

Rubric withDrawnAnalysis(const Rubric& rubric, const HiddenSeeds& seeds) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(rubric.text.data(), rubric.text.size()) != tinyxml2::XML_SUCCESS || !doc.RootElement()) return rubric;
  bool added = false;
  for (tinyxml2::XMLElement* taskElement = doc.RootElement()->FirstChildElement("task"); taskElement;
       taskElement = taskElement->NextSiblingElement("task")) {
    const char* id = taskElement->Attribute("id");
    const auto t = std::find_if(rubric.tasks.begin(), rubric.tasks.end(),
                                [&](const TaskRubric& tr) { return id && tr.id == id; });
    const Task* task = id ? findTask(id) : nullptr;
    CaseSpec analysis;
    if (t == rubric.tasks.end() || !task || !t->analysisCase(&analysis) || !t->analysis.drawnCaseId.empty() ||
        t->findCase(kDrawnAnalysisCase) || !judgesTechnique(*task, *t))
      continue;
    const auto course = std::find_if(t->cases.begin(), t->cases.end(), [](const CaseSpec& c) { return c.visible; });
    if (course == t->cases.end()) continue;
    const std::array<int, 2> avoid{param(analysis, "width"), param(analysis, "height")};
    const std::array<int, 2> unit = task->wholeGroupsSize(*course);
    if (unit[0] < 1 || unit[1] < 1) continue;
    const std::array<int, 2> rest{param(*course, "width") % unit[0], param(*course, "height") % unit[1]};
    const long budget =
        std::max(long(unit[0] + rest[0]) * (unit[1] + rest[1]), long(avoid[0]) * avoid[1] * 3 / 2);
    std::array<int, 2> size{0, 0};
    if (!drawSize(unit, rest, budget, avoid, drawFor(seeds, t->id), &size)) continue;
    // The course case's element, as the rubric wrote it, at the drawn size and hidden.
    tinyxml2::XMLElement* courseElement = nullptr;
    for (tinyxml2::XMLElement* c = taskElement->FirstChildElement("case"); c && !courseElement;
         c = c->NextSiblingElement("case"))
      if (c->Attribute("id") && course->id == c->Attribute("id")) courseElement = c;
    tinyxml2::XMLElement* analysisElement = taskElement->FirstChildElement("analysis");
    if (!courseElement || !analysisElement) continue;
    tinyxml2::XMLElement* drawn = courseElement->DeepClone(&doc)->ToElement();
    drawn->SetAttribute("id", kDrawnAnalysisCase);
    drawn->SetAttribute("visible", "false");
    drawn->SetAttribute("width", size[0]);
    drawn->SetAttribute("height", size[1]);
    // After the rubric's own cases: they keep their order (and their share of the evidence crops).
    tinyxml2::XMLElement* lastCase = courseElement;
    for (tinyxml2::XMLElement* c = courseElement; c; c = c->NextSiblingElement("case")) lastCase = c;
    taskElement->InsertAfterChild(lastCase, drawn);
    analysisElement->SetAttribute("drawn", kDrawnAnalysisCase);
    added = true;
  }
  if (!added) return rubric;
  tinyxml2::XMLPrinter printer;
  doc.Print(&printer);
  Rubric withDrawn;
  std::vector<std::string> problems;
  if (!parseRubric(printer.CStr(), rubric.path, &withDrawn, &problems)) return rubric;
  withDrawn.sha256 = rubric.sha256;  // the instructor's file, as it was read
  return withDrawn;
}

std::string withoutDrawnAnalysis(const std::string& rubricText) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(rubricText.data(), rubricText.size()) != tinyxml2::XML_SUCCESS || !doc.RootElement()) return rubricText;
  for (tinyxml2::XMLElement* t = doc.RootElement()->FirstChildElement("task"); t; t = t->NextSiblingElement("task")) {
    if (tinyxml2::XMLElement* analysis = t->FirstChildElement("analysis")) analysis->DeleteAttribute("drawn");
    for (tinyxml2::XMLElement* c = t->FirstChildElement("case"); c;) {
      tinyxml2::XMLElement* next = c->NextSiblingElement("case");
      if (c->Attribute("id", kDrawnAnalysisCase)) t->DeleteChild(c);
      c = next;
    }
  }
  tinyxml2::XMLPrinter printer;
  doc.Print(&printer);
  return printer.CStr();
}

}  // namespace clgrade
