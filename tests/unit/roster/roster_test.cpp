// The roster: the instructor's CSV read with every problem named, and submissions matched to students
// the way LMS downloads name their folders (Moodle "Full Name_<participant>_assignsubmission_file_",
// ILIAS "Lastname_Firstname_login_<usr_id>"), never by a guess.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "roster/roster.h"
#include "roster/roster_json.h"
#include "roster/roster_match.h"

namespace clgrade {
namespace {

Roster parsed(const std::string& text, std::vector<std::string>* errors = nullptr) {
  Roster r;
  std::vector<std::string> own;
  parseRoster(text, "roster.csv", &r, errors ? errors : &own);
  return r;
}

std::string joinedNames(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

TEST(Roster, ReadsItsColumnsByTheirUsualNamesInAnyOrder) {
  std::vector<std::string> errors;
  const Roster r = parsed(
      "\xEF\xBB\xBF" "E-Mail,Matrikelnummer,Vorname,Nachname,Username,Group\r\n"
      "ada@uni.example,4711,Ada,Lovelace,alovelace,A\r\n"
      "\"bob@uni.example\",4712,Bob,\"Smith, Jr.\",bsmith,B\r\n",
      &errors);
  EXPECT_TRUE(errors.empty()) << joinedNames(errors);
  ASSERT_EQ(r.students.size(), 2u);
  EXPECT_EQ(r.students[0].id, "4711");
  EXPECT_EQ(r.students[0].name, "Ada Lovelace");
  EXPECT_EQ(r.students[0].email, "ada@uni.example");
  EXPECT_EQ(r.students[0].login, "alovelace");
  EXPECT_EQ(r.students[1].name, "Bob Smith, Jr.");
  EXPECT_EQ(r.students[1].line, 3u);
}

TEST(Roster, NamesEveryProblemWithItsLineAndKeepsTheValidRows) {
  std::vector<std::string> errors;
  const Roster r = parsed("id,name,login\n1,Ada,ada\n,Nobody,x\n1,Again,y\n2,Bob,ada\n3,Cy,cy\n", &errors);
  EXPECT_EQ(joinedNames(errors),
            "roster.csv:3: no student id for Nobody\n"
            "roster.csv:4: student id '1' is given twice (first on line 2)\n"
            "roster.csv:5: login 'ada' is given twice (first on line 2)\n");
  ASSERT_EQ(r.students.size(), 2u);
  EXPECT_EQ(r.students[1].id, "3");
}

TEST(Roster, WithoutAnIdColumnIsRefused) {
  std::vector<std::string> errors;
  parsed("name,email\nAda,ada@x\n", &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("roster.csv:1: no student id column"), std::string::npos) << errors[0];
  errors.clear();
  parsed("", &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("no header"), std::string::npos);
}

TEST(Roster, ReadsCanvasGradebookExportAsItIs) {
  std::vector<std::string> errors;
  const Roster r = parsed(
      "Student,ID,SIS User ID,SIS Login ID,Section,Lab 3 (12345)\n"
      "    Points Possible,,,,,20\n"
      "\"Lovelace, Ada\",98765,4711,alovelace,Sec 1,\n",
      &errors);
  EXPECT_TRUE(errors.empty()) << joinedNames(errors);
  ASSERT_EQ(r.students.size(), 1u);
  EXPECT_EQ(r.students[0].id, "4711");  // the SIS User ID, not Canvas's own user id
  EXPECT_EQ(r.students[0].login, "alovelace");
  EXPECT_EQ(r.students[0].name, "Lovelace, Ada");
}

TEST(Roster, SaysWhatIsWrongWithAFileFromASpreadsheet) {
  std::vector<std::string> errors;
  parsed("Matrikelnummer;Name\n4711;Ada\n", &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("separated by ';'"), std::string::npos) << errors[0];
  errors.clear();
  const Roster latin1 = parsed("id,name\n1,M\xfcller\n2,Bob\n", &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("roster.csv:2: not UTF-8"), std::string::npos) << errors[0];
  EXPECT_EQ(latin1.students.size(), 1u);
  errors.clear();
  parsed("id,login,submission\n1,Alice,a\n2,alice,b\n3,c,a.zip\n", &errors);
  EXPECT_EQ(joinedNames(errors),
            "roster.csv:3: login 'alice' is given twice (first on line 2)\n"
            "roster.csv:4: submission 'a' is given twice (first on line 2)\n");
}

TEST(Roster, SurvivesClassJson) {
  const Roster r = parsed("id,name,email,login,submission\n1,Ada,a@x,ada,ada.zip\n2,Bob,,,\n");
  const Roster back = rosterFromJson(rosterJson(r));
  ASSERT_EQ(back.students.size(), 2u);
  EXPECT_EQ(back.source, "roster.csv");
  EXPECT_EQ(back.students[0].submission, "ada.zip");
  EXPECT_EQ(back.students[0].login, "ada");
  EXPECT_EQ(back.students[1].name, "Bob");
  EXPECT_FALSE(rosterJson(r)["students"][1].contains("email"));  // empty fields left out
  EXPECT_TRUE(rosterFromJson(nlohmann::ordered_json("x")).empty());
}

TEST(RosterMatch, FindsStudentsInTheFolderNamesOfLmsDownloads) {
  const Roster r = parsed(
      "id,first name,last name,email,login\n"
      "4711,Ada,Lovelace,ada@uni.example,alovelace\n"
      "4712,Jürgen,Müller,jm@uni.example,jmueller\n"
      "4713,Grace,Hopper,grace@uni.example,ghopper\n"
      "4714,Alan,Turing,,\n"
      "4715,Nobody,Handed-In,,\n");
  const RosterMatch m = matchRoster(r, {"Lovelace_Ada_alovelace_6789",                  // ILIAS: login
                                        "Juergen Mueller_1234567_assignsubmission_file_",  // Moodle: name, transliterated
                                        "grace@uni.example",                             // the email
                                        "TURING ALAN",                                   // the name, any order and case
                                        "zed"});
  EXPECT_EQ(m.studentOf.at("Lovelace_Ada_alovelace_6789"), 0u);
  EXPECT_EQ(m.how.at("Lovelace_Ada_alovelace_6789"), "login or email and name");
  EXPECT_EQ(m.studentOf.at("Juergen Mueller_1234567_assignsubmission_file_"), 1u);
  EXPECT_EQ(m.how.at("Juergen Mueller_1234567_assignsubmission_file_"), "name");
  EXPECT_EQ(m.studentOf.at("grace@uni.example"), 2u);
  EXPECT_EQ(m.studentOf.at("TURING ALAN"), 3u);
  EXPECT_EQ(m.unmatched, std::vector<std::string>{"zed"});
  EXPECT_EQ(m.missing, std::vector<size_t>{4});
  EXPECT_TRUE(m.problems.empty()) << joinedNames(m.problems);
}

TEST(RosterMatch, TheNumbersAnLmsAddsAreNoStudentIds) {
  // Moodle's participant number 4712 and ILIAS's user id 4711 happen to be student ids of others.
  const Roster r = parsed("id,name,login\n4711,Emil Schmidt,eschmidt\n4712,Bob Smith,bsmith\n9000,Ada Lovelace,alovelace\n"
                          "9001,Jose Garcia Lopez,jgarcia\n");
  const RosterMatch m = matchRoster(r, {"Ada Lovelace_4712_assignsubmission_file_", "Garcia_Jose_jgarcia_4711"});
  EXPECT_EQ(m.studentOf.at("Ada Lovelace_4712_assignsubmission_file_"), 2u);
  EXPECT_EQ(m.studentOf.at("Garcia_Jose_jgarcia_4711"), 3u);  // by login: the name is spelled otherwise
  EXPECT_TRUE(m.problems.empty()) << joinedNames(m.problems);
  EXPECT_EQ(m.missing, (std::vector<size_t>{0, 1}));
}

TEST(RosterMatch, AFileNameTheStudentChoseNamesNobody) {
  // Moodle's flat download appends the uploaded file's name: "bsmith" there is Ada's choice.
  const Roster r = parsed("id,name,login\n1,Ada Lovelace,alovelace\n2,Bob Smith,bsmith\n");
  const RosterMatch m = matchRoster(r, {"Ada Lovelace_777_assignsubmission_file_bsmith.cl"});
  EXPECT_EQ(m.studentOf.at("Ada Lovelace_777_assignsubmission_file_bsmith.cl"), 0u);
  EXPECT_EQ(m.missing, std::vector<size_t>{1});
}

TEST(RosterMatch, ALoginThatIsAWordOfAnothersNameIsNoMatch) {
  const Roster r = parsed("id,name,login\n1001,Tom Lee,lee\n1002,Bruce Lee,blee\n1003,Ada Lovelace,ada\n");
  const RosterMatch m = matchRoster(r, {"Bruce Lee_555_assignsubmission_file_", "4711 Ada Lovelace"});
  EXPECT_FALSE(m.studentOf.count("Bruce Lee_555_assignsubmission_file_"));
  ASSERT_GE(m.problems.size(), 1u);
  EXPECT_NE(m.problems[0].find("has the login or email of 1001 (Tom Lee) but the name of 1002 (Bruce Lee)"),
            std::string::npos)
      << joinedNames(m.problems);
  // Neither is missing (a 0): both are uncertain (no grade until the instructor says whose it is).
  EXPECT_EQ(m.uncertain, (std::set<size_t>{0, 1}));
  EXPECT_TRUE(m.missing.empty());
  EXPECT_EQ(m.studentOf.at("4711 Ada Lovelace"), 2u);  // a number that is nobody's id changes nothing
}

TEST(RosterMatch, AnIdAndANameOfTwoStudentsAreNoMatch) {
  const Roster r = parsed("id,name\n4711,Ada Lovelace\n4712,Bob Smith\n");
  const RosterMatch m = matchRoster(r, {"4712 Ada Lovelace"});
  ASSERT_EQ(m.problems.size(), 1u);
  EXPECT_NE(m.problems[0].find("has the id of 4712 (Bob Smith) but the name of 4711 (Ada Lovelace)"), std::string::npos)
      << m.problems[0];
  EXPECT_EQ(m.uncertain, (std::set<size_t>{0, 1}));
}

TEST(RosterMatch, NeverGuessesBetweenTwoStudents) {
  const Roster r = parsed("id,name,submission\n1,Ana Lima,\n2,Ana Lima Costa,\n3,Cy,cy_final.zip\n");
  const RosterMatch m = matchRoster(r, {"ana_lima_costa", "cy_final", "cy_old"});
  // "ana lima costa" holds both names: a problem, not a match.
  EXPECT_FALSE(m.studentOf.count("ana_lima_costa"));
  ASSERT_EQ(m.problems.size(), 1u);
  EXPECT_NE(m.problems[0].find("could be 1 (Ana Lima) and 2 (Ana Lima Costa)"), std::string::npos) << m.problems[0];
  // The submission column decides, and only it: cy_old is not Cy's although his name is in it.
  EXPECT_EQ(m.studentOf.at("cy_final"), 2u);
  EXPECT_EQ(m.how.at("cy_final"), "submission column");
  EXPECT_EQ(m.unmatched, (std::vector<std::string>{"ana_lima_costa", "cy_old"}));
}

TEST(RosterMatch, AStudentWithTwoSubmissionsGetsNeither) {
  const Roster r = parsed("id,name,login\n1,Ada Lovelace,ada\n");
  const RosterMatch m = matchRoster(r, {"ada_v1", "ada_v2"});
  EXPECT_TRUE(m.studentOf.empty());
  EXPECT_TRUE(m.missing.empty());  // she handed in: twice
  ASSERT_EQ(m.contested.at(0).size(), 2u);
  ASSERT_EQ(m.problems.size(), 1u);
  EXPECT_NE(m.problems[0].find("has 2 submissions ('ada_v1', 'ada_v2')"), std::string::npos) << m.problems[0];
}

}  // namespace
}  // namespace clgrade
