#include "probe_runner.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "../scratch.h"
#include "clgrade_oclgrind_paths.h"

namespace clgrade::test {
namespace {

/// A word for sh: single-quoted, with embedded single quotes closed and escaped.
std::string shellQuote(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// A fresh folder per run, named after the running test so leftovers say where they came from.
std::string freshDir() {
  static int runs = 0;
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "run";
  for (char& c : name)
    if (c == '/') c = '_';
  // The test process's own folder: two runs of the tests at once do not empty each other's.
  return test::freshFolder("clgrade_counters", name + "." + std::to_string(runs++)).string();
}

}  // namespace

ProbeRun runProbe(const std::vector<std::string>& args, const std::map<std::string, std::string>& env) {
  ProbeRun run;
  run.dir = freshDir();
  const std::string outFile = run.dir + "/counters.json";
  std::map<std::string, std::string> vars{{"OCL_ICD_VENDORS", CLGRADE_OCLGRIND_ICD_DIR},
                                          {"OCLGRIND_PLUGINS", CLGRADE_OCLGRIND_PLUGIN},
                                          {"CLGRADE_COUNTERS_OUT", outFile},
                                          {"CLGRADE_BANKS", "32"},
                                          {"CLGRADE_BANK_BYTES", "4"},
                                          {"CLGRADE_WARP_SIZE", "32"}};
  for (const auto& [key, value] : env) vars[key] = value;

  std::string command = "env";
  for (const auto& [key, value] : vars) command += " " + key + "=" + shellQuote(value);
  command += " " + shellQuote(COUNTER_PROBE);
  for (const std::string& a : args) command += " " + shellQuote(a);
  command += " 2>&1";

  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, n);
  const int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;

  std::ifstream in(outFile);
  if (in) run.counters = nlohmann::json::parse(in, nullptr, false);
  if (run.counters.is_discarded()) run.counters = nullptr;
  return run;
}

nlohmann::json kernelEntry(const nlohmann::json& counters, const std::string& name) {
  if (counters.is_object() && counters.contains("kernels"))
    for (const nlohmann::json& k : counters["kernels"])
      if (k.value("name", "") == name) return k;
  return nullptr;
}

std::vector<long> triple(const nlohmann::json& t) {
  return {t.value("requests", -1L), t.value("wavefronts", -1L), t.value("conflicts", -1L)};
}

std::vector<long> accesses(const nlohmann::json& a) {
  return {a.value("loads", -1L), a.value("stores", -1L), a.value("atomics", -1L)};
}

int lineOf(const std::string& file, const std::string& marker) {
  std::ifstream in(file);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number)
    if (line.find(marker) != std::string::npos) return number;
  return 0;
}

}  // namespace clgrade::test
