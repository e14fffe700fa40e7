#include "report/prairielearn.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

namespace clgrade {
namespace {

using nlohmann::ordered_json;

struct ImageBudget {
  size_t left;
};

/// {label, url} of each picture of the set that exists and fits the budget; the others are noted.
void addImages(const CaseImages& c, const PrairieLearnOptions& options, ImageBudget* budget, ordered_json* images,
               std::string* notes) {
  const std::string where = c.check->id + ", case " + c.outcome->caseId;
  const std::pair<const Evidence*, const char*> pictures[] = {
      {c.images.difference, "difference"}, {c.images.expected, "expected"}, {c.images.actual, "actual"}};
  for (const auto& [e, kind] : pictures) {
    if (!e) continue;
    std::string err;
    // Base64 grows by a third; the budget counts what lands in the file.
    const std::string uri = pngDataUri(options.reportDir, e->path, budget->left * 3 / 4 + 1, &err);
    if (uri.empty() || uri.size() > budget->left) {
      *notes += "image " + e->path + " not included: " + (uri.empty() ? err : "over the size budget of results.json") + "\n";
      continue;
    }
    budget->left -= uri.size();
    images->push_back({{"label", where + ": " + kind + " (" + e->label + ")"}, {"url", uri}});
  }
}

}  // namespace

std::string prairieLearnResults(const GradeReport& r, const PrairieLearnOptions& options) {
  ImageBudget budget{options.imageBudgetBytes * 4 / 3 + 4};
  ordered_json tests = ordered_json::array();
  std::string output;
  for (const TaskReport& t : r.tasks) {
    output += t.id + ": " + formatPoints(t.points) + "/" + formatPoints(t.max) + (t.problem.empty() ? "" : " - " + t.problem) + "\n";
    for (const std::string& note : processNotes(t)) output += "  (" + note + ")\n";
    for (const CriterionResult& c : t.criteria) {
      output += "  " + c.id + ": " + formatPoints(c.points) + "/" + formatPoints(c.max) + " " + statusName(c.status) +
                (c.overridden ? " (overridden, measured " + formatPoints(c.originalPoints) + ")" : "") + "\n";
      std::string message = statusLabel(c.status) + ": " + c.message;
      if (c.overridden) message += "\n" + overrideLine(c);
      std::string testOutput = criterionDetails(t, c, options.details);
      ordered_json images = ordered_json::array();
      if (options.images)
        for (const CaseImages& set : criterionImages(t, c, options.details.hiddenCaseDetails))
          addImages(set, options, &budget, &images, &testOutput);
      std::string description = c.title;
      if (!c.checks.empty()) {
        description += description.empty() ? "checks: " : " (checks: ";
        for (size_t i = 0; i < c.checks.size(); ++i) description += (i ? ", " : "") + c.checks[i];
        if (!c.title.empty()) description += ")";
      }
      tests.push_back({{"name", t.id + " / " + c.id},
                       {"description", description},
                       {"points", c.points},
                       {"max_points", c.max},
                       {"message", message},
                       {"output", testOutput},
                       {"images", images}});
    }
  }
  output += "total: " + formatPoints(r.total) + "/" + formatPoints(r.max) + "\n";
  const double score = r.max > 0 ? std::clamp(r.total / r.max, 0.0, 1.0) : 0.0;
  ordered_json j = {{"gradable", true},
                    {"score", std::isfinite(score) ? score : 0.0},
                    {"message", "clgrade: " + formatPoints(r.total) + " of " + formatPoints(r.max) + " points (rubric " +
                                    r.rubricTitle + ", device " + r.device.name + ")"},
                    {"output", output},
                    {"tests", tests}};
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace clgrade
