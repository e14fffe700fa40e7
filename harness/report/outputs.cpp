#include "report/outputs.h"

#include "report/override_ledger.h"

#include <algorithm>
#include <filesystem>
#include <functional>

#include "model/report_json.h"
#include "report/audience.h"
#include "report/class_report.h"
#include "report/class_roster.h"
#include "report/gradebook_csv.h"
#include "report/gradescope.h"
#include "report/html_report.h"
#include "report/junit.h"
#include "report/override_ledger.h"
#include "report/prairielearn.h"
#include "report/summary_html.h"
#include "roster/roster_json.h"
#include "similarity/json.h"
#include "similarity/measure.h"
#include "util/files.h"
#include "util/side_by_side.h"
#include "util/subprocess.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

/// The submission's name: the report folder's name (batch: <out>/<submission>).
std::string nameOf(const std::string& reportDir) {
  const fs::path p = fs::path(reportDir).lexically_normal();
  return (p.filename().empty() ? p.parent_path().filename() : p.filename()).string();
}

/// What a submission's renderers read: the report as measured (overrides applied) and the student's
/// copy of it, where the files go, and for whom.
struct SubmissionOutputs {
  const GradeReport& report;
  GradeReport student;  ///< hidden cases say only how they failed (report/audience.h)
  std::string reportDir, submission;
  std::optional<Audience> audience;  ///< none: both audiences (report.html is the instructor's)
  bool studentOnly() const { return audience == Audience::Student; }
  bool instructorOnly() const { return audience == Audience::Instructor; }
  /// What the platforms' files show: students read them, unless the grade is for the instructor only.
  const GradeReport& forPlatforms() const { return instructorOnly() ? report : student; }
  std::string html(const GradeReport& r, Audience who) const {
    HtmlOptions options;
    options.reportDir = reportDir;
    options.submission = submission;
    options.audience = who;
    // The page handed to a student beside the instructor's travels alone: its pictures inside it, so
    // nobody needs the folder (which holds the hidden cases' pictures) to see them.
    options.embedImages = who == Audience::Student && !audience;
    return htmlReport(r, options);
  }
};

/// A file's text, or nothing when it is not written for this grade's audience.
using SubmissionRenderer = std::function<std::optional<std::string>(const SubmissionOutputs&)>;
/// What a class file's renderer reads: the class (in roster order, with a roster), where the files go,
/// what the instructor must be told (students who handed in nothing, submissions that are no one's)
/// and the class's similarity.
struct ClassOutputs {
  const std::vector<ClassEntry>& entries;
  std::string outDir;
  std::vector<std::string> notes;
  const ClassSimilarity& similarity;
};
using ClassRenderer = std::function<std::string(const ClassOutputs&)>;

struct Output {
  OutputFile file;
  SubmissionRenderer submission;  ///< for Scope::Submission
  /// For Scope::Class. None: class.json, which the batch (and merge) writes itself; writeClassOutputs
  /// adds the class's similarity to it.
  ClassRenderer cls;
};

/// Every file clgrade writes for people and platforms, in the order it writes them.
const std::vector<Output>& outputs() {
  using Scope = OutputFile::Scope;
  static const std::vector<Output> table = {
      {{kReportHtml, Scope::Submission, "the grade's audience"},
       [](const SubmissionOutputs& o) {
         return o.studentOnly() ? o.html(o.student, Audience::Student) : o.html(o.report, Audience::Instructor);
       },
       {}},
      {{kGradescopeJson, Scope::Submission, "students, through Gradescope"},
       [](const SubmissionOutputs& o) {
         GradescopeOptions gs;
         gs.leaderboard = bandwidthLeaderboard(o.report);
         return gradescopeResults(o.forPlatforms(), gs);
       },
       {}},
      {{kPrairieLearnJson, Scope::Submission, "students, through PrairieLearn"},
       [](const SubmissionOutputs& o) {
         PrairieLearnOptions pl;
         pl.reportDir = o.reportDir;
         return prairieLearnResults(o.forPlatforms(), pl);
       },
       {}},
      {{kJunitXml, Scope::Submission, "the grade's audience, through CI"},
       [](const SubmissionOutputs& o) {
         JunitOptions junit;
         junit.name = "clgrade." + o.submission;
         junit.reportDir = o.reportDir;
         return junitXml(o.studentOnly() ? o.student : o.report, junit);
       },
       {}},
      // Beside the instructor's page when the grade is for both audiences; removed otherwise, so that a
      // page left from an earlier grade of this folder cannot disagree.
      {{kStudentReportHtml, Scope::Submission, "student"},
       [](const SubmissionOutputs& o) -> std::optional<std::string> {
         if (o.audience) return std::nullopt;
         return o.html(o.student, Audience::Student);
       },
       {}},
      {{kClassJson, Scope::Class, "instructor, and clgrade merge"}, {}, {}},
      {{kGradebookCsv, Scope::Class, "instructor, and the LMS"},
       {},
       [](const ClassOutputs& o) { return gradebookCsv(o.entries); }},
      {{kSummaryHtml, Scope::Class, "instructor"},
       {},
       [](const ClassOutputs& o) {
         SummaryOptions summary;
         summary.title = "clgrade: " + nameOf(o.outDir);
         summary.notes = o.notes;
         summary.similarity = &o.similarity;
         return summaryHtml(o.entries, summary);
       }},
  };
  return table;
}

bool writeAll(const std::string& reportDir, const GradeReport& report, const std::string& submission,
              std::optional<Audience> audience, std::string* err) {
  const SubmissionOutputs o{report, forStudents(report), reportDir, submission, audience};
  for (const Output& out : outputs()) {
    if (out.file.scope != OutputFile::Scope::Submission) continue;
    const fs::path path = fs::path(reportDir) / out.file.path;
    const std::optional<std::string> text = out.submission(o);
    if (!text) {
      std::error_code ec;
      fs::remove(path, ec);
      continue;
    }
    if (!makeDirectories(path.parent_path().string(), err) || !writeFileAtomically(path.string(), *text, err))
      return false;
  }
  return true;
}

/// At most this many submissions' outputs written at once at a batch's end: the host's other work
/// (another batch timing on the same GPU) keeps its cores, and a class's pages stay few in memory.
constexpr int kClassOutputThreads = 8;

/// The class's similarity from the kernel files each graded submission's folder kept
/// (similarity/kept_sources.h), per task of the graded reports (in order of first appearance).
ClassSimilarity classSimilarity(const std::string& outDir, const std::vector<ClassEntry>& entries, bool enabled) {
  SimilarityOptions options;
  if (!enabled) options.off = "turned off (--no-similarity)";
  std::vector<SimilarityTask> tasks;
  std::vector<std::string> names, dirs;
  for (const ClassEntry& e : entries) {
    if (!e.graded) continue;
    names.push_back(e.submission);
    dirs.push_back((fs::path(outDir) / e.submission).string());
    for (const TaskReport& t : e.report.tasks) {
      const bool known = std::any_of(tasks.begin(), tasks.end(), [&](const SimilarityTask& s) { return s.task == t.id; });
      if (!known && !t.file.empty()) tasks.push_back({t.id, t.file});
    }
  }
  return measureSimilarity(tasks, names, dirs, options);
}

}  // namespace

std::string classJsonText(const nlohmann::ordered_json& classResults) {
  return classResults.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

bool writeSubmissionOutputs(const std::string& reportDir, const GradeReport& measured, std::string* err,
                            const OutputOptions& options) {
  GradeReport report = measured;
  const std::string submission = options.submission.empty() ? nameOf(reportDir) : options.submission;
  applyOverrides(options.overrides, submission, &report);
  return writeAll(reportDir, report, submission, options.audience, err);
}

bool writeClassOutputs(const std::string& outDir, const nlohmann::ordered_json& classResults,
                       std::vector<std::string>* errors, const std::vector<Override>& overrides,
                       std::vector<std::string>* problems, std::optional<Audience> audience, bool similarity) {
  std::vector<ClassEntry> entries;
  std::vector<std::string> names;
  bool ok = true;
  auto failed = [&](const std::string& why) {
    ok = false;
    if (errors) errors->push_back(why);
  };
  const auto list = classResults.find("submissions");
  if (list != classResults.end() && list->is_array()) {
    // Each submission's report read and its outputs written again (the overrides of now) on threads
    // of their own: a class of 96 spent 3.6 s here on an H200 at the end of its batch, one after
    // another. Gathered in the class's order.
    struct Read {
      ClassEntry entry;
      std::vector<std::string> problems;
      std::string error;
    };
    std::vector<Read> read(list->size());
    forEachSideBySide(read.size(), std::min(usableCores(), kClassOutputThreads), [&](size_t i) {
      const auto& s = (*list)[i];
      ClassEntry& e = read[i].entry;
      e.submission = s.value("name", s.value("submission", std::string()));
      if (e.submission.empty()) return;
      const std::string dir = (fs::path(outDir) / e.submission).string();
      std::string why;
      if (const std::string fault = s.value("not_graded", std::string()); !fault.empty()) {
        e.problem = "not graded: " + fault;  // the machine's fault: no report, no total
      } else if (readReportFile(dir + "/report.json", &e.report, &why)) {
        e.graded = true;
        for (const StaleOverride& o : staleOverridesFromJson(s.value("stale_overrides", nlohmann::ordered_json())))
          e.staleOverrides.push_back(o.message);
        applyOverrides(overrides, e.submission, &e.report, &read[i].problems);
        e.reportHtml = e.submission + "/" + kReportHtml;
        if (!writeAll(dir, e.report, e.submission, audience, &why)) read[i].error = why;
      } else {
        e.problem = why;
      }
    });
    for (Read& r : read) {
      if (r.entry.submission.empty()) continue;
      names.push_back(r.entry.submission);
      if (problems) problems->insert(problems->end(), r.problems.begin(), r.problems.end());
      if (!r.error.empty()) failed(r.error);
      entries.push_back(std::move(r.entry));
    }
  }
  if (problems)
    for (const std::string& unknown : unknownOverrideSubmissions(overrides, names)) problems->push_back(unknown);
  // class.json as the caller wrote it, with the class's similarity (never a grade) added.
  const ClassSimilarity measured = classSimilarity(outDir, entries, similarity);
  nlohmann::ordered_json withSimilarity = classResults;
  withSimilarity["similarity"] = similarityJson(measured);
  if (std::string why; !writeFileAtomically((fs::path(outDir) / kClassJson).string(), classJsonText(withSimilarity), &why))
    failed(why);
  // With a roster (batch --roster) every student is a row, whether they handed in or not.
  std::vector<std::string> rosterNotes;
  if (const auto roster = classResults.find("roster"); roster != classResults.end())
    entries = classWithRoster(std::move(entries), rosterFromJson(*roster), &rosterNotes);
  if (problems) problems->insert(problems->end(), rosterNotes.begin(), rosterNotes.end());
  const ClassOutputs view{entries, outDir, rosterNotes, measured};
  // Each file on its own: a gradebook that could not be written does not keep the summary from being tried.
  for (const Output& out : outputs()) {
    if (out.file.scope != OutputFile::Scope::Class || !out.cls) continue;
    std::string why;
    if (!writeFileAtomically((fs::path(outDir) / out.file.path).string(), out.cls(view), &why)) failed(why);
  }
  return ok;
}

void removeEarlierReport(const std::string& reportDir) {
  std::error_code ec;
  const fs::path dir(reportDir);
  for (const char* name : {"report.json", "evidence"}) fs::remove_all(dir / name, ec);
  for (const OutputFile& f : outputFiles()) {
    if (f.scope != OutputFile::Scope::Submission) continue;
    const fs::path file = dir / f.path;
    fs::remove(file, ec);
    if (file.parent_path() != dir && fs::is_empty(file.parent_path(), ec)) fs::remove(file.parent_path(), ec);
  }
}

const std::vector<OutputFile>& outputFiles() {
  static const std::vector<OutputFile> files = [] {
    std::vector<OutputFile> all;
    for (const Output& out : outputs()) all.push_back(out.file);
    return all;
  }();
  return files;
}

std::vector<std::string> classTopLevelNames() {
  std::vector<std::string> names;
  for (const OutputFile& f : outputFiles())
    if (f.scope == OutputFile::Scope::Class) names.push_back(f.path);
  names.insert(names.end(), {kSlurmArrayScript, kSlurmMergeScript, kOverrideLedgerFile});
  // `clgrade export`'s default files (lms/lms_export.h).
  names.insert(names.end(), {"canvas.csv", "moodle.csv", "moodle-worksheet.csv", "ilias-status.csv"});
  return names;
}

bool isClassFileName(const std::string& name) {
  for (const std::string& reserved : classTopLevelNames())
    if (name == reserved) return true;
  return false;
}

}  // namespace clgrade
