// A task's grading processes in the result model (issue 10): a rerun and what the kernels printed
// are part of the model, read back by the one codec, and shown by every renderer.
#include <gtest/gtest.h>

#include "model/report_json.h"
#include "report/gradescope.h"
#include "report/html_report.h"
#include "report/junit.h"
#include "report/prairielearn.h"
#include "report/terminal_table.h"
#include "report/text.h"
#include "report_fixture.h"

namespace clgrade {
namespace {

using reporttest::richReport;

TEST(ProcessRecord, ReadsBackThroughTheCodec) {
  std::string err;
  GradeReport read;
  ASSERT_TRUE(readReportJson(toJson(richReport()), &read, &err)) << err;
  const TaskReport& sep = read.tasks[1];
  EXPECT_TRUE(sep.process.recorded);
  EXPECT_EQ(sep.process.outcome, "ok after a rerun");
  EXPECT_EQ(sep.process.kernelOutputBytes, 2048u);
  EXPECT_TRUE(sep.process.kernelOutputTruncated);
  EXPECT_TRUE(sep.rerun.ran);
  EXPECT_EQ(sep.rerun.leftOut, "kernel ConvVertical");
  EXPECT_TRUE(sep.rerun.outcome.empty());
  EXPECT_FALSE(read.tasks[0].process.recorded);  // graded in one process: no "process" key
  EXPECT_FALSE(read.tasks[0].rerun.ran);
  EXPECT_EQ(read.tasks[2].process.outcome, "refused");
}

TEST(ProcessRecord, NotesSayWhatStoppedTheFirstRunnerAndWhereTheOutputIs) {
  const std::vector<std::string> notes = processNotes(richReport().tasks[1]);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[0].find("timed out after 30 s in ConvVertical"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("left out kernel ConvVertical and finished"), std::string::npos) << notes[0];
  EXPECT_NE(notes[1].find("2048 bytes (evidence/separable/kernel_output.txt"), std::string::npos) << notes[1];
  EXPECT_TRUE(processNotes(richReport().tasks[0]).empty());

  TaskReport stoppedTwice = richReport().tasks[1];
  stoppedTwice.rerun.outcome = "memory";
  stoppedTwice.rerun.message = "used more than 1024 MiB";
  EXPECT_NE(processNotes(stoppedTwice)[0].find("was stopped too (memory): used more than 1024 MiB"), std::string::npos);
}

TEST(ProcessRecord, EveryRendererShowsTheRerunAndTheKernelOutput) {
  const GradeReport r = richReport();
  const std::string needle = "left out kernel ConvVertical";
  const std::string output = "evidence/separable/kernel_output.txt";
  const std::vector<std::pair<std::string, std::string>> renderings = {{"terminal", failureDetails(r, "reports/alice")},
                                                                       {"gradescope", gradescopeResults(r)},
                                                                       {"prairielearn", prairieLearnResults(r)},
                                                                       {"junit", junitXml(r)},
                                                                       {"html", htmlReport(r)}};
  for (const auto& [name, text] : renderings) {
    EXPECT_NE(text.find(needle), std::string::npos) << name;
    EXPECT_NE(text.find(output), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace clgrade
