// The class gradebook (CSV): parsed back, every column where the header says, RFC 4180 quoting of
// commas, quotes and line breaks; and the CSV reader itself on hand-written text.
#include <gtest/gtest.h>

#include "util/csv.h"
#include "report/gradebook_csv.h"
#include "report_fixture.h"

namespace clgrade {
namespace {

using reporttest::overriddenReport;
using reporttest::richReport;

std::vector<std::vector<std::string>> csvRows(const std::string& text) {
  std::vector<CsvRecord> records;
  std::string err;
  EXPECT_TRUE(parseCsv(text, &records, &err)) << err;
  std::vector<std::vector<std::string>> rows;
  for (const CsvRecord& r : records) rows.push_back(r.fields);
  return rows;
}

TEST(Csv, ReadsRfc4180) {
  const std::string text =
      "\xef\xbb\xbf"
      "a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\r\nlines\"\r\n\r\n,,\nlast,\"\",end";
  std::vector<CsvRecord> records;
  std::string err;
  ASSERT_TRUE(parseCsv(text, &records, &err)) << err;
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[0].fields, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(records[1].fields, (std::vector<std::string>{"x, y", "say \"hi\"", "two\r\nlines"}));
  EXPECT_EQ(records[1].line, 2u);
  EXPECT_EQ(records[2].fields, (std::vector<std::string>{"", "", ""}));
  EXPECT_EQ(records[2].line, 5u);  // the quoted line break and the empty line counted
  EXPECT_EQ(records[3].fields, (std::vector<std::string>{"last", "", "end"}));
}

TEST(Csv, RefusesMalformedQuotesWithTheLine) {
  std::vector<CsvRecord> records;
  std::string err;
  EXPECT_FALSE(parseCsv("a,b\nc,\"open\nstill open", &records, &err));
  EXPECT_EQ(err, "line 2: a quoted field is not closed");
  EXPECT_EQ(records.size(), 1u);
  records.clear();
  EXPECT_FALSE(parseCsv("a,b\nc,d\"e\n", &records, &err));
  EXPECT_EQ(err, "line 2: a quote inside a field that does not start with one");
  records.clear();
  EXPECT_FALSE(parseCsv("\"a\"b,c\n", &records, &err));
  EXPECT_EQ(err, "line 1: text after a closing quote");
}

TEST(Csv, FieldsRoundTrip) {
  const std::vector<std::string> fields = {"plain",    "a,b",      "q\"uote", "line\nbreak",
                                           "cr\rhere", " padded ", "",        "\xff"};
  EXPECT_EQ(csvField("plain"), "plain");
  EXPECT_EQ(csvField("q\"uote"), "\"q\"\"uote\"");
  const auto rows = csvRows(csvRow(fields) + csvRow(fields));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], fields);
  EXPECT_EQ(rows[1], fields);
}

std::vector<ClassEntry> classEntries() {
  ClassEntry alice{"alice", true, overriddenReport(), "", "", {}, {}};
  ClassEntry odd{"o'brien, \"the\" builder\nline 2", true, richReport(), "", "", {}, {}};
  ClassEntry broken{"carol", false, GradeReport{}, "timed out, then \"killed\"", "", {}, {}};
  ClassEntry formula{"=HYPERLINK(\"x\")", true, richReport(), "", "", {}, {}};
  return {alice, odd, broken, formula};
}

TEST(Gradebook, HeaderHasEveryCriterionTaskTotalAndMax) {
  const auto rows = csvRows(gradebookCsv(classEntries()));
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0],
            (std::vector<std::string>{"submission", "conv3x3.convolution", "conv3x3.tile_load", "separable.horizontal",
                                      "separable.steps", "histogram.global", "histogram.local", "conv3x3 total",
                                      "separable total", "histogram total", "total", "max", "overrides", "problem"}));
  for (const auto& row : rows) EXPECT_EQ(row.size(), rows[0].size());
}

TEST(Gradebook, RowsHoldPointsWithQuotingAndOverrides) {
  const std::string csv = gradebookCsv(classEntries());
  EXPECT_NE(csv.find("\r\n"), std::string::npos);
  const auto rows = csvRows(csv);
  ASSERT_EQ(rows.size(), 5u);
  // alice: the overridden value, the override named; what kept her tasks from running is the problem
  // (issue 28: a kernel that did not compile was invisible in the gradebook).
  EXPECT_EQ(rows[1],
            (std::vector<std::string>{
                "alice", "3", "2", "0", "0", "0", "0", "5", "0", "0", "5", "20",
                "conv3x3.convolution: 3 (measured 0) by ta1: edge handling accepted, see mail of 3 May <ok>",
                "separable: does not compile: CL_BUILD_PROGRAM_FAILURE; histogram: histogram.cl not found"}));
  // A name with a comma, quotes and a line break comes back whole.
  EXPECT_EQ(rows[2][0], "o'brien, \"the\" builder\nline 2");
  EXPECT_EQ(rows[2][1], "0");
  EXPECT_EQ(rows[2][10], "2");
  EXPECT_EQ(rows[2][12], "");
  // Not graded: empty cells and the reason.
  EXPECT_EQ(rows[3][0], "carol");
  for (size_t i = 1; i <= 11; ++i) EXPECT_EQ(rows[3][i], "") << i;
  EXPECT_EQ(rows[3][13], "timed out, then \"killed\"");
  // A formula in a folder name is not run by a spreadsheet.
  EXPECT_EQ(rows[4][0], "'=HYPERLINK(\"x\")");
  GradebookOptions raw;
  raw.guardFormulas = false;
  EXPECT_EQ(csvRows(gradebookCsv(classEntries(), raw))[4][0], "=HYPERLINK(\"x\")");
}

TEST(Gradebook, EmptyClassIsAHeader) {
  const auto rows = csvRows(gradebookCsv({}));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"submission", "total", "max", "overrides", "problem"}));
}

TEST(Gradebook, FractionalPointsAreNumbers) {
  std::vector<ClassEntry> entries = {{"a", true, richReport(), "", "", {}, {}}};
  entries[0].report.tasks[0].criteria[1].points = 1.0 / 3;
  entries[0].report.total = 2.5;
  const auto rows = csvRows(gradebookCsv(entries));
  EXPECT_EQ(rows[1][2], "0.3333");
  EXPECT_EQ(rows[1][10], "2.5");
}

}  // namespace
}  // namespace clgrade
