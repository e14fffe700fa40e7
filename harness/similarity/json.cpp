#include "similarity/json.h"

#include <cmath>

namespace clgrade {
namespace {

double rounded(double v) { return std::round(v * 100) / 100; }

}  // namespace

nlohmann::ordered_json similarityJson(const ClassSimilarity& s) {
  nlohmann::ordered_json j{{"measured", s.measured}};
  if (!s.measured) {
    j["problem"] = s.problem;
    return j;
  }
  j["never_a_grade"] = "similarity is for the instructor to look at; it never changes a grade";
  j["method"] =
      "sim_c -p -e -a (similarity-tester) on each task file without comments and without the template's lines; "
      "a pair's score is the larger of its two directed percentages; flagged when its robust z-score (median, "
      "1.4826 MAD) in its task's distribution is at least 3.5 and its score at least 50 %, in a class of at "
      "least 4 submissions with the file";
  nlohmann::ordered_json tasks = nlohmann::ordered_json::array();
  for (const TaskSimilarity& t : s.tasks) {
    nlohmann::ordered_json task{{"task", t.task}, {"file", t.file}, {"compared", t.compared}, {"pairs", t.pairs}};
    if (!t.problem.empty()) {
      task["problem"] = t.problem;
      tasks.push_back(task);
      continue;
    }
    task["distribution"] = {{"median", rounded(t.median)},
                            {"mad", rounded(t.mad)},
                            {"q1", rounded(t.q1)},
                            {"q3", rounded(t.q3)},
                            {"highest", rounded(t.highest)}};
    task["flagged"] = t.flagged;
    if (!t.note.empty()) task["note"] = t.note;
    nlohmann::ordered_json top = nlohmann::ordered_json::array();
    for (const SimilarPair& p : t.top)
      top.push_back({{"first", p.first},
                     {"second", p.second},
                     {"first_in_second", p.firstInSecond},
                     {"second_in_first", p.secondInFirst},
                     {"score", rounded(p.score)},
                     {"z", rounded(p.z)},
                     {"flagged", p.flagged}});
    task["top"] = top;
    tasks.push_back(task);
  }
  j["tasks"] = tasks;
  return j;
}

}  // namespace clgrade
