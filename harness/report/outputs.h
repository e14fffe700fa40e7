// Where the renderers of a graded submission and of a whole class plug in. Both `clgrade grade`
// and `clgrade batch` call them, so every format is written the same way whichever command graded.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/report.h"
#include "report/audience.h"
#include "report/overrides.h"

namespace clgrade {

/// What the outputs add to the measured report: the instructor's overrides (merged into every
/// format and shown as such; report.json itself stays what was measured, so a regrade keeps them).
struct OutputOptions {
  std::vector<Override> overrides;
  std::string submission;  ///< the submission's name, for the pages and the overrides
  /// Who reads the outputs. Empty (the default of grade and batch): both, report.html is the
  /// instructor's with report.student.html beside it, the Gradescope and PrairieLearn files (which
  /// students read) are the student's, JUnit the instructor's. Student (check's default) or
  /// instructor: every file for that one.
  std::optional<Audience> audience;
};

/// Files written next to each report.json.
constexpr const char* kReportHtml = "report.html";
constexpr const char* kStudentReportHtml = "report.student.html";
constexpr const char* kGradescopeJson = "gradescope/results.json";
constexpr const char* kPrairieLearnJson = "prairielearn/results.json";
constexpr const char* kJunitXml = "junit.xml";
/// Files written beside a class's report folders.
constexpr const char* kClassJson = "class.json";
constexpr const char* kGradebookCsv = "gradebook.csv";
constexpr const char* kSummaryHtml = "summary.html";

/// One file clgrade writes for people and platforms: where it goes and who reads it. The table of
/// them (outputFiles) is what the writers below go through and what the class-file names come from:
/// a new format is one renderer (report/<format>.h) and one row in outputs.cpp.
struct OutputFile {
  enum class Scope { Submission, Class };
  const char* path;  ///< relative to the submission's report folder, or to the class folder
  Scope scope;
  /// Who reads it: "instructor", "student", "the grade's audience" (--audience), or the platform's
  /// students ("students, through Gradescope").
  const char* readers;
};
const std::vector<OutputFile>& outputFiles();

/// The scripts `clgrade slurm` writes into the class folder.
constexpr const char* kSlurmArrayScript = "clgrade.sbatch";
constexpr const char* kSlurmMergeScript = "merge.sbatch";

/// Every name clgrade writes at a class folder's top level: the class files of the table
/// (class.json, gradebook.csv, summary.html) and the Slurm scripts (its own folders start with
/// '.', which no submission's may). A submission of one of these names would shadow one, or be
/// replaced by it (its report folder is <out>/<name>): it is not graded under it.
std::vector<std::string> classTopLevelNames();
bool isClassFileName(const std::string& name);

/// Called once per submission right after `reportDir`/report.json is written (in a batch: inside the
/// submission's temporary folder, before it is moved into place, so a completed folder always has
/// every output). `report` is what report.json holds. Writes report.html, Gradescope and PrairieLearn
/// results.json and JUnit XML into `reportDir`. False with a message when one could not be written
/// (the grade itself stands).
bool writeSubmissionOutputs(const std::string& reportDir, const GradeReport& report, std::string* err,
                            const OutputOptions& options = {});

/// Removes what an earlier grade wrote into `reportDir` (report.json, evidence/, and each submission
/// output of the table), so a report folder used again holds only the new report's files (the old
/// failure crops beside a passing report misled students); nothing else in it is touched.
void removeEarlierReport(const std::string& reportDir);

/// class.json's text: two-space indented JSON, bytes that are not UTF-8 replaced, a final line break.
std::string classJsonText(const nlohmann::ordered_json& classResults);

/// Called once at the end of a batch, after `outDir`/class.json is written. Reads every
/// submission's report.json, applies the overrides, writes each submission's outputs again (so an
/// edited overrides file reaches every format without regrading) and the class outputs:
/// gradebook.csv and summary.html. Measures the class's similarity (similarity/measure.h) from the
/// kernel files each graded submission's folder kept (<outDir>/<submission>/sources/), unless
/// `similarity` is false, and writes class.json again as `classResults` with its "similarity"
/// (similarity/json.h; when not measured, why) and summary.html's #similarity. Never a grade. Every file that could not be written adds a message naming it to
/// *errors (the others are still written), and the result is false. Override problems (unknown
/// submission, task or criterion) are appended to *problems, one message each.
bool writeClassOutputs(const std::string& outDir, const nlohmann::ordered_json& classResults,
                       std::vector<std::string>* errors, const std::vector<Override>& overrides = {},
                       std::vector<std::string>* problems = nullptr, std::optional<Audience> audience = std::nullopt,
                       bool similarity = true);

}  // namespace clgrade
