#include "similarity/comments.h"

namespace clgrade {

std::string withoutComments(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  enum { Code, Line, Block, String, Char } state = Code;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    switch (state) {
      case Code:
        if (c == '/' && next == '/') {
          state = Line;
          out += "  ";
          ++i;
        } else if (c == '/' && next == '*') {
          state = Block;
          out += "  ";
          ++i;
        } else {
          if (c == '"') state = String;
          if (c == '\'') state = Char;
          out += c;
        }
        break;
      case Line:
        if (c == '\n') {
          state = Code;
          out += '\n';
        } else {
          out += ' ';
        }
        break;
      case Block:
        if (c == '*' && next == '/') {
          state = Code;
          out += "  ";
          ++i;
        } else {
          out += c == '\n' ? '\n' : ' ';
        }
        break;
      case String:
      case Char:
        out += c;
        if (c == '\\' && next != '\0' && next != '\n') {
          out += next;
          ++i;
        } else if ((state == String && c == '"') || (state == Char && c == '\'') || c == '\n') {
          state = Code;  // an unterminated literal ends with its line
        }
        break;
    }
  }
  return out;
}

}  // namespace clgrade
