// Removing the handed-out skeleton from a student's file before it is compared: every student starts
// from kernels_template/<file>.cl, so its signatures, defines and comments are alike in every
// submission and would make every pair look similar. Only the student's own lines are compared.
#pragma once

#include <string>
#include <vector>

namespace clgrade {

/// A line as compared with the template's: every white-space character removed (a student who
/// re-indents or re-spaces a template line still has the template's line).
std::string normalizedLine(const std::string& line);

/// Per line of `text` (split at '\n'; a '\r' before it is white space): true when its normalized text,
/// without the braces and semicolons at its ends, is that of a line of `templateText` (so the
/// template's "int Width, int Pitch)" is found in a student's "int Width, int Pitch) {", whatever the
/// brace style). Lines with no letter or digit ("{", "}", blank, ");") are never template lines: they
/// say nothing of their own, and removing them would take the student's structure apart (a brace of
/// the student's own loop matches the template's brace).
std::vector<bool> templateLineMask(const std::string& text, const std::string& templateText);

/// `text` without its template lines: each leaves an empty line (so line numbers stay), or only the
/// braces at its ends when it had some of its own ("int Pitch) {" leaves "{"), so that every brace
/// style compares alike.
std::string withoutTemplateLines(const std::string& text, const std::string& templateText);

/// `text` split at '\n' (a last line without '\n' counts; an empty text has no line).
std::vector<std::string> splitLines(const std::string& text);

}  // namespace clgrade
