// Typed reading of a case's parameters, with messages that name the parameter.
// Each reader marks the parameter as used so unknown (misspelled) parameters can be reported.
#pragma once

#include <array>
#include <set>
#include <string>
#include <vector>

#include "tasks/case_spec.h"

namespace clgrade {

class ParamReader {
 public:
  explicit ParamReader(const CaseSpec& spec) : spec_(spec) {}

  /// An integer in [lo, hi]; `fallback` when absent (pass required=true to demand it).
  int integer(const std::string& name, int fallback, int lo, int hi, bool required = false);
  /// A float; `fallback` when absent.
  float number(const std::string& name, float fallback);
  /// A pair "X Y" of integers in [lo, hi].
  std::array<int, 2> pair(const std::string& name, std::array<int, 2> fallback, int lo, int hi);
  /// One of `choices`.
  std::string choice(const std::string& name, const std::string& fallback, const std::vector<std::string>& choices);
  /// A list of floats "a b c" or a named preset (see tasks/presets.h); empty when absent and no fallback.
  std::vector<float> weights(const std::string& name, const std::string& fallback);

  /// True when every parameter was read and valid; otherwise *err names the first problem.
  bool ok(std::string* err);

 private:
  const std::string* get(const std::string& name);
  void fail(const std::string& message);
  const CaseSpec& spec_;
  std::set<std::string> used_;
  std::string error_;
};

}  // namespace clgrade
