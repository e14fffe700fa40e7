#include "report/junit.h"

#include <cstdio>
#include <filesystem>

namespace clgrade {
namespace {

std::string attr(const char* name, const std::string& value) {
  return std::string(" ") + name + "=\"" + xmlEscape(value) + "\"";
}

std::string property(const std::string& name, const std::string& value) {
  return "      <property" + attr("name", name) + attr("value", value) + "/>\n";
}

/// Seconds as junit-10.xsd's time: digits with at most three decimals.
std::string seconds(double s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", s > 0 ? s : 0.0);
  return buffer;
}

/// What the task took: its grading process and the keeper's replay after it, or (graded in one
/// process) the sum of its phases.
double taskSeconds(const TaskReport& t) {
  if (t.process.recorded) return t.process.seconds + t.process.replaySeconds;
  double sum = 0;
  for (const PhaseTime& p : t.phases) sum += p.seconds;
  return sum;
}

struct Counts {
  size_t tests = 0, failures = 0, errors = 0, skipped = 0;
  void add(Status s) {
    ++tests;
    if (s == Status::Failed)
      ++failures;
    else if (s == Status::Error)
      ++errors;
    else if (s == Status::NotMeasured)
      ++skipped;
  }
  /// junit-10.xsd: `skipped` on testsuite, not on testsuites.
  std::string attributes(bool withSkipped) const {
    return attr("tests", std::to_string(tests)) + attr("failures", std::to_string(failures)) +
           attr("errors", std::to_string(errors)) + (withSkipped ? attr("skipped", std::to_string(skipped)) : "");
  }
};

/// GitLab's attachment line for the first crop of wrong pixels (else difference image) among the criterion's failing
/// cases (visible cases only unless hidden details are shown); empty without a report folder or image.
std::string attachment(const TaskReport& t, const CriterionResult& c, const JunitOptions& options) {
  if (options.reportDir.empty()) return "";
  for (const CaseImages& shown : criterionImages(t, c, options.details.hiddenCaseDetails)) {
    const Evidence* picture = shown.images.crop ? shown.images.crop : shown.images.difference;
    if (!picture || !isSafeRelativePath(picture->path)) continue;
    std::error_code ec;
    const std::filesystem::path file =
        std::filesystem::absolute(std::filesystem::path(options.reportDir) / picture->path, ec);
    if (!ec && std::filesystem::is_regular_file(file, ec))
      return "[[ATTACHMENT|" + file.lexically_normal().string() + "]]\n";
  }
  return "";
}

}  // namespace

std::string junitXml(const GradeReport& r, const JunitOptions& options) {
  Counts all;
  std::string suites;
  for (const TaskReport& t : r.tasks) {
    Counts counts;
    std::string cases, criterionProperties;
    for (const CriterionResult& c : t.criteria) {
      counts.add(c.status);
      all.add(c.status);
      // junit-10.xsd allows no <properties> in a testcase: the criterion's go into its suite's, named
      // <criterion>.<property>.
      criterionProperties += property(c.id + ".title", c.title);
      criterionProperties += property(c.id + ".points", formatPoints(c.points));
      criterionProperties += property(c.id + ".max", formatPoints(c.max));
      criterionProperties += property(c.id + ".status", statusName(c.status));
      if (c.overridden) {
        criterionProperties += property(c.id + ".overridden", "true");
        criterionProperties += property(c.id + ".original_points", formatPoints(c.originalPoints));
        criterionProperties += property(c.id + ".override_comment", c.overrideComment);
        criterionProperties += property(c.id + ".override_author", c.overrideAuthor);
      }
      cases += "    <testcase" + attr("classname", t.id) + attr("name", c.id) + ">\n";
      // The kernel file leads the text: junit-10.xsd has no file attribute on a testcase.
      const std::string body = xmlEscape(t.file + ": " + c.message + "\n" + criterionDetails(t, c, options.details));
      if (c.status == Status::Failed)
        cases += "      <failure" + attr("message", c.message) + attr("type", "failed") + ">" + body + "</failure>\n";
      else if (c.status == Status::Error)
        cases += "      <error" + attr("message", c.message) + attr("type", "error") + ">" + body + "</error>\n";
      else if (c.status == Status::NotMeasured)  // the reason as text too: GitLab reads the body
        cases += "      <skipped" + attr("message", c.message) + ">" + xmlEscape(c.message) + "</skipped>\n";
      std::string out = t.file + ": " + formatPoints(c.points) + " of " + formatPoints(c.max) + " points, " +
                        statusLabel(c.status) + ": " + c.message + "\n";
      if (c.overridden) out += overrideLine(c) + "\n";
      if (c.status == Status::Failed || c.status == Status::Error) out += attachment(t, c, options);
      cases += "      <system-out>" + xmlEscape(out) + "</system-out>\n";
      cases += "    </testcase>\n";
    }
    suites += "  <testsuite" + attr("name", t.id) + counts.attributes(true) + attr("time", seconds(taskSeconds(t))) +
              attr("timestamp", r.startedAt) + attr("file", t.file) + ">\n";
    suites += "    <properties>\n";
    for (const auto& [name, value] : {std::pair<std::string, std::string>{"title", t.title},
                                      {"file", t.file},
                                      {"present", t.present ? "true" : "false"},
                                      {"sha256", t.sha256},
                                      {"points", formatPoints(t.points)},
                                      {"max", formatPoints(t.max)},
                                      {"problem", t.problem}})
      suites += property(name, value);
    if (t.process.recorded) suites += property("process", t.process.outcome);
    for (const std::string& note : processNotes(t)) suites += property("process_note", note);
    suites += criterionProperties + "    </properties>\n" + cases + "  </testsuite>\n";
  }
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += "<testsuites" + attr("name", options.name) + all.attributes(false) + attr("time", seconds(r.seconds)) + ">\n";
  return xml + suites + "</testsuites>\n";
}

}  // namespace clgrade
