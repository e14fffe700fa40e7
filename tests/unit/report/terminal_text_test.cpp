// Student text on the instructor's terminal: control characters are shown, never obeyed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "intake/source_policy.h"
#include "report/terminal_table.h"
#include "report_fixture.h"
#include "util/markup.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

/// A clipboard write (OSC 52), a bell, a screen clear and a fake green "passed" line: what a refused
/// #include name printed raw did to the terminal of `clgrade grade`.
const std::string kAttack = "\x1b]52;c;aGk=\x07\x1b[2J\x1b[32mpassed\x1b[0m";

/// True when no byte of `text` is a control character a terminal obeys (C0 but tab and LF, DEL,
/// and the C1 range whether encoded or raw).
bool inert(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) return false;
    if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(text[i + 1]) <= 0x9f)
      return false;
  }
  return true;
}

TEST(TerminalText, ControlCharactersBecomeVisibleEscapes) {
  EXPECT_EQ(terminalText(kAttack), "\\x1b]52;c;aGk=\\x07\\x1b[2J\\x1b[32mpassed\\x1b[0m");
  EXPECT_EQ(terminalText("a\tb\nc\rd\x7f"), "a\tb\nc\\x0dd\\x7f");  // tab and LF keep the layout
  EXPECT_EQ(terminalText(std::string("nul\0!", 5)), "nul\\x00!");
  EXPECT_EQ(terminalText("csi \xc2\x9b"
                         "2J"),
            "csi \\u009b2J");  // C1 CSI encoded in UTF-8
  EXPECT_EQ(terminalText("raw \x9b"
                         "2J \xff"),
            "raw \\x9b2J \\xff");  // bytes that are not UTF-8
  EXPECT_EQ(terminalText("rlo \xe2\x80\xae"
                         "txt"),
            "rlo \\u202etxt");  // a bidi override
  EXPECT_EQ(terminalText("Fa\xc3\xa7"
                         "ade \xe2\x9c\x93 \xf0\x9f\x99\x82"),
            "Fa\xc3\xa7"
            "ade \xe2\x9c\x93 \xf0\x9f\x99\x82");
  EXPECT_EQ(terminalText(terminalText(kAttack)), terminalText(kAttack));  // escaping twice changes nothing
}

// Found by an intake corpus: a submission folder named "x\nclgrade: ..." printed a line of its own in
// the batch's progress. A name is shown on one line, its breaks and tabs as \n and \t.
TEST(TerminalText, ANameStaysOnOneLine) {
  EXPECT_EQ(terminalName("new\nline\tand \x1b[2J"), "new\\nline\\tand \\x1b[2J");
  EXPECT_EQ(terminalName("Zo\xc3\xab"), "Zo\xc3\xab");
}

TEST(TerminalText, TheTableAndTheFailureDetailsAreInert) {
  GradeReport r = reporttest::richReport();
  r.tasks[0].criteria[0].message = "line 1: " + kAttack;
  r.tasks[0].checks[0].cases[0].message = kAttack;
  r.tasks[0].checks[0].cases[0].details = {kAttack};
  r.tasks[0].checks[0].cases[0].status = Status::Failed;
  r.tasks[0].checks[0].status = Status::Failed;
  r.tasks.back().problem = "histogram.cl line 1: #include \"" + kAttack + "\" is refused";
  const std::string table = terminalTable(r), details = failureDetails(r, "reports/x");
  EXPECT_TRUE(inert(table)) << table;
  EXPECT_TRUE(inert(details)) << details;
  EXPECT_NE(details.find("#include \"\\x1b]52;c;aGk=\\x07\\x1b[2J"), std::string::npos) << details;
  EXPECT_NE(table.find("\\x1b]52;c;"), std::string::npos) << table;
}

// The refusal message itself is inert, so every printer of it (batch progress lines, logs) is safe.
TEST(TerminalText, ARefusedIncludeNameIsShownEscaped) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("clgrade_escape_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "Convolution3x3.cl") << "#include \"" << kAttack << "\"\n__kernel void k() {}\n";
  const KernelSource s = loadKernelSource(dir.string(), "Convolution3x3.cl");
  EXPECT_NE(s.problem.find("Convolution3x3.cl line 1: #include \"\\x1b]52;c;aGk=\\x07\\x1b[2J\\x1b[32mpassed"),
            std::string::npos)
      << s.problem;
  EXPECT_TRUE(inert(s.problem)) << s.problem;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace clgrade

namespace clgrade {
namespace {

// Issue 28, item 6: the table was 120 columns whatever the terminal, cut reasons mid-word and ids at
// their column's width. Reasons now wrap at spaces within the width, and ids are never cut.
TEST(TerminalTable, ReasonsWrapWithinTheWidthAndIdsAreWhole) {
  GradeReport r;
  TaskReport t;
  t.id = "conv3x3";
  CriterionResult c;
  c.id = "a_criterion_whose_id_is_longer_than_its_column";
  c.max = 2;
  c.status = Status::Failed;
  c.message = "the first words of a long reason that goes on well past the end of an eighty column terminal and "
              "ends with the word tailword";
  t.criteria.push_back(c);
  r.tasks.push_back(t);
  const std::string table = terminalTable(r, 80, false);
  EXPECT_NE(table.find(c.id + " "), std::string::npos) << table;
  EXPECT_NE(table.find("tailword"), std::string::npos) << table;
  EXPECT_EQ(table.find("..."), std::string::npos) << table;
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(c.id) == std::string::npos && line.rfind("device:", 0) != 0 && line.rfind("clgrade", 0) != 0) {
      EXPECT_LE(line.size(), 80u) << line;
    }
  }
}

}  // namespace
}  // namespace clgrade
