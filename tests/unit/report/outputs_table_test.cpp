// The one table of output files (report/outputs.h): the class-file names come from it, and a grade
// writes exactly its submission rows, for the audience asked.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "report/outputs.h"
#include "report_fixture.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

TEST(OutputsTable, ClassFileNamesComeFromTheTable) {
  std::set<std::string> classFiles, paths;
  for (const OutputFile& f : outputFiles()) {
    EXPECT_TRUE(paths.insert(f.path).second) << f.path << " is in the table twice";
    EXPECT_NE(std::string(f.readers), "") << f.path;
    if (f.scope == OutputFile::Scope::Class) classFiles.insert(f.path);
  }
  EXPECT_EQ(classFiles, (std::set<std::string>{kClassJson, kGradebookCsv, kSummaryHtml}));
  for (const std::string& name : classFiles) EXPECT_TRUE(isClassFileName(name)) << name;
  EXPECT_FALSE(isClassFileName("alice"));
  EXPECT_FALSE(isClassFileName(kReportHtml)) << "a submission's file is not a class file";
  // Issue 27: submissions named like the Slurm scripts replaced them.
  EXPECT_TRUE(isClassFileName("clgrade.sbatch"));
  EXPECT_TRUE(isClassFileName("merge.sbatch"));
}

TEST(OutputsTable, AGradeWritesItsSubmissionRowsForItsAudience) {
  const fs::path dir = fs::temp_directory_path() / ("outputs-table-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const GradeReport report = reporttest::richReport();
  std::string err;
  ASSERT_TRUE(writeSubmissionOutputs(dir.string(), report, &err)) << err;
  for (const OutputFile& f : outputFiles())
    EXPECT_EQ(fs::exists(dir / f.path), f.scope == OutputFile::Scope::Submission) << f.path;
  // One audience: the student's page beside the instructor's is not written (and an old one goes).
  OutputOptions student;
  student.audience = Audience::Student;
  ASSERT_TRUE(writeSubmissionOutputs(dir.string(), report, &err, student)) << err;
  EXPECT_FALSE(fs::exists(dir / kStudentReportHtml));
  EXPECT_TRUE(fs::exists(dir / kReportHtml));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace clgrade
