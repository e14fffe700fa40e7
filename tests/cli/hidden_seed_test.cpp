// Hidden inputs through the executable, as an instructor grades (each task in its sandboxed runner,
// the keeper replaying with its own references):
//  - a grade without --seed draws one and records it in report.json (and says it on the terminal);
//  - --seed with that number makes exactly the same inputs again;
//  - another seed makes other hidden inputs, while the visible ones stay the course's (the golden hashes);
//  - the reference kernels score full marks whatever the seed (the runner and the keeper agree on it);
//  - `check` runs no hidden case and shows no seed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../scratch.h"
#include "../test_env.h"
#include "util/files.h"
#include "util/subprocess.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace clgrade {
namespace {

const std::string kRoot = test::sourceDir();
// The tasks with hidden photo, scene and extremes inputs that grade fastest on PoCL (the separable
// task's RESULT_STEPS sweep takes minutes; its hidden cases take their inputs the same way).
const std::vector<std::string> kTasks{"conv3x3", "bilateral", "histogram"};

fs::path scratch(const std::string& name) { return test::freshFolder("clgrade_cli", name); }

struct Graded {
  ProcessResult process;
  std::string out;
  json report;
};

/// build/clgrade `command` on the reference kernels, with `extra` options; the report read back.
Graded run(const std::string& command, const std::string& name, const std::vector<std::string>& extra) {
  const fs::path dir = scratch(name);
  ProcessSpec spec;
  const char* exe = std::getenv("CLGRADE_EXECUTABLE");  // another machine's copy of the build
  spec.argv = {exe && *exe ? exe : CLGRADE_EXECUTABLE,
               command,
               kRoot + "/reference/kernels",
               "--out",
               (dir / "report").string(),
               "--device",
               test::deviceSpec()};  // not --quiet: the seed line is what is asserted
  for (const std::string& t : kTasks) spec.argv.insert(spec.argv.end(), {"--task", t});
  spec.argv.insert(spec.argv.end(), extra.begin(), extra.end());
  spec.timeoutSeconds = 600;
  spec.stdoutPath = (dir / "stdout.txt").string();
  spec.stderrPath = (dir / "stderr.txt").string();
  Graded g;
  g.process = runProcess(spec);
  readFile(spec.stdoutPath, &g.out, nullptr);
  std::string text, err;
  if (readFile((dir / "report" / "report.json").string(), &text, &err))
    g.report = json::parse(text);
  else
    ADD_FAILURE() << err;
  return g;
}

/// reproducibility.inputs as name -> sha256.
std::map<std::string, std::string> inputs(const json& report) {
  std::map<std::string, std::string> out;
  for (const json& i : report["reproducibility"]["inputs"]) out[i["name"]] = i["sha256"];
  return out;
}

/// golden/manifest.tsv's input lines as name -> sha256.
std::map<std::string, std::string> goldenInputs() {
  std::string text, err;
  EXPECT_TRUE(readFile(kRoot + "/golden/manifest.tsv", &text, &err)) << err;
  std::map<std::string, std::string> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string kind, name, size, sha;
    if (fields >> kind >> name >> size >> sha && kind == "input") out[name] = sha;
  }
  return out;
}

bool hidden(const std::string& name) { return name.rfind("hidden_", 0) == 0; }

TEST(HiddenSeed, DrawnRecordedReproducedAndTheReferenceScoresFullMarksUnderAny) {
  const Graded drawn = run("grade", "drawn", {});
  ASSERT_TRUE(drawn.process.ok()) << drawn.process.describe();
  ASSERT_TRUE(drawn.report["reproducibility"].contains("hidden_seed")) << drawn.report["reproducibility"];
  const uint64_t seed = drawn.report["reproducibility"]["hidden_seed"].get<uint64_t>();
  EXPECT_LT(seed, uint64_t(1) << 53);
  EXPECT_NE(drawn.out.find("hidden inputs: seed " + std::to_string(seed) + " (--seed " + std::to_string(seed)),
            std::string::npos)
      << drawn.out;

  const Graded again = run("grade", "again", {"--seed", std::to_string(seed)});
  const Graded other = run("grade", "other", {"--seed", std::to_string(seed ^ 1)});
  ASSERT_TRUE(again.process.ok()) << again.process.describe();
  ASSERT_TRUE(other.process.ok()) << other.process.describe();
  EXPECT_EQ(again.report["reproducibility"]["hidden_seed"].get<uint64_t>(), seed);
  EXPECT_EQ(other.report["reproducibility"]["hidden_seed"].get<uint64_t>(), seed ^ 1);

  // The same seed: the very same inputs, every one.
  const std::map<std::string, std::string> a = inputs(drawn.report), b = inputs(again.report), c = inputs(other.report);
  EXPECT_EQ(a, b);
  // Another seed: the visible ones the course's, every hidden one new. The names are the same but
  // for the drawn analysis case's inputs (spec 5c), whose size is drawn from the seed too.
  const std::map<std::string, std::string> golden = goldenInputs();
  int visibleCount = 0, hiddenCount = 0;
  for (const auto& [one, another] : {std::pair{&a, &c}, std::pair{&c, &a}})
    for (const auto& [name, sha] : *one)
      if (!another->count(name)) {
        EXPECT_TRUE(hidden(name)) << name << " is made under one seed only";
      }
  for (const auto& [name, sha] : a) {
    if (!c.count(name)) continue;
    if (hidden(name)) {
      ++hiddenCount;
      EXPECT_NE(sha, c.at(name)) << name << " did not change with the seed";
    } else {
      ++visibleCount;
      EXPECT_EQ(sha, c.at(name)) << name;
      ASSERT_TRUE(golden.count(name)) << name;
      EXPECT_EQ(sha, golden.at(name)) << name << " differs from golden/manifest.tsv";
    }
  }
  EXPECT_GE(visibleCount, 4);  // photo_780x575, the course scene's three planes
  EXPECT_GE(hiddenCount, 6);   // hidden photos, scenes and extremes
  EXPECT_TRUE(a.count("hidden_extremes_1280x720"));

  // The reference earns everything under either seed: the runners and the keeper used the same inputs.
  for (const Graded* g : {&drawn, &other})
    EXPECT_DOUBLE_EQ(g->report["total"].get<double>(), g->report["max"].get<double>()) << g->out;
}

TEST(HiddenSeed, CheckRunsNoHiddenCaseAndShowsNoSeed) {
  const Graded checked = run("check", "check", {});
  ASSERT_TRUE(checked.process.ok()) << checked.process.describe() << "\n" << checked.out;
  EXPECT_FALSE(checked.report["reproducibility"].contains("hidden_seed"));
  EXPECT_EQ(checked.out.find("seed"), std::string::npos) << checked.out;
  for (const auto& [name, sha] : inputs(checked.report)) EXPECT_FALSE(hidden(name)) << name;
}

}  // namespace
}  // namespace clgrade
