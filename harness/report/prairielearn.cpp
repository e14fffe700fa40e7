#include "report/prairielearn.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

namespace clgrade {
namespace {

using nlohmann::ordered_json;

/// One picture a test could show.
struct Picture {
  size_t test = 0;  ///< index into the tests
  int rank = 0;     ///< 0 the crop, 1 the difference map, 2 expected, 3 actual: the order in which they get room
  const Evidence* evidence = nullptr;
  std::string label;
};

/// A test as it is being put together: its fields, its output (notes are added to it) and images.
struct Test {
  ordered_json fields;
  std::string output;
  ordered_json images = ordered_json::array();
  std::string name;
};

std::string resultsJson(const ordered_json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

namespace {

/// The results as they are put together: the tests, the text output, the score; assemble() writes
/// the file as it stands.
struct Results {
  const GradeReport& r;
  std::vector<Test> tests;
  std::vector<Picture> pictures;
  std::string output;
  double score = 0;
  std::string assemble() const {
    ordered_json list = ordered_json::array();
    for (const Test& t : tests) {
      ordered_json j = t.fields;
      j["output"] = t.output;
      j["images"] = t.images;
      list.push_back(j);
    }
    return resultsJson({{"gradable", true},
                        {"score", std::isfinite(score) ? score : 0.0},
                        {"message", "clgrade: " + formatPoints(r.total) + " of " + formatPoints(r.max) +
                                        " points (rubric " + r.rubricTitle + ", device " + r.device.name + ")"},
                        {"output", output},
                        {"tests", list}});
  }
};

/// A test per criterion, a line per task and criterion in the output, the pictures to place.
void collectTests(const PrairieLearnOptions& options, Results* results) {
  const GradeReport& r = results->r;
  std::vector<Test>& tests = results->tests;
  std::vector<Picture>& pictures = results->pictures;
  std::string& output = results->output;
  for (const std::string& notice : r.notices) output += "note: " + notice + "\n";
  for (const TaskReport& t : r.tasks) {
    output += t.id + ": " + formatPoints(t.points) + "/" + formatPoints(t.max) +
              (t.problem.empty() ? "" : " - " + t.problem) + "\n";
    for (const std::string& note : processNotes(t)) output += "  (" + note + ")\n";
    for (const CriterionResult& c : t.criteria) {
      output += "  " + c.id + ": " + formatPoints(c.points) + "/" + formatPoints(c.max) + " " + statusName(c.status) +
                (c.overridden ? " (overridden, measured " + formatPoints(c.originalPoints) + ")" : "") + "\n";
      std::string message = statusLabel(c.status) + ": " + c.message;
      if (c.overridden) message += "\n" + overrideLine(c);
      std::string description = c.title;
      if (!c.checks.empty()) {
        description += description.empty() ? "checks: " : " (checks: ";
        for (size_t i = 0; i < c.checks.size(); ++i) description += (i ? ", " : "") + c.checks[i];
        if (!c.title.empty()) description += ")";
      }
      Test test;
      test.name = t.id + " / " + c.id;
      test.fields = {{"name", test.name},
                     {"description", description},
                     {"points", c.points},
                     {"max_points", c.max},
                     {"message", message}};
      test.output = criterionDetails(t, c, options.details);
      if (options.images)
        for (const CaseImages& set : criterionImages(t, c, options.details.hiddenCaseDetails)) {
          const std::string where = set.check->id + ", case " + set.outcome->caseId;
          const std::pair<const Evidence*, const char*> kinds[] = {{set.images.crop, "up close"},
                                                                   {set.images.difference, "difference"},
                                                                   {set.images.expected, "expected"},
                                                                   {set.images.actual, "actual"}};
          for (int rank = 0; rank < 4; ++rank)
            if (kinds[rank].first)
              pictures.push_back({tests.size(), rank, kinds[rank].first,
                                  where + ": " + kinds[rank].second + " (" + kinds[rank].first->label + ")"});
        }
      tests.push_back(std::move(test));
    }
  }
  output += "total: " + formatPoints(r.total) + "/" + formatPoints(r.max) + "\n";
  results->score = r.max > 0 ? std::clamp(r.total / r.max, 0.0, 1.0) : 0.0;
}

/// The text first: when even that is over the limit, the longest outputs are cut (report.html keeps
/// everything).
void cutLongestOutputs(const PrairieLearnOptions& options, Results* results) {
  std::string& output = results->output;
  std::vector<Test>& tests = results->tests;
  auto assemble = [results] { return results->assemble(); };
  const std::string cut = "\n... (cut: PrairieLearn's results.json must stay under " +
                          std::to_string(options.maxFileBytes / 1000) + " kB; report.html has the rest)\n";
  // A twentieth of the file is kept for the notes of pictures that find no room.
  const size_t textLimit = options.maxFileBytes - options.maxFileBytes / 20;
  for (std::string text = assemble(); text.size() > textLimit; text = assemble()) {
    std::string* longest = &output;
    for (Test& t : tests)
      if (t.output.size() > longest->size()) longest = &t.output;
    if (longest->size() <= cut.size() + 64) break;  // nothing left worth cutting
    const size_t over = text.size() - textLimit;
    longest->resize(longest->size() > over + cut.size() + 64
                        ? std::max(longest->size() / 2, longest->size() - over - cut.size())
                        : 64);
    *longest += cut;
  }
}

/// Then the pictures, each file once, in order: every crop of the first wrong pixels, every
/// difference map (rubric order), then the expected and actual pictures; what does not fit is named
/// in its test's output. JSON around a picture (label, keys, indentation) is counted with it. The
/// counts are estimates: should the file still be over, the last pictures go. Returns the file.
std::string placePictures(const PrairieLearnOptions& options, Results* results) {
  std::vector<Test>& tests = results->tests;
  std::vector<Picture>& pictures = results->pictures;
  auto assemble = [results] { return results->assemble(); };
  size_t used = assemble().size();
  std::stable_sort(pictures.begin(), pictures.end(),
                   [](const Picture& a, const Picture& b) { return a.rank < b.rank; });
  std::map<std::string, std::string> shownIn;  // evidence path -> the test that shows it
  for (const Picture& p : pictures) {
    Test& test = tests[p.test];
    if (const auto it = shownIn.find(p.evidence->path); it != shownIn.end()) {
      if (it->second != test.name) test.output += "\nimage " + p.evidence->path + ": shown with " + it->second;
      continue;
    }
    std::string err;
    const size_t room = options.maxFileBytes > used ? options.maxFileBytes - used : 0;
    const size_t overhead = p.label.size() + 96;
    const std::string uri =
        room > overhead ? pngDataUri(options.reportDir, p.evidence->path, (room - overhead) * 3 / 4, &err) : "";
    if (uri.empty()) {
      const std::string note = "\nimage " + p.evidence->path + " not included: " +
                               (room > overhead && !err.empty() && err.find("larger") == std::string::npos
                                    ? err
                                    : "no room left in results.json (" + std::to_string(options.maxFileBytes / 1000) +
                                          " kB at most; crops and difference maps first)");
      test.output += note;
      used += note.size() + 8;
      continue;
    }
    test.images.push_back({{"label", p.label}, {"url", uri}});
    shownIn[p.evidence->path] = test.name;
    used += uri.size() + overhead;
  }
  std::string text = assemble();
  for (size_t i = pictures.size(); text.size() > options.maxFileBytes && i-- > 0;) {
    Test& test = tests[pictures[i].test];
    for (auto it = test.images.begin(); it != test.images.end(); ++it)
      if ((*it)["label"] == pictures[i].label) {
        test.images.erase(it);
        test.output += "\nimage " + pictures[i].evidence->path + " not included: no room left in results.json";
        text = assemble();
        break;
      }
  }
  return text;
}

}  // namespace

std::string prairieLearnResults(const GradeReport& r, const PrairieLearnOptions& options) {
  Results results{r, {}, {}, "", 0};
  collectTests(options, &results);
  cutLongestOutputs(options, &results);
  std::string text = placePictures(options, &results);
  if (text.size() <= options.maxFileBytes) return text;
  std::string& output = results.output;
  std::vector<Test>& tests = results.tests;
  auto assemble = [&results] { return results.assemble(); };
  // Still over (messages and descriptions are never cut above): the points alone, each test's message
  // cut short, and where the rest is. Then, as a last resort, the score and one line.
  const std::string elsewhere = "results.json would be over " + std::to_string(options.maxFileBytes / 1000) +
                                " kB: only the points are here; report.html has the reasons";
  output = elsewhere + "\n";
  for (Test& t : tests) {
    t.images = ordered_json::array();
    t.output = "";
    std::string message = t.fields.value("message", std::string());
    if (message.size() > 200) t.fields["message"] = message.substr(0, 200) + " ...";
    t.fields["description"] = "";
  }
  text = assemble();
  if (text.size() <= options.maxFileBytes) return text;
  tests.clear();
  return assemble();
}

}  // namespace clgrade
