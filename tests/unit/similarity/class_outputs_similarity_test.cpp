// The class outputs with similarity: writeClassOutputs (batch and merge call it) reads each graded
// submission's kept sources/, adds "similarity" to class.json and #similarity to summary.html;
// with sim_c turned off both say so. No grading: report.json files written by hand.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "../../scratch.h"
#include "model/report_json.h"
#include "report/outputs.h"
#include "similarity/kept_sources.h"
#include "similarity/sim_c.h"
#include "util/files.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

fs::path freshSimilarityDir(const std::string& name) { return test::freshFolder("clgrade_similarity", name); }

void write(const fs::path& path, const std::string& text) {
  std::string err;
  ASSERT_TRUE(makeDirectories(path.parent_path().string(), &err)) << err;
  ASSERT_TRUE(writeFileAtomically(path.string(), text, &err)) << err;
}

std::string read(const fs::path& path) {
  std::string text;
  EXPECT_TRUE(readFile(path.string(), &text, nullptr)) << path;
  return text;
}

/// A kernel of ten statements whose mix and order depend on `student`.
std::string kernel(int student) {
  std::string k = "__kernel void histogram(__global const float* in, __global uint* bins, int n) {\n";
  for (int i = 0; i < 10; ++i) {
    switch ((student * 7 + i * 3) % 5) {
      case 0: k += "  for (int a = 0; a < n; ++a) { bins[a] = 0; }\n"; break;
      case 1: k += "  if (n > 3) { atomic_inc(&bins[(int)(in[n] * 64.0f)]); } else { n = n - 1; }\n"; break;
      case 2: k += "  while (n) { n = n / 2; bins[n] += 2; }\n"; break;
      case 3: k += "  barrier(CLK_LOCAL_MEM_FENCE);\n  bins[get_local_id(0)] = in[get_global_id(0)];\n"; break;
      default: k += "  { float v = in[n] + in[n - 1] * 3.0f; bins[(uint)v % 64] += 1; }\n"; break;
    }
  }
  return k + "}\n";
}

/// A class folder of graded submissions whose sources/ keep histogram.cl: s0..s5, s5 a copy of s1.
nlohmann::ordered_json makeClass(const fs::path& out) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (int s = 0; s < 6; ++s) {
    const std::string name = "s" + std::to_string(s);
    GradeReport r;
    r.mode = "grade";
    TaskReport t;
    t.id = "histogram";
    t.file = "histogram.cl";
    t.present = true;
    r.tasks.push_back(t);
    write(out / name / "report.json", toJson(r));
    const fs::path kernels = out / ".kernels" / name;
    write(kernels / "histogram.cl", kernel(s == 5 ? 1 : s));
    std::string err;
    EXPECT_TRUE(keepSources(kernels.string(), {"histogram.cl", "Convolution3x3.cl"}, (out / name).string(), &err))
        << err;
    list.push_back({{"submission", name}, {"total", 0}, {"max", 0}});
  }
  return {{"schema", "clgrade-class/1"}, {"submissions", list}};
}

TEST(ClassOutputsSimilarity, ClassJsonAndSummaryHaveTheSimilarity) {
  if (findSimC().empty()) GTEST_SKIP() << "sim_c is not installed (similarity-tester)";
  const fs::path out = freshSimilarityDir("measured");
  const nlohmann::ordered_json cls = makeClass(out);
  EXPECT_TRUE(fs::exists(out / "s0" / kSourcesFolder / "histogram.cl"));
  EXPECT_FALSE(fs::exists(out / "s0" / kSourcesFolder / "Convolution3x3.cl")) << "only files the folder has";
  std::vector<std::string> errors;
  ASSERT_TRUE(writeClassOutputs(out.string(), cls, &errors)) << errors.front();
  const nlohmann::json j = nlohmann::json::parse(read(out / "class.json"));
  EXPECT_EQ(j["schema"], "clgrade-class/1") << "the rest of class.json as the caller gave it";
  const nlohmann::json& s = j["similarity"];
  ASSERT_TRUE(s["measured"].get<bool>()) << s.dump();
  ASSERT_EQ(s["tasks"].size(), 1u);
  const nlohmann::json& task = s["tasks"][0];
  EXPECT_EQ(task["file"], "histogram.cl");
  EXPECT_EQ(task["compared"], 6);
  EXPECT_EQ(task["top"][0]["first"], "s1");
  EXPECT_EQ(task["top"][0]["second"], "s5");
  EXPECT_EQ(task["top"][0]["score"], 100);
  const std::string html = read(out / "summary.html");
  EXPECT_NE(html.find("<section id=\"similarity\">"), std::string::npos);
  EXPECT_NE(html.find("Similarity never changes a grade"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

TEST(ClassOutputsSimilarity, TurnedOffIsSaidInBoth) {
  const fs::path out = freshSimilarityDir("off");
  const nlohmann::ordered_json cls = makeClass(out);
  std::vector<std::string> errors;
  ASSERT_TRUE(writeClassOutputs(out.string(), cls, &errors, {}, nullptr, std::nullopt, false)) << errors.front();
  const nlohmann::json j = nlohmann::json::parse(read(out / "class.json"));
  EXPECT_FALSE(j["similarity"]["measured"].get<bool>());
  EXPECT_EQ(j["similarity"]["problem"], "similarity not measured: turned off (--no-similarity)");
  EXPECT_NE(read(out / "summary.html").find("similarity not measured: turned off (--no-similarity)"),
            std::string::npos);
}

TEST(KeptSources, OnlyPlainTaskFileNames) {
  EXPECT_TRUE(isKeptSourceName("ConvolutionSeparable.cl"));
  for (const char* bad : {"", "../x.cl", "a/b.cl", ".hidden", "..", "a b.cl"}) EXPECT_FALSE(isKeptSourceName(bad)) << bad;
}

}  // namespace
}  // namespace clgrade
