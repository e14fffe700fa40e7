// The class with a roster: every student a row in roster order (those who handed in nothing with 0
// and "no submission"), submissions that are no student's kept and named, in the gradebook and in
// summary.html.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "report/class_roster.h"
#include "report/gradebook_csv.h"
#include "report/summary_html.h"
#include "report/text.h"
#include "report_fixture.h"
#include "util/csv.h"

namespace clgrade {
namespace {

ClassEntry graded(const std::string& name) {
  ClassEntry e;
  e.submission = name;
  e.graded = true;
  e.report = reporttest::richReport();
  return e;
}

Roster roster() {
  Roster r;
  std::vector<std::string> errors;
  parseRoster("id,name,email,login\n4711,Ada Lovelace,ada@x,alovelace\n4712,Bob Smith,bob@x,bsmith\n"
              "4713,Cy Young,,\n",
              "roster.csv", &r, &errors);
  EXPECT_TRUE(errors.empty());
  return r;
}

/// The gradebook's rows as maps from its header.
std::vector<std::map<std::string, std::string>> rows(const std::string& csv) {
  std::vector<CsvRecord> records;
  std::string err;
  EXPECT_TRUE(parseCsv(csv, &records, &err)) << err;
  std::vector<std::map<std::string, std::string>> out;
  for (size_t r = 1; r < records.size(); ++r) {
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < records[0].fields.size() && i < records[r].fields.size(); ++i)
      row[records[0].fields[i]] = records[r].fields[i];
    out.push_back(row);
  }
  return out;
}

TEST(ClassRoster, EveryStudentIsARowInRosterOrderAndStrangersComeLast) {
  std::vector<std::string> messages;
  const std::vector<ClassEntry> entries =
      classWithRoster({graded("Young_Cy_x_17"), graded("stranger"), graded("Lovelace_Ada_alovelace_6789")}, roster(),
                      &messages);
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].student->id, "4711");
  EXPECT_EQ(entries[0].submission, "Lovelace_Ada_alovelace_6789");
  EXPECT_EQ(entries[1].student->id, "4712");
  EXPECT_FALSE(entries[1].handedIn);
  EXPECT_EQ(entries[1].problem, "no submission");
  EXPECT_EQ(entries[2].submission, "Young_Cy_x_17");
  EXPECT_EQ(entries[3].submission, "stranger");
  EXPECT_FALSE(entries[3].student);
  EXPECT_EQ(entries[3].problem, "not on the roster");
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0], "roster.csv: 1 of 3 students handed in nothing: 4712 (Bob Smith)");
  EXPECT_EQ(messages[1], "roster.csv: 1 submission is no student's on the roster: stranger");

  const auto book = rows(gradebookCsv(entries));
  ASSERT_EQ(book.size(), 4u);
  EXPECT_EQ(book[0].at("student_id"), "4711");
  EXPECT_EQ(book[0].at("student_name"), "Ada Lovelace");
  EXPECT_EQ(book[0].at("student_email"), "ada@x");
  EXPECT_EQ(book[0].at("total"), formatPoints(reporttest::richReport().total));
  EXPECT_EQ(book[1].at("submission"), "");
  EXPECT_EQ(book[1].at("total"), "0");
  EXPECT_EQ(book[1].at("max"), book[0].at("max"));
  EXPECT_EQ(book[1].at("problem"), "no submission");
  EXPECT_EQ(book[3].at("student_id"), "");
  EXPECT_EQ(book[3].at("problem").rfind("not on the roster", 0), 0u) << book[3].at("problem");
  EXPECT_EQ(book[3].at("total"), book[0].at("total"));  // graded all the same

  const std::string html = summaryHtml(entries);
  EXPECT_NE(html.find("<th>Student</th>"), std::string::npos);
  EXPECT_NE(html.find("4712 Bob Smith"), std::string::npos);
  EXPECT_NE(html.find("no submission"), std::string::npos);
  EXPECT_NE(html.find("not on the roster"), std::string::npos);
  // The statistics count what was handed in: three submissions, all graded.
  EXPECT_NE(html.find("<dd>3 (3 graded)</dd>"), std::string::npos);
}

TEST(ClassRoster, AStudentWithTwoSubmissionsHasNoGradeButIsNotMissing) {
  std::vector<std::string> messages;
  const std::vector<ClassEntry> entries =
      classWithRoster({graded("bsmith_first"), graded("bsmith_second")}, roster(), &messages);
  ASSERT_EQ(entries.size(), 5u);
  EXPECT_TRUE(entries[1].handedIn);
  EXPECT_FALSE(entries[1].graded);
  EXPECT_EQ(entries[1].problem, "2 submissions, none taken: 'bsmith_first' 'bsmith_second'");
  EXPECT_EQ(entries[3].problem, "one of the submissions of 4712, none taken");
  const auto book = rows(gradebookCsv(entries));
  EXPECT_EQ(book[1].at("total"), "");  // not 0: the instructor decides which one counts
}

TEST(ClassRoster, StudentsASubmissionCouldBelongToGetNoGradeNotAZero) {
  Roster r;
  std::vector<std::string> errors;
  parseRoster("id,name,login\n1001,Tom Lee,lee\n1002,Bruce Lee,blee\n", "roster.csv", &r, &errors);
  std::vector<std::string> messages;
  const std::vector<ClassEntry> entries = classWithRoster({graded("Bruce Lee_555_assignsubmission_file_")}, r, &messages);
  ASSERT_EQ(entries.size(), 3u);
  for (size_t i : {0, 1}) {
    EXPECT_TRUE(entries[i].handedIn) << i;
    EXPECT_FALSE(entries[i].graded) << i;
  }
  const auto book = rows(gradebookCsv(entries));
  EXPECT_EQ(book[0].at("total"), "");
  EXPECT_EQ(book[1].at("total"), "");
  EXPECT_EQ(entries[2].problem, "not on the roster");
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(messages.back().find("but the name of 1002 (Bruce Lee)"), std::string::npos) << messages.back();
}

TEST(ClassRoster, WithoutARosterNothingChanges) {
  const std::vector<ClassEntry> entries = classWithRoster({graded("a"), graded("b")}, Roster{});
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(gradebookCsv(entries).find("student_id"), std::string::npos);
}

}  // namespace
}  // namespace clgrade
