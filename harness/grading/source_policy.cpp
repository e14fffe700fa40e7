#include "grading/source_policy.h"

#include <regex>

namespace clgrade {

std::string refuseSource(const std::string& source) {
  // A directive may hide behind whitespace and comments between '#' and the name.
  static const std::regex include(R"((^|\n)[ \t]*#[ \t]*(/\*[^\n]*?\*/[ \t]*)*include\b)");
  if (std::regex_search(source, include))
    return "the file uses #include; submit self-contained kernels (the course compiles each file alone, "
           "and an include could read files of the grading machine)";
  if (source.find('\0') != std::string::npos) return "the file contains NUL bytes; it is not OpenCL C source";
  return "";
}

}  // namespace clgrade
