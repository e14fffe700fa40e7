#include "protocol/runner_part.h"

#include <algorithm>
#include <sstream>

namespace clgrade {
namespace {

// CL_BUILD_PROGRAM_FAILURE, CL_INVALID_BUILD_OPTIONS, CL_INVALID_PROGRAM_EXECUTABLE (a kernel asked
// of a program that did not build), CL_INVALID_KERNEL_NAME: the compiler's and the API's answers.
constexpr int kBuildErrors[] = {-11, -43, -45, -46};

}  // namespace

std::string runnerPartText(const RunnerPartEnd& end) {
  std::string text = "exit " + std::to_string(end.exitCode) + "\npeak " + std::to_string(end.peakBytes) + "\nerrors";
  for (int code : end.errors) text += " " + std::to_string(code);
  return text + "\n";
}

bool readRunnerPart(const std::string& text, RunnerPartEnd* end, std::string* err) {
  std::istringstream in(text);
  std::string word;
  RunnerPartEnd read;
  if (!(in >> word) || word != "exit" || !(in >> read.exitCode) || !(in >> word) || word != "peak" ||
      !(in >> read.peakBytes) || !(in >> word) || word != "errors") {
    *err = "a part's end that does not read as one";
    return false;
  }
  for (int code; in >> code;) read.errors.push_back(code);
  if (!in.eof()) {
    *err = "a part's end with more than error codes after them";
    return false;
  }
  *end = read;
  return true;
}

bool partEndedWell(const RunnerPartEnd& end) { return end.exitCode == 0; }

bool partLeavesProcessFit(const RunnerPartEnd& end) {
  return partEndedWell(end) && std::all_of(end.errors.begin(), end.errors.end(), [](int code) {
           return std::find(std::begin(kBuildErrors), std::end(kBuildErrors), code) != std::end(kBuildErrors);
         });
}

}  // namespace clgrade
