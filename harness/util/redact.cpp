#include "util/redact.h"

#include <cctype>

namespace clgrade {
namespace {

bool pathChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '.' || c == '_' || c == '-' || c == '+' ||
         c == '~' || c == '@' || c == '%' || static_cast<unsigned char>(c) >= 0x80;
}

bool opensPath(char before) {
  return std::isspace(static_cast<unsigned char>(before)) || before == '"' || before == '\'' || before == '(' ||
         before == '<' || before == '=' || before == ',' || before == ':' || before == '`';
}

}  // namespace

std::string redactPaths(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const bool start = text[i] == '/' && i + 1 < text.size() && text[i + 1] != '/' && text[i + 1] != '*' &&
                       (i == 0 || opensPath(text[i - 1]));
    if (!start) {
      out += text[i++];
      continue;
    }
    size_t end = i;
    while (end < text.size() && pathChar(text[end])) ++end;
    // A trailing '.' ends a sentence ("... in /tmp/x.cl."), it is not part of the name.
    while (end > i + 1 && text[end - 1] == '.') --end;
    const std::string path = text.substr(i, end - i);
    int components = 0;
    for (size_t p = 0; p < path.size(); ++p)
      if (path[p] == '/' && p + 1 < path.size() && path[p + 1] != '/') ++components;
    const size_t lastSlash = path.find_last_of('/');
    const std::string last = path.substr(lastSlash + 1);
    if (components >= 3 || (components == 2 && last.find('.') != std::string::npos && last != "." && last != "..")) {
      out += last.empty() ? path : last;
    } else {
      out += path;
    }
    i = end;
  }
  return out;
}

}  // namespace clgrade
