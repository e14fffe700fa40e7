#include "tasks/params.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "tasks/presets.h"

namespace clgrade {

const std::string* ParamReader::get(const std::string& name) {
  used_.insert(name);
  auto it = spec_.params.find(name);
  return it == spec_.params.end() ? nullptr : &it->second;
}

void ParamReader::fail(const std::string& message) {
  if (error_.empty()) error_ = "case '" + spec_.id + "': " + message;
}

int ParamReader::integer(const std::string& name, int fallback, int lo, int hi, bool required) {
  const std::string* text = get(name);
  if (!text) {
    if (required) fail("parameter '" + name + "' is required");
    return fallback;
  }
  char* end = nullptr;
  const long v = std::strtol(text->c_str(), &end, 10);
  if (end == text->c_str() || *end != '\0' || v < lo || v > hi) {
    fail("parameter '" + name + "' must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi) +
         ", not '" + *text + "'");
    return fallback;
  }
  return static_cast<int>(v);
}

float ParamReader::number(const std::string& name, float fallback) {
  const std::string* text = get(name);
  if (!text) return fallback;
  char* end = nullptr;
  const float v = std::strtof(text->c_str(), &end);
  if (end == text->c_str() || *end != '\0' || !std::isfinite(v)) {
    fail("parameter '" + name + "' must be a number, not '" + *text + "'");
    return fallback;
  }
  return v;
}

std::array<int, 2> ParamReader::pair(const std::string& name, std::array<int, 2> fallback, int lo, int hi) {
  const std::string* text = get(name);
  if (!text) return fallback;
  std::istringstream in(*text);
  std::array<int, 2> v{0, 0};
  std::string rest;
  if (!(in >> v[0] >> v[1]) || (in >> rest) || v[0] < lo || v[0] > hi || v[1] < lo || v[1] > hi) {
    fail("parameter '" + name + "' must be two integers in " + std::to_string(lo) + ".." + std::to_string(hi) +
         " such as \"32 16\", not '" + *text + "'");
    return fallback;
  }
  return v;
}

std::string ParamReader::choice(const std::string& name, const std::string& fallback,
                                const std::vector<std::string>& choices) {
  const std::string* text = get(name);
  if (!text) return fallback;
  for (const std::string& c : choices)
    if (c == *text) return c;
  std::string list;
  for (const std::string& c : choices) list += (list.empty() ? "" : ", ") + c;
  fail("parameter '" + name + "' must be one of " + list + ", not '" + *text + "'");
  return fallback;
}

std::vector<float> ParamReader::weights(const std::string& name, const std::string& fallback) {
  const std::string* text = get(name);
  const std::string value = text ? *text : fallback;
  if (value.empty()) return {};
  std::vector<float> preset;
  if (findPreset(value, &preset)) return preset;
  std::istringstream in(value);
  std::vector<float> list;
  std::string token;
  while (in >> token) {
    char* end = nullptr;
    const float v = std::strtof(token.c_str(), &end);
    if (end == token.c_str() || *end != '\0' || !std::isfinite(v)) {
      fail("parameter '" + name + "' must be a preset (" + presetNames() + ") or a list of numbers; '" + token +
           "' is neither");
      return {};
    }
    list.push_back(v);
  }
  if (list.empty()) fail("parameter '" + name + "' is empty");
  return list;
}

bool ParamReader::ok(std::string* err) {
  for (const auto& [name, value] : spec_.params) {
    (void)value;
    if (!used_.count(name)) fail("unknown parameter '" + name + "'");
  }
  if (!error_.empty() && err) *err = error_;
  return error_.empty();
}

}  // namespace clgrade
