#include "batch/outputs.h"

#include <filesystem>

#include "report/audience.h"
#include "report/class_report.h"
#include "report/gradebook_csv.h"
#include "report/gradescope.h"
#include "report/html_report.h"
#include "model/report_json.h"
#include "report/junit.h"
#include "report/prairielearn.h"
#include "report/summary_html.h"
#include "util/files.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

/// The submission's name: the report folder's name (batch: <out>/<submission>).
std::string nameOf(const std::string& reportDir) {
  const fs::path p = fs::path(reportDir).lexically_normal();
  return (p.filename().empty() ? p.parent_path().filename() : p.filename()).string();
}

bool writeAll(const std::string& reportDir, const GradeReport& report, const std::string& submission,
              std::optional<Audience> audience, std::string* err) {
  const fs::path dir(reportDir);
  // The student's copy of the model: hidden cases say only how they failed (report/audience.h).
  const GradeReport student = forStudents(report);
  const bool studentOnly = audience == Audience::Student, instructorOnly = audience == Audience::Instructor;
  const GradeReport& forPlatforms = instructorOnly ? report : student;
  auto html = [&](const GradeReport& r, Audience who) {
    HtmlOptions options;
    options.reportDir = reportDir;
    options.submission = submission;
    options.audience = who;
    // The page handed to a student beside the instructor's travels alone: its pictures inside it, so
    // nobody needs the folder (which holds the hidden cases' pictures) to see them.
    options.embedImages = who == Audience::Student && !audience;
    return htmlReport(r, options);
  };
  PrairieLearnOptions pl;
  pl.reportDir = reportDir;
  GradescopeOptions gs;
  gs.leaderboard = bandwidthLeaderboard(report);
  JunitOptions junit;
  junit.name = "clgrade." + submission;
  junit.reportDir = reportDir;
  std::vector<std::pair<std::string, std::string>> files = {
      {kReportHtml, studentOnly ? html(student, Audience::Student) : html(report, Audience::Instructor)},
      {kGradescopeJson, gradescopeResults(forPlatforms, gs)},
      {kPrairieLearnJson, prairieLearnResults(forPlatforms, pl)},
      {kJunitXml, junitXml(studentOnly ? student : report, junit)}};
  if (!audience) files.push_back({kStudentReportHtml, html(student, Audience::Student)});
  for (const auto& [file, text] : files) {
    const fs::path path = dir / file;
    if (!makeDirectories(path.parent_path().string(), err) || !writeFileAtomically(path.string(), text, err))
      return false;
  }
  // One audience asked for: a student page left from an earlier grade of this folder would disagree.
  std::error_code ec;
  if (audience) fs::remove(dir / kStudentReportHtml, ec);
  return true;
}

}  // namespace

bool writeSubmissionOutputs(const std::string& reportDir, const GradeReport& measured, std::string* err,
                            const OutputOptions& options) {
  GradeReport report = measured;
  const std::string submission = options.submission.empty() ? nameOf(reportDir) : options.submission;
  applyOverrides(options.overrides, submission, &report);
  return writeAll(reportDir, report, submission, options.audience, err);
}

bool writeClassOutputs(const std::string& outDir, const nlohmann::ordered_json& classResults,
                       std::vector<std::string>* errors, const std::vector<Override>& overrides,
                       std::vector<std::string>* problems, std::optional<Audience> audience) {
  std::vector<ClassEntry> entries;
  std::vector<std::string> names;
  bool ok = true;
  auto failed = [&](const std::string& why) {
    ok = false;
    if (errors) errors->push_back(why);
  };
  const auto list = classResults.find("submissions");
  if (list != classResults.end() && list->is_array()) {
    for (const auto& s : *list) {
      ClassEntry e;
      e.submission = s.value("name", s.value("submission", std::string()));
      if (e.submission.empty()) continue;
      names.push_back(e.submission);
      const std::string dir = (fs::path(outDir) / e.submission).string();
      std::string why;
      if (readReportFile(dir + "/report.json", &e.report, &why)) {
        e.graded = true;
        applyOverrides(overrides, e.submission, &e.report, problems);
        e.reportHtml = e.submission + "/" + kReportHtml;
        if (!writeAll(dir, e.report, e.submission, audience, &why)) failed(why);
      } else {
        e.problem = why;
      }
      entries.push_back(e);
    }
  }
  if (problems)
    for (const std::string& unknown : unknownOverrideSubmissions(overrides, names)) problems->push_back(unknown);
  SummaryOptions summary;
  summary.title = "clgrade: " + nameOf(outDir);
  // Each file on its own: a gradebook that could not be written does not keep the summary from being tried.
  std::string why;
  if (!writeFileAtomically((fs::path(outDir) / "gradebook.csv").string(), gradebookCsv(entries), &why)) failed(why);
  if (!writeFileAtomically((fs::path(outDir) / "summary.html").string(), summaryHtml(entries, summary), &why))
    failed(why);
  return ok;
}

}  // namespace clgrade
