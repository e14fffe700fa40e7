// The C preprocessor's first phases, as far as clgrade needs them to read a kernel source the way a
// compiler will: trigraphs and line splices (phases 1-2), comments and logical lines (phase 3), and
// rough preprocessing tokens. Shared by the source policy (what may reach a compiler) and the
// compiler-identity prelude (which predefined macros a kernel names).
#pragma once

#include <string>
#include <vector>

namespace clgrade::pp {

bool isSpace(char c);
bool isIdent(char c);

/// A character after phases 1 and 2, with its physical line (1-based).
struct PhysicalChar {
  char c;
  int line;
};

/// Phases 1 and 2: trigraphs replaced, backslash-newline splices removed, each character with its line.
std::vector<PhysicalChar> splice(const std::string& t);

/// A comment-free logical line: what the preprocessor tokenizes, with the physical lines it came from.
struct LogicalLine {
  std::string text;
  int firstLine = 1, lastLine = 1;
};

/// Phase 3: logical lines with comments replaced by a space (literals kept as written).
std::vector<LogicalLine> logicalLines(const std::string& text);

/// A preprocessing token, roughly: enough to tell identifiers, literals and `##` apart.
struct Token {
  enum Kind { Identifier, Literal, Punctuator, EndOfDirective } kind;
  std::string text;
  size_t line = 0;  ///< index into the logical lines
};

/// Phase 3's tokens of one comment-free logical line (pp-numbers and other characters dropped, since
/// no file probe or macro name is spelled with them).
void tokenize(const std::string& line, size_t lineIndex, std::vector<Token>* out);

}  // namespace clgrade::pp
