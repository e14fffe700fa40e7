// The LMS exports, column by column as each platform's importer reads them (docs/lms.md says where
// each was read): Canvas's gradebook CSV, Moodle's gradebook CSV and grading worksheet, the ILIAS
// exercise status file; from a class folder's class.json with a roster, a student who handed in
// nothing, one with no grade and a submission that is no student's.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "lms/lms_export.h"
#include "roster/roster.h"
#include "util/csv.h"
#include "util/files.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

std::vector<std::vector<std::string>> parse(const std::string& text) {
  std::vector<CsvRecord> records;
  std::string err;
  EXPECT_TRUE(parseCsv(text, &records, &err)) << err;
  std::vector<std::vector<std::string>> rows;
  for (const CsvRecord& r : records) rows.push_back(r.fields);
  return rows;
}

using Row = std::vector<std::string>;

class LmsExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("clgrade-lms-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    // Folders as Moodle and ILIAS downloads name them; the totals have overrides applied already.
    const std::string cls = R"({
  "schema": "clgrade-class/1",
  "rubric": {"id": "four_tasks", "title": "Image convolution", "sha256": "x"},
  "mode": "grade",
  "roster": {"source": "roster.csv", "students": [
    {"id": "4711", "name": "Ada Lovelace", "email": "ada@uni.example", "login": "alovelace"},
    {"id": "4712", "name": "Bob Smith", "email": "bob@uni.example", "login": "bsmith"},
    {"id": "4713", "name": "Cy Young", "email": "cy@uni.example", "login": "cyoung"},
    {"id": "4714", "name": "Di Prince", "email": "di@uni.example", "login": "dprince"}]},
  "submissions": [
    {"submission": "Ada Lovelace_1234567_assignsubmission_file_", "total": 17.5, "max": 20,
     "tasks": [{"id": "conv3x3", "points": 5, "max": 5, "status": "passed", "problem": ""},
               {"id": "histogram", "points": 2.5, "max": 5, "status": "failed", "problem": "does not compile: x"}]},
    {"submission": "Smith_Bob_bsmith_6789", "total": 20, "max": 20, "tasks": []},
    {"submission": "Young_Cy_cyoung_6790", "not_graded": "a fault of the grading machine"},
    {"submission": "stranger_1", "total": 3, "max": 20, "tasks": []}
  ]
})";
    std::string err;
    ASSERT_TRUE(writeFileAtomically((dir_ / "class.json").string(), cls, &err)) << err;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<Row> render(const std::string& format, std::vector<std::string>* warnings,
                          const Roster* roster = nullptr, std::optional<double> passAt = std::nullopt) {
    ClassGrades grades;
    std::string err;
    EXPECT_TRUE(readClassGrades(dir_.string(), roster, &grades, &err)) << err;
    ExportSettings settings{"Lab 3 (12345)", passAt, "2026-11-27 10:00"};
    for (const LmsExport& f : lmsExports())
      if (f.name == format) return parse(f.render(grades, settings, warnings));
    ADD_FAILURE() << "no format " << format;
    return {};
  }

  fs::path dir_;
};

TEST_F(LmsExportTest, CanvasGradebookCsv) {
  std::vector<std::string> warnings;
  const auto rows = render("canvas", &warnings);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0], (Row{"Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Lab 3 (12345)"}));
  EXPECT_EQ(rows[1], (Row{"Points Possible", "", "", "", "", "20"}));
  EXPECT_EQ(rows[2], (Row{"Ada Lovelace", "", "4711", "alovelace", "", "17.5"}));
  EXPECT_EQ(rows[3], (Row{"Bob Smith", "", "4712", "bsmith", "", "20"}));
  EXPECT_EQ(rows[4], (Row{"Cy Young", "", "4713", "cyoung", "", ""}));  // no grade: no score, not 0
  EXPECT_EQ(rows[5], (Row{"Di Prince", "", "4714", "dprince", "", "0"}));  // handed in nothing
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find("4713 (Cy Young): no grade (not graded: a fault"), std::string::npos) << warnings[0];
  EXPECT_EQ(warnings[1], "'stranger_1': no student on the roster: not in the file");
}

TEST_F(LmsExportTest, MoodleGradebookCsv) {
  std::vector<std::string> warnings;
  const auto rows = render("moodle", &warnings);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0], (Row{"ID number", "Username", "Email address", "Full name", "Lab 3 (12345)",
                          "Lab 3 (12345) feedback"}));
  EXPECT_EQ(rows[1], (Row{"4711", "alovelace", "ada@uni.example", "Ada Lovelace", "17.5",
                          "clgrade: 17.5/20 (conv3x3 5/5, histogram 2.5/5); histogram: does not compile: x"}));
  EXPECT_EQ(rows[4][4], "0");
  EXPECT_EQ(rows[4][5], "no submission");
  EXPECT_EQ(rows[3][4], "");
}

TEST_F(LmsExportTest, MoodleLeavesOutAUserFieldSomeStudentLacks) {
  Roster roster;
  std::vector<std::string> errors;
  ASSERT_TRUE(parseRoster("id,name,login\n4711,Ada Lovelace,alovelace\n4712,Bob Smith,\n", "r.csv", &roster, &errors));
  std::vector<std::string> warnings;
  const auto rows = render("moodle", &warnings, &roster);
  EXPECT_EQ(rows[0], (Row{"ID number", "Full name", "Lab 3 (12345)", "Lab 3 (12345) feedback"}));
}

TEST_F(LmsExportTest, MoodleWorksheetNeedsNoRoster) {
  std::vector<std::string> warnings;
  const auto rows = render("moodle-worksheet", &warnings);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (Row{"Identifier", "Full name", "Email address", "Grade", "Maximum Grade", "Last modified (grade)",
                          "Feedback comments"}));
  EXPECT_EQ(rows[1][0], "Participant 1234567");
  EXPECT_EQ(rows[1][1], "Ada Lovelace");
  EXPECT_EQ(rows[1][3], "17.5");
  EXPECT_EQ(rows[1][4], "20");
  EXPECT_EQ(rows[1][5], "2026-11-27 10:00");
  EXPECT_EQ(warnings.size(), 4u);  // Bob and Cy (ILIAS names), stranger, Di (nothing handed in)
}

TEST_F(LmsExportTest, IliasStatusFileOfTheExerciseStatusFilePlugin) {
  std::vector<std::string> warnings;
  const auto rows = render("ilias", &warnings, nullptr, 10.0);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (Row{"update", "usr_id", "login", "lastname", "firstname", "status", "mark", "notice", "comment",
                          "plagiarism", "plag_comment"}));
  EXPECT_EQ(rows[1], (Row{"1", "6789", "bsmith", "Smith", "Bob", "passed", "20", "", "clgrade: 20/20", "", ""}));
  // Ada's folder is Moodle's, Cy has no grade, stranger_1 is no ILIAS folder (its 1 is no user id),
  // Di handed in nothing.
  ASSERT_EQ(warnings.size(), 4u);
  EXPECT_NE(warnings[3].find("'stranger_1': its folder name does not end with an ILIAS user id"), std::string::npos)
      << warnings[3];
}

TEST_F(LmsExportTest, AClassFolderThatIsNotOneSaysWhy) {
  ClassGrades grades;
  std::string err;
  EXPECT_FALSE(readClassGrades((dir_ / "nothing").string(), nullptr, &grades, &err));
  EXPECT_NE(err.find("give the --out folder of a clgrade batch or merge"), std::string::npos) << err;
  ASSERT_TRUE(writeFileAtomically((dir_ / "class.json").string(), "{\"schema\": \"other\"}", &err));
  EXPECT_FALSE(readClassGrades(dir_.string(), nullptr, &grades, &err));
  EXPECT_NE(err.find("not a clgrade class file"), std::string::npos) << err;
}

TEST(LmsFolderNames, AFolderNameIsNeverAFormulaInTheExport) {
  ClassGrades grades;
  ClassGrade g;
  g.submission = "=HYPERLINK(x)_Ada_+login_42";
  g.graded = true;
  g.total = g.max = 2;
  grades.grades = {g};
  std::vector<std::string> warnings;
  const auto rows = parse(iliasStatusCsv(grades, ExportSettings{}, &warnings));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1][1], "42");
  EXPECT_EQ(rows[1][2], "'+login");
  EXPECT_EQ(rows[1][3], "'=HYPERLINK(x)");
  grades.grades[0].submission = "-1+1_1234567_assignsubmission_file_";
  const auto worksheet = parse(moodleWorksheetCsv(grades, ExportSettings{}, &warnings));
  ASSERT_EQ(worksheet.size(), 2u);
  EXPECT_EQ(worksheet[1][1], "'-1+1");
}

TEST(LmsFolderNames, TwoFoldersOfOneLmsUserAreNeitherExported) {
  ClassGrades grades;
  for (const char* folder : {"Ada Lovelace_777_assignsubmission_file_", "Ada Lovelace_777_assignsubmission_onlinetext_",
                             "Lovelace_Ada_alovelace_6789", "=x_y_z_6789", "Bob Smith_778_assignsubmission_file_"}) {
    ClassGrade g;
    g.submission = folder;
    g.graded = true;
    g.total = g.max = 2;
    grades.grades.push_back(g);
  }
  std::vector<std::string> warnings;
  const auto worksheet = parse(moodleWorksheetCsv(grades, ExportSettings{}, &warnings));
  ASSERT_EQ(worksheet.size(), 2u);
  EXPECT_EQ(worksheet[1][0], "Participant 778");
  EXPECT_NE(warnings[0].find("participant 777 has 2 folders: not in the file"), std::string::npos) << warnings[0];
  warnings.clear();
  const auto ilias = parse(iliasStatusCsv(grades, ExportSettings{}, &warnings));
  EXPECT_EQ(ilias.size(), 1u);  // both 6789 folders left out
  bool said = false;
  for (const std::string& w : warnings) said = said || w.find("ILIAS user 6789 has 2 folders") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(LmsFolderNames, ParticipantAndUserIdAreReadFromTheRight) {
  EXPECT_EQ(moodleParticipant("Ada Lovelace_1234567_assignsubmission_file_"), "1234567");
  EXPECT_EQ(moodleParticipant("Team A-Ada Lovelace_12_assignsubmission_onlinetext_"), "12");
  EXPECT_EQ(moodleParticipant("ada_lovelace"), "");
  EXPECT_EQ(iliasUserId("Lovelace_Ada_a_lovelace_6789"), "6789");
  EXPECT_EQ(iliasUserId("6789"), "");
  EXPECT_EQ(iliasUserId("alice"), "");
  EXPECT_EQ(iliasUserId("alice_2"), "");
}

}  // namespace
}  // namespace clgrade
