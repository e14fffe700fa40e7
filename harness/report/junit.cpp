#include "report/junit.h"

#include <cstdio>

namespace clgrade {
namespace {

std::string attr(const char* name, const std::string& value) { return std::string(" ") + name + "=\"" + xmlEscape(value) + "\""; }

std::string property(const std::string& name, const std::string& value, const char* indent = "        ") {
  return indent + std::string("<property") + attr("name", name) + attr("value", value) + "/>\n";
}

std::string seconds(double s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", s > 0 ? s : 0.0);
  return buffer;
}

struct Counts {
  size_t tests = 0, failures = 0, errors = 0, skipped = 0;
  void add(Status s) {
    ++tests;
    if (s == Status::Failed) ++failures;
    else if (s == Status::Error) ++errors;
    else if (s == Status::NotMeasured) ++skipped;
  }
  std::string attributes() const {
    return attr("tests", std::to_string(tests)) + attr("failures", std::to_string(failures)) +
           attr("errors", std::to_string(errors)) + attr("skipped", std::to_string(skipped));
  }
};

}  // namespace

std::string junitXml(const GradeReport& r, const JunitOptions& options) {
  Counts all;
  std::string suites;
  for (const TaskReport& t : r.tasks) {
    Counts counts;
    std::string cases;
    for (const CriterionResult& c : t.criteria) {
      counts.add(c.status);
      all.add(c.status);
      cases += "    <testcase" + attr("classname", t.id) + attr("name", c.id) + attr("time", "0") + ">\n";
      cases += "      <properties>\n";
      cases += property("title", c.title);
      cases += property("points", formatPoints(c.points));
      cases += property("max", formatPoints(c.max));
      cases += property("status", statusName(c.status));
      if (c.overridden) {
        cases += property("overridden", "true");
        cases += property("original_points", formatPoints(c.originalPoints));
        cases += property("override_comment", c.overrideComment);
        cases += property("override_author", c.overrideAuthor);
      }
      cases += "      </properties>\n";
      const std::string body = xmlEscape(criterionDetails(t, c, options.details));
      if (c.status == Status::Failed)
        cases += "      <failure" + attr("message", c.message) + attr("type", "failed") + ">" + body + "</failure>\n";
      else if (c.status == Status::Error)
        cases += "      <error" + attr("message", c.message) + attr("type", "error") + ">" + body + "</error>\n";
      else if (c.status == Status::NotMeasured)
        cases += "      <skipped" + attr("message", c.message) + "/>\n";
      std::string out = statusLabel(c.status) + ": " + c.message + "\n";
      if (c.overridden) out += overrideLine(c) + "\n";
      cases += "      <system-out>" + xmlEscape(out) + "</system-out>\n";
      cases += "    </testcase>\n";
    }
    suites += "  <testsuite" + attr("name", t.id) + counts.attributes() + attr("time", "0") +
              attr("timestamp", r.startedAt) + ">\n";
    suites += "    <properties>\n";
    for (const auto& [name, value] : {std::pair<std::string, std::string>{"title", t.title},
                                      {"file", t.file},
                                      {"present", t.present ? "true" : "false"},
                                      {"sha256", t.sha256},
                                      {"points", formatPoints(t.points)},
                                      {"max", formatPoints(t.max)},
                                      {"problem", t.problem}})
      suites += property(name, value, "      ");
    if (t.process.recorded) suites += property("process", t.process.outcome, "      ");
    for (const std::string& note : processNotes(t)) suites += property("process_note", note, "      ");
    suites += "    </properties>\n" + cases + "  </testsuite>\n";
  }
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += "<testsuites" + attr("name", options.name) + all.attributes() + attr("time", seconds(r.seconds)) + ">\n";
  return xml + suites + "</testsuites>\n";
}

}  // namespace clgrade
