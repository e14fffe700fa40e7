// What is compared of a student's file: its own lines, not the handed-out template's (whatever the
// spacing), and no comments.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "similarity/comments.h"
#include "similarity/measure.h"
#include "similarity/template_lines.h"

namespace clgrade {
namespace {

const char kTemplate[] =
    "/* Task 2: separable convolution.\n"
    " * Launch: global {W, H}.\n"
    " */\n"
    "#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)\n"
    "__kernel void ConvHorizontal(__global float* d_Dst, int Width)\n"
    "{\n"
    "    // TODO: load the tile, barrier, then compute.\n"
    "}\n";

TEST(TemplateLines, LinesOfTheTemplateAreRemovedWhateverTheirSpacing) {
  const std::string student =
      "#define  KERNEL_LENGTH  (2*KERNEL_RADIUS+1)\n"
      "__kernel void ConvHorizontal(__global float *d_Dst,\tint Width)\n"
      "{\n"
      "  int x = get_global_id(0);\n"
      "  if (x < Width) d_Dst[x] = 0;\n"
      "}\n";
  EXPECT_EQ(templateLineMask(student, kTemplate), (std::vector<bool>{true, true, false, false, false, false}));
  EXPECT_EQ(withoutTemplateLines(student, kTemplate),
            "\n\n{\n  int x = get_global_id(0);\n  if (x < Width) d_Dst[x] = 0;\n}\n")
      << "line numbers stay; braces are never template lines";
}

TEST(TemplateLines, ABraceStyleOfItsOwnKeepsTheBraceAndLosesTheTemplateLine) {
  const std::string student = "__kernel void ConvHorizontal(__global float* d_Dst, int Width) {\n  d_Dst[0] = 1;\n}\n";
  EXPECT_EQ(templateLineMask(student, kTemplate), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(withoutTemplateLines(student, kTemplate), " {\n  d_Dst[0] = 1;\n}\n");
}

TEST(TemplateLines, TheTemplateItselfLeavesNothingButPunctuation) {
  const std::string compared = comparedText(kTemplate, kTemplate);
  for (char c : compared) EXPECT_TRUE(c == '\n' || c == ' ' || c == '{' || c == '}' || c == '*') << compared;
}

TEST(TemplateLines, AStudentsCodeOnATemplateCommentLineIsKept) {
  // The template's TODO comment is no template line once comments are gone: the student's code stays.
  const std::string student = "    // TODO: load the tile, barrier, then compute.\n    tile[l] = src[g];\n";
  const std::vector<std::string> lines = splitLines(comparedText(student, kTemplate));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(normalizedLine(lines[0]), "");
  EXPECT_EQ(lines[1], "    tile[l] = src[g];");
}

TEST(Comments, CommentsBecomeSpacesAndLiteralsStay) {
  EXPECT_EQ(withoutComments("a = 1; // one\nb = \"//x\"; /* two\nlines */ c = '/';\n"),
            "a = 1;       \nb = \"//x\";       \n         c = '/';\n");
  EXPECT_EQ(withoutComments("x /* never closed\ny"), "x                \n ");
  EXPECT_EQ(withoutComments("s = \"a\\\"//b\"; // c"), "s = \"a\\\"//b\";     ");
}

TEST(TemplateLines, SplitLinesKeepsALastLineWithoutABreak) {
  EXPECT_EQ(splitLines("a\nb"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(splitLines("a\n"), (std::vector<std::string>{"a"}));
  EXPECT_TRUE(splitLines("").empty());
}

}  // namespace
}  // namespace clgrade
