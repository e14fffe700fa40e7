#include "intake/pp_lexer.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string_view>

namespace clgrade::pp {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r'; }
bool isIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Phases 1 and 2: trigraphs replaced, backslash-newline splices removed, each character with its line.
/// A line ends at \n, \r\n or a lone \r, as Clang reads it: `// x\r#include "/etc/passwd"` is a
/// comment and then an #include to the compiler, and must be to clgrade too.
std::vector<PhysicalChar> splice(const std::string& t) {
  static const std::string_view trigraphFrom = "=(/)'<!>-", trigraphTo = "#[\\]^{|}~";
  std::vector<PhysicalChar> chars;
  chars.reserve(t.size());
  int line = 1;
  for (size_t i = 0; i < t.size();) {
    char c = t[i];
    size_t len = 1;
    if (c == '\r') {  // \r\n is one line end, a lone \r is one too
      c = '\n';
      if (i + 1 < t.size() && t[i + 1] == '\n') len = 2;
    }
    if (c == '?' && i + 2 < t.size() && t[i + 1] == '?' && trigraphFrom.find(t[i + 2]) != std::string_view::npos) {
      c = trigraphTo[trigraphFrom.find(t[i + 2])];
      len = 3;
    }
    if (c == '\\') {
      const size_t j = i + len;
      if (j < t.size() && t[j] == '\n') {
        ++line;
        i = j + 1;
        continue;
      }
      if (j < t.size() && t[j] == '\r') {
        ++line;
        i = j + (j + 1 < t.size() && t[j + 1] == '\n' ? 2 : 1);
        continue;
      }
    }
    chars.push_back({c, line});
    if (c == '\n') ++line;
    i += len;
  }
  return chars;
}

/// Phase 3: logical lines with comments replaced by a space (literals kept as written).
std::vector<LogicalLine> logicalLines(const std::string& text) {
  const std::vector<PhysicalChar> chars = splice(text);
  std::vector<LogicalLine> lines;
  std::string logical;
  int first = 1;
  enum { Normal, Block, Line, Literal } state = Normal;
  char quote = 0;
  auto endLine = [&](int last) {
    lines.push_back({logical, first, last});
    logical.clear();
  };
  for (size_t i = 0; i < chars.size(); ++i) {
    const char c = chars[i].c;
    const char next = i + 1 < chars.size() ? chars[i + 1].c : '\0';
    if (logical.empty() && state != Block) first = chars[i].line;
    switch (state) {
      case Normal:
        if (c == '\n') {
          endLine(chars[i].line);
        } else if (c == '/' && next == '*') {
          state = Block;
          ++i;
        } else if (c == '/' && next == '/') {
          state = Line;
          ++i;
        } else {
          if (c == '"' || c == '\'') {
            state = Literal;
            quote = c;
          }
          logical += c;
        }
        break;
      case Block:
        if (c == '*' && next == '/') {
          state = Normal;
          logical += ' ';
          ++i;
        }
        break;
      case Line:
        if (c == '\n') {
          state = Normal;
          endLine(chars[i].line);
        }
        break;
      case Literal:
        if (c == '\n') {  // an unterminated literal ends with its line
          state = Normal;
          endLine(chars[i].line);
        } else {
          logical += c;
          if (c == '\\' && next != '\n' && next != '\0') {
            logical += next;
            ++i;
          } else if (c == quote) {
            state = Normal;
          }
        }
        break;
    }
  }
  if (!logical.empty()) endLine(chars.empty() ? 1 : chars.back().line);
  return lines;
}

/// Phase 3's tokens of one comment-free logical line (pp-numbers and other characters dropped, since
/// no file probe is spelled with them).
void tokenize(const std::string& line, size_t lineIndex, std::vector<Token>* out) {
  for (size_t p = 0; p < line.size();) {
    const char c = line[p];
    if (c == '_' || std::isalpha(static_cast<unsigned char>(c))) {
      size_t q = p;
      while (q < line.size() && isIdent(line[q])) ++q;
      out->push_back({Token::Identifier, line.substr(p, q - p), lineIndex});
      p = q;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      // A pp-number ("1e5", "0x1fu") is one token: its letters never start an identifier.
      size_t q = p + 1;
      while (q < line.size() && (isIdent(line[q]) || line[q] == '.' ||
                                 ((line[q] == '+' || line[q] == '-') && std::strchr("eEpP", line[q - 1]))))
        ++q;
      p = q;
    } else if (c == '"' || c == '\'') {
      size_t q = p + 1;
      while (q < line.size() && line[q] != c) q += line[q] == '\\' ? 2 : 1;
      q = std::min(q + 1, line.size());
      out->push_back({Token::Literal, line.substr(p, q - p), lineIndex});
      p = q;
    } else if (line.compare(p, 2, "##") == 0 || line.compare(p, 4, "%:%:") == 0) {
      out->push_back({Token::Punctuator, "##", lineIndex});
      p += line[p] == '#' ? 2 : 4;
    } else if (isSpace(c)) {
      ++p;
    } else {
      out->push_back({Token::Punctuator, std::string(1, c), lineIndex});
      ++p;
    }
  }
}

}  // namespace clgrade::pp
