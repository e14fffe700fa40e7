#include "similarity/template_lines.h"

#include <cctype>
#include <unordered_set>

namespace clgrade {
namespace {

bool saysSomething(const std::string& normalized) {
  for (char c : normalized)
    if (std::isalnum(static_cast<unsigned char>(c))) return true;
  return false;
}

bool isBrace(char c) { return c == '{' || c == '}' || c == ';'; }

/// A normalized line without the braces (and semicolons) at its ends: "int Pitch){" and "int Pitch)"
/// are the same template line, written in another brace style. `ends` gets what was taken off.
std::string core(const std::string& normalized, std::string* ends = nullptr) {
  size_t begin = 0, end = normalized.size();
  while (begin < end && isBrace(normalized[begin])) ++begin;
  while (end > begin && isBrace(normalized[end - 1])) --end;
  if (ends) *ends = normalized.substr(0, begin) + " " + normalized.substr(end);
  return normalized.substr(begin, end - begin);
}

std::unordered_set<std::string> skeletonOf(const std::string& templateText) {
  std::unordered_set<std::string> skeleton;
  for (const std::string& line : splitLines(templateText)) {
    std::string c = core(normalizedLine(line));
    if (saysSomething(c)) skeleton.insert(std::move(c));
  }
  return skeleton;
}

}  // namespace

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string normalizedLine(const std::string& line) {
  std::string out;
  out.reserve(line.size());
  for (char c : line)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

std::vector<bool> templateLineMask(const std::string& text, const std::string& templateText) {
  const std::unordered_set<std::string> skeleton = skeletonOf(templateText);
  std::vector<bool> mask;
  for (const std::string& line : splitLines(text)) mask.push_back(skeleton.count(core(normalizedLine(line))) > 0);
  return mask;
}

std::string withoutTemplateLines(const std::string& text, const std::string& templateText) {
  const std::unordered_set<std::string> skeleton = skeletonOf(templateText);
  std::string out;
  out.reserve(text.size());
  for (const std::string& line : splitLines(text)) {
    std::string ends;
    if (skeleton.count(core(normalizedLine(line), &ends)))
      out += ends == " " ? "" : ends;  // the student's own braces stay
    else
      out += line;
    out += '\n';
  }
  return out;
}

}  // namespace clgrade
