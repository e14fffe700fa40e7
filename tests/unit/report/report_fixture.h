// Shared by the report format tests: a rich report (every status, evidence pictures, hostile student
// text, an override, performance figures), a report folder with its files, a small JSON schema
// checker, and an HTML5 well-formedness checker.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../../test_env.h"
#include "image/png.h"
#include "model/report.h"
#include "util/files.h"

namespace clgrade::reporttest {

/// Student text at its worst: markup, a script, bytes that are not UTF-8, a control character.
inline const std::string kHostile =
    "line 7: x = a<b && c>d; // <script>alert('x')</script> Fa\xe7"
    "ade \x01 \"q\" \xff";

inline Evidence ev(const std::string& label, const std::string& path) { return {label, path}; }

/// Three tasks: conv3x3 (passed, failed with pictures and an override), separable (not_measured,
/// error, hostile text, hidden case), histogram (file missing). Performance and a sweep on conv3x3.
/// The hidden seed of richReport: instructor-only, no student-facing format may show it.
constexpr uint64_t kHiddenSeed = 8123456789012345ULL;

inline GradeReport richReport() {
  GradeReport r;
  r.version = "0.3.0";
  r.mode = "grade";
  r.kernelsDir = "submissions/alice/kernels";
  r.startedAt = "2025-05-01T10:00:00Z";
  r.seconds = 12.5;
  r.rubricId = "four_tasks";
  r.rubricTitle = "Four tasks";
  r.rubricPath = "rubrics/four_tasks.xml";
  r.rubricSha256 = std::string(64, 'c');
  r.settings.rule.skipLastRow = false;
  r.settings.rule.maxSquaredError = 2e-8;
  r.device = {"NVIDIA CUDA", "OpenCL 3.0 CUDA", "NVIDIA H100", "550.1", "OpenCL 3.0", "gpu", 1024,
              49152,         80ull << 30,       132,           1980,    1000,         ""};
  r.inputs = {{"photo_780x575", 780, 575, 3, std::string(64, 'b')},
              {"scene_1280x720.depth", 1280, 720, 1, std::string(64, 'd')}};
  r.hiddenSeed = reporttest::kHiddenSeed;

  TaskReport conv;
  conv.id = "conv3x3";
  conv.title = "3x3 convolution";
  conv.file = "Convolution3x3.cl";
  conv.present = true;
  conv.sha256 = std::string(64, 'a');
  conv.includedFiles = {{"common/tile.h", std::string(64, 'c')}};
  CheckResult output;
  output.id = "output";
  output.title = "output matches the CPU";
  output.status = Status::Failed;
  output.message = "case edge: 12 values wrong";
  CaseOutcome edge;
  edge.caseId = "edge";
  edge.status = Status::Failed;
  edge.message = "12 values wrong (border 12)";
  edge.details = {"(0,0) ch0: expected 0.5, got 0.25", "last row: not written", kHostile};
  edge.evidence = {ev("difference image (PFM, squared error)", "evidence/conv3x3/edge/output_diff.pfm"),
                   ev("difference image (PNG: red/yellow fail, blue rounding, magenta NaN)",
                      "evidence/conv3x3/edge/output_diff.png"),
                   ev("actual output (PNG)", "evidence/conv3x3/edge/output_actual.png"),
                   ev("expected output (PNG)", "evidence/conv3x3/edge/output_expected.png")};
  edge.timings = {"Convolution ch0: 0.412 ms (global 784x576, local 16x16)"};
  CaseOutcome fine;
  fine.caseId = "course";
  fine.status = Status::Passed;
  fine.message = "all values within tolerance";
  fine.timings = {"Convolution ch0: 0.400 ms (global 784x576, local 16x16)"};
  output.cases = {fine, edge};
  CheckResult banks;
  banks.id = "bank_conflicts";
  banks.title = "tile store without bank conflicts";
  banks.status = Status::Passed;
  banks.message = "0 conflicts";
  banks.cases = {fine};
  conv.checks = {output, banks};
  CriterionResult correct;
  correct.id = "convolution";
  correct.title = "Correct convolution";
  correct.max = 3;
  correct.status = Status::Failed;
  correct.message = "output: case edge: 12 values wrong";
  correct.checks = {"output"};
  correct.evidence = edge.evidence;
  CriterionResult tile;
  tile.id = "tile_load";
  tile.title = "Tile loaded without conflicts";
  tile.points = tile.max = 2;
  tile.status = Status::Passed;
  tile.message = "0 conflicts";
  tile.checks = {"bank_conflicts"};
  conv.criteria = {correct, tile};
  conv.points = 2;
  conv.max = 5;
  conv.builds = {BuildRecord{"-DRESULT_STEPS=1", true, "", "evidence/conv3x3/build_1.log", ""}};
  conv.counters = {{"Convolution",
                    "simulated (Oclgrind, 32 banks of 4 bytes, warps of 32)",
                    {{"work_groups", 1764}, {"local_store_conflicts", 0}, {"global_loads", 1.5e6}}},
                   {"Convolution", "hardware (ncu)", {{"local_store_conflicts", 3}, {"instructions", 123456}}}};
  conv.performance.measured = true;
  conv.performance.caseId = "course";
  conv.performance.width = 1280;
  conv.performance.height = 720;
  conv.performance.device = "NVIDIA H100, driver 550.1";
  conv.performance.copy.kernel = "copy";
  conv.performance.copy.gbPerS = 2800;
  conv.performance.copy.time.medianMs = 0.01;
  KernelFigure fig;
  fig.kernel = "Convolution";
  fig.what = "one channel";
  fig.geometry = "global 1280x720, local 16x16";
  fig.time.medianMs = 0.02;
  fig.time.samplesMs = {0.02, 0.021};
  fig.gbPerS = 1234.567;
  fig.ofRoofline = 0.44;
  fig.vsReference = 0.9;
  fig.vsNaive = 6.5;
  fig.launchFloorMs = 0.0125;
  conv.performance.kernels = {fig};
  conv.performance.reference = {fig};
  conv.performance.naive = {fig};
  conv.sweep.ran = true;
  conv.sweep.caseId = "course";
  conv.sweep.width = 1280;
  conv.sweep.height = 720;
  SweepPoint point;
  point.caseId = "steps4_32x16";
  point.steps = 4;
  point.group = {32, 16};
  point.correct = true;
  point.figures = {fig};
  conv.sweep.points = {point};
  conv.sweep.chartSvg = "evidence/conv3x3/sweep.svg";

  TaskReport sep;
  sep.id = "separable";
  sep.title = "Separable <convolution>";
  sep.file = "ConvolutionSeparable.cl";
  sep.present = true;
  sep.sha256 = std::string(64, 'e');
  CheckResult horizontal;
  horizontal.id = "horizontal";
  horizontal.status = Status::Error;
  horizontal.message = "CL_OUT_OF_RESOURCES " + kHostile;
  CaseOutcome hidden;
  hidden.caseId = "secret_size";
  hidden.visible = false;
  hidden.status = Status::Error;
  hidden.message = "clEnqueueNDRangeKernel: CL_OUT_OF_RESOURCES";
  hidden.details = {"hidden detail: 1023x767"};
  horizontal.cases = {hidden};
  CheckResult sweepCheck;
  sweepCheck.id = "steps_sweep";
  sweepCheck.status = Status::NotMeasured;
  sweepCheck.message = "not implemented yet";
  sep.checks = {horizontal, sweepCheck};
  CriterionResult h;
  h.id = "horizontal";
  h.title = "Horizontal pass";
  h.max = 4;
  h.status = Status::Error;
  h.message = horizontal.id + ": " + horizontal.message;
  h.checks = {"horizontal"};
  CriterionResult sw;
  sw.id = "steps";
  sw.title = "RESULT_STEPS chart, \"fast\" & <right>";
  sw.max = 2;
  sw.status = Status::NotMeasured;
  sw.message = "steps_sweep: not implemented yet";
  sw.checks = {"steps_sweep"};
  sep.criteria = {h, sw};
  sep.max = 6;
  sep.builds = {BuildRecord{"-DRESULT_STEPS=4 -cl-fast-relaxed-math", false, "CL_BUILD_PROGRAM_FAILURE",
                            "evidence/separable/build_1.log", ""}};
  // Its runner was stopped in one kernel; a second one left that kernel out and finished.
  sep.process = {
      true, "ok after a rerun", 41.5, 12.5, 3.25, 812.25, "evidence/separable/kernel_output.txt", 2048, true, false,
      ""};
  sep.rerun = {true, "timed out", "timed out after 30 s in ConvVertical", "kernel ConvVertical", "", ""};

  TaskReport hist;
  hist.id = "histogram";
  hist.title = "Histogram";
  hist.file = "histogram.cl";
  hist.problem = "histogram.cl not found";
  hist.max = 9;
  CriterionResult global;
  global.id = "global";
  global.max = 4;
  global.status = Status::Failed;
  global.message = "histogram.cl not found";
  CriterionResult local;
  local.id = "local";
  local.max = 5;
  local.status = Status::Failed;
  local.message = "histogram.cl not found";
  hist.criteria = {global, local};
  hist.process.recorded = true;
  hist.process.outcome = "refused";

  r.tasks = {conv, sep, hist};
  r.total = 2;
  r.max = 20;
  return r;
}

/// The report with the instructor's override of conv3x3.convolution applied by hand (3 of 3, measured 0).
inline GradeReport overriddenReport() {
  GradeReport r = richReport();
  CriterionResult& c = r.tasks[0].criteria[0];
  c.overridden = true;
  c.originalPoints = 0;
  c.points = 3;
  c.overrideComment = "edge handling accepted, see mail of 3 May <ok>";
  c.overrideAuthor = "ta1";
  r.tasks[0].points = 5;
  r.total = 5;
  return r;
}

/// A report folder for richReport(): the pictures (real PNGs), the PFM, the build logs.
/// Folders made by makeReportDir, removed when the test binary ends.
struct MadeDirs {
  std::vector<std::string> dirs;
  ~MadeDirs() {
    for (const std::string& d : dirs) {
      std::error_code ec;
      std::filesystem::remove_all(d, ec);
    }
  }
};

inline std::string makeReportDir(const std::string& name) {
  static MadeDirs made;
  const std::string dir = ::testing::TempDir() + "clgrade_report_" + name + "_" + std::to_string(::getpid());
  made.dirs.push_back(dir);
  std::string err;
  EXPECT_TRUE(makeDirectories(dir + "/evidence/conv3x3/edge", &err)) << err;
  EXPECT_TRUE(makeDirectories(dir + "/evidence/separable", &err)) << err;
  Image img(8, 6, 3, 0.5f);
  img.at(0, 1, 1) = 1.0f;
  Image diff(8, 6, 1, 0.0f);
  diff.at(0, 0, 0) = 1.0f;
  diff.at(0, 2, 3) = 1e-10f;
  EXPECT_TRUE(writeDifferencePng(dir + "/evidence/conv3x3/edge/output_diff.png", diff, 1e-8f, &err)) << err;
  EXPECT_TRUE(writePng(dir + "/evidence/conv3x3/edge/output_actual.png", img, 0, 1, &err)) << err;
  EXPECT_TRUE(writePng(dir + "/evidence/conv3x3/edge/output_expected.png", Image(8, 6, 3, 0.5f), 0, 1, &err)) << err;
  EXPECT_TRUE(writeFileAtomically(dir + "/evidence/conv3x3/edge/output_diff.pfm", "PF\n8 6\n-1\n", &err)) << err;
  EXPECT_TRUE(
      writeFileAtomically(dir + "/evidence/conv3x3/build_1.log", "options: -DRESULT_STEPS=1\n(empty log)\n", &err));
  EXPECT_TRUE(writeFileAtomically(
      dir + "/evidence/separable/build_1.log",
      "options: -DRESULT_STEPS=4\n<kernel>:3:1: error: " + kHostile + "\n</pre><script>alert(2)</script>\n", &err));
  return dir;
}

// ---- A small JSON Schema checker: type, required, properties, additionalProperties, items, enum,
// const, minimum, maximum, minLength, pattern. Enough for the schemas under tests/data/report_schemas.

inline bool hasType(const nlohmann::json& v, const std::string& type) {
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "number") return v.is_number();
  if (type == "integer")
    return v.is_number_integer() || (v.is_number_float() && v.get<double>() == static_cast<long long>(v.get<double>()));
  if (type == "boolean") return v.is_boolean();
  if (type == "null") return v.is_null();
  return false;
}

inline void schemaErrors(const nlohmann::json& v, const nlohmann::json& schema, const std::string& path,
                         std::vector<std::string>* errors) {
  if (schema.contains("type")) {
    const nlohmann::json& t = schema["type"];
    bool ok = false;
    if (t.is_string())
      ok = hasType(v, t.get<std::string>());
    else
      for (const auto& one : t) ok = ok || hasType(v, one.get<std::string>());
    if (!ok) {
      errors->push_back(path + ": expected type " + t.dump() + ", got " + v.dump().substr(0, 80));
      return;
    }
  }
  if (schema.contains("enum") && std::find(schema["enum"].begin(), schema["enum"].end(), v) == schema["enum"].end())
    errors->push_back(path + ": " + v.dump() + " not in " + schema["enum"].dump());
  if (schema.contains("const") && v != schema["const"])
    errors->push_back(path + ": expected " + schema["const"].dump());
  if (v.is_number()) {
    if (schema.contains("minimum") && v.get<double>() < schema["minimum"].get<double>())
      errors->push_back(path + ": below minimum");
    if (schema.contains("maximum") && v.get<double>() > schema["maximum"].get<double>())
      errors->push_back(path + ": above maximum");
  }
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (schema.contains("minLength") && s.size() < schema["minLength"].get<size_t>())
      errors->push_back(path + ": too short");
    if (schema.contains("pattern") && !std::regex_search(s, std::regex(schema["pattern"].get<std::string>())))
      errors->push_back(path + ": '" + s.substr(0, 60) + "' does not match " + schema["pattern"].get<std::string>());
  }
  if (v.is_object()) {
    if (schema.contains("required"))
      for (const auto& key : schema["required"])
        if (!v.contains(key.get<std::string>()))
          errors->push_back(path + ": missing required '" + key.get<std::string>() + "'");
    const nlohmann::json props = schema.value("properties", nlohmann::json::object());
    for (const auto& [key, value] : v.items()) {
      if (props.contains(key))
        schemaErrors(value, props[key], path + "." + key, errors);
      else if (schema.contains("additionalProperties")) {
        const auto& extra = schema["additionalProperties"];
        if (extra.is_boolean() && !extra.get<bool>())
          errors->push_back(path + ": unexpected key '" + key + "'");
        else if (extra.is_object())
          schemaErrors(value, extra, path + "." + key, errors);
      }
    }
  }
  if (v.is_array() && schema.contains("items"))
    for (size_t i = 0; i < v.size(); ++i)
      schemaErrors(v[i], schema["items"], path + "[" + std::to_string(i) + "]", errors);
}

inline nlohmann::json loadSchema(const std::string& name) {
  std::string text, err;
  EXPECT_TRUE(readFile(test::sourceDir() + "/tests/data/report_schemas/" + name, &text, &err)) << err;
  return nlohmann::json::parse(text);
}

/// Every schema error of `jsonText` against tests/data/report_schemas/<schemaName>, one per line.
inline std::string validate(const std::string& jsonText, const std::string& schemaName) {
  std::vector<std::string> errors;
  schemaErrors(nlohmann::json::parse(jsonText), loadSchema(schemaName), "$", &errors);
  std::string out;
  for (const std::string& e : errors) out += e + "\n";
  return out;
}

// ---- HTML5 as the renderers write it: a checker of well-formedness and of the content rules a
// careless renderer breaks (not a full HTML5 parser; the headless-browser test looks at the page).

struct HtmlDoc {
  std::vector<std::string> problems;
  std::set<std::string> ids;
  std::vector<std::string> fragmentLinks;                 ///< href="#..." targets
  std::vector<std::pair<std::string, std::string>> urls;  ///< (tag.attribute, value) of src and href
  std::map<std::string, size_t> tagCounts;
  std::string text;  ///< character data outside tags, style and title, as written (references not decoded)
};

inline bool validUtf8(const std::string& s) {
  size_t i = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  while (i < s.size()) {
    size_t n = p[i] < 0x80 ? 1 : (p[i] >> 5) == 6 ? 2 : (p[i] >> 4) == 14 ? 3 : (p[i] >> 3) == 30 ? 4 : 0;
    if (!n || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k)
      if ((p[i + k] & 0xC0) != 0x80) return false;
    i += n;
  }
  return true;
}

inline HtmlDoc checkHtml(const std::string& html) {
  HtmlDoc doc;
  auto problem = [&doc](const std::string& p) { doc.problems.push_back(p); };
  static const std::set<std::string> voids = {"area",  "base", "br",   "col",    "embed", "hr", "img",
                                              "input", "link", "meta", "source", "track", "wbr"};
  static const std::set<std::string> blocks = {"div",     "table",   "ul",     "ol",     "dl",   "pre",     "figure",
                                               "section", "article", "header", "footer", "main", "details", "h1",
                                               "h2",      "h3",      "h4",     "h5",     "h6",   "p",       "svg"};
  static const std::map<std::string, std::set<std::string>> parents = {{"tr", {"thead", "tbody", "tfoot", "table"}},
                                                                       {"td", {"tr"}},
                                                                       {"th", {"tr"}},
                                                                       {"thead", {"table"}},
                                                                       {"tbody", {"table"}},
                                                                       {"tfoot", {"table"}},
                                                                       {"li", {"ul", "ol"}},
                                                                       {"dt", {"dl", "div"}},
                                                                       {"dd", {"dl", "div"}},
                                                                       {"summary", {"details"}},
                                                                       {"figcaption", {"figure"}},
                                                                       {"head", {"html"}},
                                                                       {"body", {"html"}},
                                                                       {"title", {"head", "svg", "rect", "g"}},
                                                                       {"meta", {"head"}},
                                                                       {"style", {"head"}}};
  static const std::regex reference("^&([A-Za-z][A-Za-z0-9]*|#[0-9]+|#x[0-9A-Fa-f]+);");
  if (!validUtf8(html)) problem("not valid UTF-8");
  if (html.rfind("<!DOCTYPE html>", 0) != 0) problem("does not start with <!DOCTYPE html>");
  std::vector<std::string> stack;
  size_t i = 0;
  while (i < html.size()) {
    const char c = html[i];
    if (c != '<') {
      if (c == '&') {
        std::smatch m;
        const std::string ahead = html.substr(i, 40);
        if (!std::regex_search(ahead, m, reference))
          problem("a bare & at " + std::to_string(i) + ": " + ahead.substr(0, 20));
      }
      if (c == '>') problem("a bare > in text at " + std::to_string(i));
      if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\r' && c != '\t')
        problem("a control character at " + std::to_string(i));
      doc.text += c;
      ++i;
      continue;
    }
    if (html.compare(i, 4, "<!--") == 0) {
      const size_t end = html.find("-->", i);
      i = end == std::string::npos ? html.size() : end + 3;
      continue;
    }
    if (html.compare(i, 2, "<!") == 0) {
      if (i != 0) problem("a declaration that is not the doctype at " + std::to_string(i));
      i = html.find('>', i) + 1;
      continue;
    }
    const bool closing = html.compare(i, 2, "</") == 0;
    size_t j = i + (closing ? 2 : 1);
    std::string name;
    while (j < html.size() && (std::isalnum(static_cast<unsigned char>(html[j])) || html[j] == '-'))
      name += static_cast<char>(std::tolower(html[j++]));
    if (name.empty()) {
      problem("a bare < at " + std::to_string(i));
      doc.text += '<';
      ++i;
      continue;
    }
    const bool foreign = std::find(stack.begin(), stack.end(), "svg") != stack.end() || name == "svg";
    if (closing) {
      while (j < html.size() && html[j] == ' ') ++j;
      if (j >= html.size() || html[j] != '>') problem("a malformed end tag </" + name);
      if (stack.empty() || stack.back() != name)
        problem("</" + name + "> closes <" + (stack.empty() ? std::string("nothing") : stack.back()) + "> at " +
                std::to_string(i));
      else
        stack.pop_back();
      i = j + 1;
      continue;
    }
    // Attributes: name="value" (always double-quoted as the renderers write them), no duplicates.
    std::set<std::string> attributes;
    bool selfClosing = false;
    for (;;) {
      while (j < html.size() && std::isspace(static_cast<unsigned char>(html[j]))) ++j;
      if (j >= html.size()) {
        problem("an unterminated <" + name);
        break;
      }
      if (html[j] == '>') {
        ++j;
        break;
      }
      if (html.compare(j, 2, "/>") == 0) {
        selfClosing = true;
        j += 2;
        break;
      }
      std::string attr;
      while (j < html.size() && !std::isspace(static_cast<unsigned char>(html[j])) && html[j] != '=' &&
             html[j] != '>' && html[j] != '/')
        attr += static_cast<char>(std::tolower(html[j++]));
      if (attr.empty()) {
        problem("a malformed attribute in <" + name + "> at " + std::to_string(j));
        ++j;
        continue;
      }
      if (!attributes.insert(attr).second) problem("attribute " + attr + " twice in <" + name + ">");
      if (j < html.size() && html[j] == '=') {
        if (html[j + 1] != '"') {
          problem("an unquoted attribute " + attr + " in <" + name + ">");
          ++j;
          continue;
        }
        const size_t end = html.find('"', j + 2);
        const std::string value = html.substr(j + 2, end - j - 2);
        if (value.find('<') != std::string::npos || value.find('>') != std::string::npos)
          problem("a raw < or > in attribute " + attr + " of <" + name + ">");
        for (size_t k = value.find('&'); k != std::string::npos; k = value.find('&', k + 1))
          if (!std::regex_search(value.substr(k, 40), reference))
            problem("a bare & in attribute " + attr + " of <" + name + ">");
        if (attr == "id" && !doc.ids.insert(value).second) problem("id '" + value + "' twice");
        if ((attr == "href" || attr == "src") && name != "meta") {
          doc.urls.push_back({name + "." + attr, value});
          if (attr == "href" && !value.empty() && value[0] == '#') doc.fragmentLinks.push_back(value.substr(1));
        }
        if (attr.rfind("on", 0) == 0) problem("an event handler attribute " + attr);
        j = end + 1;
      }
    }
    doc.tagCounts[foreign && name != "svg" ? "svg:" + name : name]++;
    if (name == "script") problem("a <script> element");
    if (!foreign && selfClosing && !voids.count(name)) problem("<" + name + "/> is not a void element");
    auto parent = parents.find(name);
    if (parent != parents.end() && (stack.empty() || !parent->second.count(stack.back())))
      problem("<" + name + "> inside <" + (stack.empty() ? std::string("nothing") : stack.back()) + ">");
    if (!foreign && blocks.count(name) && std::find(stack.begin(), stack.end(), "p") != stack.end())
      problem("<" + name + "> inside <p>");
    if (name == "a" && std::find(stack.begin(), stack.end(), "a") != stack.end()) problem("<a> inside <a>");
    i = j;
    if (name == "style" || name == "title") {  // raw text: up to its end tag
      const size_t end = html.find("</" + name + ">", i);
      if (end == std::string::npos) {
        problem("<" + name + "> not closed");
        break;
      }
      if (name == "title" && html.substr(i, end - i).find('<') != std::string::npos) problem("a < in <title>");
      i = end + name.size() + 3;
      continue;
    }
    if (!voids.count(name) && !selfClosing) stack.push_back(name);
  }
  if (!stack.empty()) problem("unclosed elements, the innermost <" + stack.back() + ">");
  for (const char* one : {"html", "head", "body", "title"})
    if (doc.tagCounts[one] != 1) problem(std::string("<") + one + "> " + std::to_string(doc.tagCounts[one]) + " times");
  for (const std::string& target : doc.fragmentLinks)
    if (!doc.ids.count(target)) problem("a link to #" + target + " that no element has");
  return doc;
}

inline std::string joinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

inline std::string base64Decode(const std::string& text) {
  static const std::string table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned value = 0;
  int bits = -8;
  for (char c : text) {
    const size_t k = table.find(c);
    if (k == std::string::npos) break;
    value = (value << 6) | static_cast<unsigned>(k);
    bits += 6;
    if (bits >= 0) {
      out += static_cast<char>((value >> bits) & 0xFF);
      bits -= 8;
    }
  }
  return out;
}

}  // namespace clgrade::reporttest
