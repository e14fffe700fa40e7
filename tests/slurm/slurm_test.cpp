// Batches graded in shards and put back together:
//  - the shard split: K/N parsed strictly, every submission in exactly one shard, by its name alone;
//  - clgrade merge on fabricated shard folders: joins, is idempotent and resumable, names what is
//    missing (exit 1, the rest merged), refuses mixed rubrics, clgrade versions and a submission with
//    different results in two shards (exit 2, nothing written);
//  - clgrade slurm's scripts, and its refusal of options it sets itself;
//  - a one-node Slurm cluster (munged, slurmctld, slurmd started here, a generated slurm.conf): four
//    samples graded in two shards through sbatch give the class.json of one clgrade batch.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <thread>

#include "../scratch.h"
#include "../test_env.h"
#include "batch/shard.h"
#include "model/report_json.h"
#include "util/files.h"
#include "util/search_path.h"
#include "util/subprocess.h"

extern char** environ;

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace clgrade {
namespace {

const std::string kRoot = test::sourceDir();

fs::path scratch(const std::string& name) { return test::freshFolder("clgrade_slurm", name); }

std::string slurp(const fs::path& p) {
  std::string text, err;
  if (!readFile(p.string(), &text, &err, size_t(64) << 20)) return "";
  return text;
}

void writeText(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

struct CliRun {
  ProcessResult process;
  std::string out, err;
};

CliRun clgrade(const std::vector<std::string>& args, const fs::path& logs, double timeout = 120) {
  const char* exe = std::getenv("CLGRADE_EXECUTABLE");
  std::vector<std::string> argv{exe && *exe ? exe : CLGRADE_EXECUTABLE};
  argv.insert(argv.end(), args.begin(), args.end());
  fs::create_directories(logs);
  CliRun run;
  run.process = runProcess(argv, {}, timeout, (logs / "stdout.txt").string(), (logs / "stderr.txt").string());
  run.out = slurp(logs / "stdout.txt");
  run.err = slurp(logs / "stderr.txt");
  return run;
}

// --- The shard split ---------------------------------------------------------------------------

TEST(Shard, KOfNIsParsedStrictly) {
  Shard s;
  std::string err;
  ASSERT_TRUE(parseShard("2/8", &s, &err)) << err;
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 8);
  EXPECT_TRUE(parseShard("1/1", &s, &err)) << err;
  for (const std::string bad : {"", "2", "0/2", "3/2", "1/0", "-1/2", "1/-2", "a/b", "1/2/3", " 1/2", "1/2 ", "+1/2",
                                "1/10001", "99999999999/2", "/2", "1/"}) {
    SCOPED_TRACE(bad);
    err.clear();
    EXPECT_FALSE(parseShard(bad, &s, &err));
    EXPECT_NE(err.find("--shard"), std::string::npos) << err;
  }
  parseShard("3/2", &s, &err);
  EXPECT_NE(err.find("K must be between 1 and N"), std::string::npos) << err;
}

TEST(Shard, EverySubmissionInExactlyOneShardByItsNameAlone) {
  std::vector<std::string> names;
  for (int i = 0; i < 1000; ++i) names.push_back("student_" + std::to_string(i));
  names.push_back("Jos\xc3\xa9");
  for (int n : {1, 2, 3, 8}) {
    SCOPED_TRACE(n);
    std::map<int, int> sizes;
    for (const std::string& name : names) {
      const int k = shardOf(name, n);
      ASSERT_GE(k, 1);
      ASSERT_LE(k, n);
      EXPECT_EQ(shardOf(name, n), k);  // the same every time: no state, no other submission involved
      ++sizes[k];
    }
    for (int k = 1; k <= n; ++k) {
      // A share is binomial: far from empty or twice its size with 1000 names.
      EXPECT_GT(sizes[k], 1000 / n / 2) << "shard " << k;
      EXPECT_LT(sizes[k], 2 * 1000 / n + 10) << "shard " << k;
    }
  }
  // Pinned: the split must not change between clgrade versions (a cluster may run two at once).
  EXPECT_EQ(shardOf("reference", 2), 1);
  EXPECT_EQ(shardOf("template", 2), 2);
  EXPECT_EQ(shardOf("stray_writes", 2), 2);
  EXPECT_EQ(shardOf("histogram_bin_formula", 2), 1);
}

TEST(Shard, BatchRefusesAMalformedShardOrOneWithoutASeed) {
  const fs::path subs = scratch("refuse-subs");
  fs::create_directories(subs / "amy");
  for (const std::string bad : {"0/2", "3/2", "x"}) {
    const CliRun run = clgrade({"batch", subs.string(), "--out", scratch("refuse-out").string(), "--shard", bad},
                               scratch("refuse-logs"));
    EXPECT_EQ(run.process.exitCode, 2) << run.err;
    EXPECT_NE(run.err.find("--shard"), std::string::npos) << run.err;
  }
  const CliRun noSeed = clgrade({"batch", subs.string(), "--out", scratch("refuse-out").string(), "--shard", "1/2"},
                                scratch("refuse-logs"));
  EXPECT_EQ(noSeed.process.exitCode, 2) << noSeed.err;
  EXPECT_NE(noSeed.err.find("needs --seed"), std::string::npos) << noSeed.err;
}

// --- clgrade merge on fabricated shards ----------------------------------------------------------

struct Fabricated {
  std::string rubricSha = std::string(64, 'a');
  std::string version = "1.2.3";
  uint64_t seed = 7;
};

/// A shard's --out folder as clgrade batch --shard K/N leaves it: class.json with the shard's names,
/// and a completed folder (completion marker, report.json) for each name with a total in `totals`.
void fabricateShard(const fs::path& dir, int k, int n, const std::vector<std::string>& names,
                    const std::map<std::string, double>& totals, const Fabricated& f = {}) {
  ordered_json entries = ordered_json::array();
  for (const std::string& name : names) {
    const auto t = totals.find(name);
    if (t == totals.end()) continue;
    GradeReport r;
    r.version = f.version;
    r.mode = "grade";
    r.rubricId = "four_tasks";
    r.rubricSha256 = f.rubricSha;
    r.hiddenSeed = f.seed;
    TaskReport task;
    task.id = "histogram";
    task.title = "Histogram";
    task.present = true;
    CriterionResult c;
    c.id = "global_atomics";
    c.title = "global atomics";
    c.max = 2;
    c.points = t->second;
    c.status = t->second == 2 ? Status::Passed : Status::Failed;
    task.criteria.push_back(c);
    task.sumPoints();
    task.max = c.max;
    r.tasks.push_back(task);
    r.sumPoints();
    writeText(dir / name / "report.json", toJson(r));
    const ordered_json marker{{"schema", "clgrade-batch-entry/1"}, {"submission", name},
                              {"rubric_sha256", f.rubricSha},      {"mode", "grade"},
                              {"tasks", ordered_json::array()},    {"hidden_seed", f.seed}};
    writeText(dir / name / "batch.json", marker.dump(2) + "\n");
    entries.push_back({{"submission", name}, {"total", t->second}});
  }
  const ordered_json cls{{"schema", "clgrade-class/1"},
                         {"rubric", {{"id", "four_tasks"}, {"title", "Four tasks"}, {"sha256", f.rubricSha}}},
                         {"mode", "grade"},
                         {"tasks", ordered_json::array()},
                         {"hidden_seed", f.seed},
                         {"device", "cpu"},
                         {"clgrade_version", f.version},
                         {"shard", {{"index", k}, {"count", n}, {"submissions", names}}},
                         {"submissions_found", names.size()},
                         {"submissions_graded", entries.size()},
                         {"submissions", entries}};
  writeText(dir / "class.json", cls.dump(2) + "\n");
}

std::vector<std::string> names(const ordered_json& cls) {
  std::vector<std::string> out;
  for (const ordered_json& s : cls["submissions"]) out.push_back(s["submission"]);
  return out;
}

TEST(Merge, JoinsTheShardsIdempotentlyAndResumes) {
  const fs::path root = scratch("join");
  fabricateShard(root / "s1", 1, 2, {"amy", "cid"}, {{"amy", 2}, {"cid", 1}});
  fabricateShard(root / "s2", 2, 2, {"bob"}, {{"bob", 0}});
  const fs::path out = root / "class";
  const std::vector<std::string> args{"merge", "--out", out.string(), (root / "s1").string(), (root / "s2").string()};
  const CliRun first = clgrade(args, root / "logs1");
  ASSERT_EQ(first.process.exitCode, 0) << first.process.describe() << "\n" << first.err;
  EXPECT_NE(first.out.find("merged 3 submission(s) from 2 shard folder(s) (3 copied"), std::string::npos) << first.out;
  const std::string merged = slurp(out / "class.json");
  const ordered_json cls = ordered_json::parse(merged);
  EXPECT_EQ(names(cls), (std::vector<std::string>{"amy", "bob", "cid"}));
  EXPECT_FALSE(cls.contains("shard"));
  EXPECT_EQ(cls["submissions_found"], 3);
  EXPECT_EQ(cls["submissions_graded"], 3);
  EXPECT_EQ(cls["hidden_seed"], 7);
  EXPECT_EQ(cls["submissions"][2]["total"], 1);
  for (const char* file : {"gradebook.csv", "summary.html", "amy/report.html", "bob/gradescope/results.json"})
    EXPECT_TRUE(fs::exists(out / file)) << file;
  EXPECT_FALSE(fs::exists(out / ".partial"));

  // Again: nothing copied, the same class.json.
  const CliRun again = clgrade(args, root / "logs2");
  ASSERT_EQ(again.process.exitCode, 0) << again.err;
  EXPECT_NE(again.out.find("(0 copied"), std::string::npos) << again.out;
  EXPECT_EQ(slurp(out / "class.json"), merged);

  // Interrupted: one folder gone, another half copied into the staging folder, class.json lost.
  fs::remove_all(out / "bob");
  fs::create_directories(out / ".partial" / "0123");
  writeText(out / ".partial" / "0123" / "report.json", "{");
  fs::remove(out / "class.json");
  const CliRun resumed = clgrade(args, root / "logs3");
  ASSERT_EQ(resumed.process.exitCode, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("(1 copied"), std::string::npos) << resumed.out;
  EXPECT_EQ(slurp(out / "class.json"), merged);
  EXPECT_FALSE(fs::exists(out / ".partial"));

  // A shard graded again with other results: its folder is copied again.
  fabricateShard(root / "s2", 2, 2, {"bob"}, {{"bob", 2}});
  const CliRun regraded = clgrade(args, root / "logs4");
  ASSERT_EQ(regraded.process.exitCode, 0) << regraded.err;
  EXPECT_EQ(ordered_json::parse(slurp(out / "class.json"))["submissions"][1]["total"], 2);
}

TEST(Merge, NamesWhatIsMissingAndMergesTheRest) {
  const fs::path root = scratch("missing");
  // Shard 1 of 3 completed amy but not bob; shard 2 has not started; shard 3 was not given.
  fabricateShard(root / "s1", 1, 3, {"amy", "bob"}, {{"amy", 2}});
  fs::create_directories(root / "s2");
  const fs::path out = root / "class";
  const CliRun run =
      clgrade({"merge", "--out", out.string(), (root / "s1").string(), (root / "s2").string()}, root / "logs");
  EXPECT_EQ(run.process.exitCode, 1) << run.process.describe() << "\n" << run.err;
  for (const std::string& said :
       {"missing: " + (root / "s2").string() + ": no class.json", std::string("missing: shard 2/3: no results"),
        std::string("missing: shard 3/3: no results"),
        "missing: bob (" + (root / "s1").string() + " (shard 1/3)): not graded yet"})
    EXPECT_NE(run.err.find(said), std::string::npos) << "expected: " << said << "\n" << run.err;
  const ordered_json cls = ordered_json::parse(slurp(out / "class.json"));
  EXPECT_EQ(names(cls), std::vector<std::string>{"amy"});
  EXPECT_EQ(cls["submissions_found"], 2);
}

/// Runs a merge that must be refused: exit 2, a message with each of `said`, nothing written.
void expectRefused(const fs::path& root, const std::vector<std::string>& said) {
  const fs::path out = root / "class";
  const CliRun run =
      clgrade({"merge", "--out", out.string(), (root / "s1").string(), (root / "s2").string()}, root / "logs");
  EXPECT_EQ(run.process.exitCode, 2) << run.process.describe() << "\n" << run.err;
  EXPECT_NE(run.err.find("clgrade merge: refused, nothing written: "), std::string::npos) << run.err;
  for (const std::string& s : said)
    EXPECT_NE(run.err.find(s), std::string::npos) << "expected: " << s << "\n" << run.err;
  EXPECT_FALSE(fs::exists(out / "class.json"));
  EXPECT_FALSE(fs::exists(out / "amy"));
}

TEST(Merge, RefusesMixedRubrics) {
  const fs::path root = scratch("rubrics");
  Fabricated other;
  other.rubricSha = std::string(64, 'b');
  fabricateShard(root / "s1", 1, 2, {"amy"}, {{"amy", 2}});
  fabricateShard(root / "s2", 2, 2, {"bob"}, {{"bob", 2}}, other);
  expectRefused(root, {"graded with different rubrics", (root / "s1").string() + " (shard 1/2)",
                       (root / "s2").string() + " (shard 2/2)", std::string(64, 'b')});
}

TEST(Merge, RefusesMixedClgradeVersions) {
  const fs::path root = scratch("versions");
  Fabricated other;
  other.version = "9.9.9";
  fabricateShard(root / "s1", 1, 2, {"amy"}, {{"amy", 2}});
  fabricateShard(root / "s2", 2, 2, {"bob"}, {{"bob", 2}}, other);
  expectRefused(root, {"different clgrade versions", (root / "s1").string() + " (shard 1/2): 1.2.3",
                       (root / "s2").string() + " (shard 2/2): 9.9.9"});
}

TEST(Merge, RefusesMixedSeeds) {
  const fs::path root = scratch("seeds");
  Fabricated other;
  other.seed = 8;
  fabricateShard(root / "s1", 1, 2, {"amy"}, {{"amy", 2}});
  fabricateShard(root / "s2", 2, 2, {"bob"}, {{"bob", 2}}, other);
  expectRefused(root, {"different hidden seeds"});
}

TEST(Merge, RefusesASubmissionWithDifferentResultsInTwoShards) {
  const fs::path root = scratch("conflict");
  fabricateShard(root / "s1", 1, 2, {"amy"}, {{"amy", 2}});
  fabricateShard(root / "s2", 2, 2, {"amy", "bob"}, {{"amy", 1}, {"bob", 2}});
  expectRefused(root, {"'amy' has different results in " + (root / "s1").string() + " (shard 1/2) and " +
                       (root / "s2").string() + " (shard 2/2)"});
  // The same results twice are one submission.
  fabricateShard(root / "s2", 2, 2, {"amy", "bob"}, {{"amy", 2}, {"bob", 2}});
  const CliRun run = clgrade(
      {"merge", "--out", (root / "class").string(), (root / "s1").string(), (root / "s2").string()}, root / "logs2");
  EXPECT_EQ(run.process.exitCode, 0) << run.err;
  EXPECT_EQ(names(ordered_json::parse(slurp(root / "class" / "class.json"))), (std::vector<std::string>{"amy", "bob"}));
}

// Issue 27: a shard's report.json edited to give a 2-point criterion 50 was merged as it was. A report
// whose points are not within its criteria's maxima, or whose maximum is not the others', is not merged.
TEST(Merge, RefusesReportsWhosePointsClgradeCannotHaveGiven) {
  const fs::path root = scratch("forged");
  fabricateShard(root / "s1", 1, 2, {"amy"}, {{"amy", 2}});
  fabricateShard(root / "s2", 2, 2, {"bob", "cid"}, {{"bob", 1}, {"cid", 1}});
  auto forge = [&](const std::string& name, double points, double max) {
    GradeReport r;
    std::string err;
    ASSERT_TRUE(readReportFile((root / "s2" / name / "report.json").string(), &r, &err)) << err;
    r.tasks[0].criteria[0].points = points;
    r.tasks[0].criteria[0].max = max;
    r.tasks[0].sumPoints();
    r.tasks[0].max = max;
    r.sumPoints();
    writeText(root / "s2" / name / "report.json", toJson(r));
  };
  forge("bob", 50, 2);   // above its criterion's maximum
  forge("cid", 50, 50);  // its maximum raised with it
  const fs::path out = root / "class";
  const CliRun run =
      clgrade({"merge", "--out", out.string(), (root / "s1").string(), (root / "s2").string()}, root / "logs");
  EXPECT_EQ(run.process.exitCode, 1) << run.process.describe() << "\n" << run.err;
  EXPECT_NE(run.err.find("bob (" + (root / "s2").string() +
                         " (shard 2/2)): report.json is not as clgrade wrote it (histogram.global_atomics has 50.0 "
                         "points of 2.0)"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("cid (" + (root / "s2").string() + " (shard 2/2)): report.json has 50.0 points at most"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(names(ordered_json::parse(slurp(out / "class.json"))), std::vector<std::string>{"amy"});
}

// --- clgrade slurm's scripts -------------------------------------------------------------------

TEST(SlurmScripts, AJobArrayOfShardsAndADependentMerge) {
  const fs::path root = scratch("scripts");
  fs::create_directories(root / "subs" / "amy");
  const fs::path out = root / "class";
  const CliRun run = clgrade({"slurm",
                              "--out",
                              out.string(),
                              "--shards",
                              "3",
                              "--gres",
                              "gpu:1",
                              "--partition",
                              "gpu",
                              "--time",
                              "02:00:00",
                              "--seed",
                              "99",
                              "--sbatch-option",
                              "--qos=high",
                              "--sbatch-option=--account=course42",
                              (root / "subs").string(),
                              "--",
                              "--device",
                              "gpu",
                              "--task-timeout",
                              "600"},
                             root / "logs");
  ASSERT_EQ(run.process.exitCode, 0) << run.err;
  const std::string array = slurp(out / "clgrade.sbatch"), merge = slurp(out / "merge.sbatch");
  for (const std::string& line :
       {std::string("#SBATCH --array=1-3\n"), std::string("#SBATCH --gres=gpu:1\n"),
        std::string("#SBATCH --partition=gpu\n"), std::string("#SBATCH --time=02:00:00\n"),
        std::string("#SBATCH --qos=high\n#SBATCH --account=course42\n"),
        std::string("#SBATCH --output=") + (out / ".shards" / "logs" / "shard-%a.out").string() + "\n",
        std::string(" batch '") + (root / "subs").string() + "' --shard \"${SLURM_ARRAY_TASK_ID}/3\" --out '" +
            (out / ".shards").string() +
            "/'\"${SLURM_ARRAY_TASK_ID}\" --seed 99 --jobs 1 '--device' 'gpu' "
            "'--task-timeout' '600'\n"})
    EXPECT_NE(array.find(line), std::string::npos) << "expected: " << line << "\nin:\n" << array;
  EXPECT_NE(merge.find(" merge --out '" + out.string() + "' \"${shards[@]}\""), std::string::npos) << merge;
  EXPECT_EQ(merge.find("--gres"), std::string::npos) << "the merge needs no GPU:\n" << merge;
  EXPECT_NE(merge.find("#SBATCH --partition=gpu\n"), std::string::npos) << merge;
  EXPECT_NE(run.out.find("sbatch --dependency=afterany:"), std::string::npos) << run.out;
  // Both are bash scripts bash can read.
  for (const char* script : {"clgrade.sbatch", "merge.sbatch"}) {
    const ProcessResult syntax = runProcess({"/bin/bash", "-n", (out / script).string()}, {}, 30, "", "");
    EXPECT_TRUE(syntax.ok()) << script << ": " << syntax.describe();
  }

  // The options it sets itself are refused after --; a seed is drawn when none is given.
  const CliRun own =
      clgrade({"slurm", "--out", out.string(), "--shards", "2", (root / "subs").string(), "--", "--out", "elsewhere"},
              root / "logs-own");
  EXPECT_EQ(own.process.exitCode, 2) << own.err;
  EXPECT_NE(own.err.find("--out is clgrade slurm's own option"), std::string::npos) << own.err;
  // So are the options of one run: the script is run again by every resume, which would repeat them.
  const CliRun once = clgrade(
      {"slurm", "--out", out.string(), "--shards", "2", (root / "subs").string(), "--", "--regrade", "alice"},
      root / "logs-once");
  EXPECT_EQ(once.process.exitCode, 2) << once.err;
  EXPECT_NE(once.err.find("--regrade is for one run"), std::string::npos) << once.err;
  // GPUs by count: --gres=gpu:N, and the jobs of the batch's default for the CPUs and GPUs asked for.
  const CliRun gpus = clgrade({"slurm", "--out", out.string(), "--shards", "2", "--gpus-per-shard", "2",
                               "--cpus-per-task", "16", "--seed", "7", (root / "subs").string()},
                              root / "logs-gpus");
  ASSERT_EQ(gpus.process.exitCode, 0) << gpus.err;
  const std::string gpuArray = slurp(out / "clgrade.sbatch");
  EXPECT_NE(gpuArray.find("#SBATCH --gres=gpu:2\n"), std::string::npos) << gpuArray;
  EXPECT_NE(gpuArray.find("#SBATCH --cpus-per-task=16\n"), std::string::npos) << gpuArray;
  // A GPU batch runs a submission's tasks in one process: 3 jobs for every 4 CPUs of a GPU's share.
  // It says so: `auto` would count the node's every core where Slurm binds none.
  EXPECT_NE(gpuArray.find(" --seed 7 --jobs 12 --task-processes one\n"), std::string::npos)
      << "6 a GPU from 8 CPUs each:\n"
      << gpuArray;
  const CliRun one =
      clgrade({"slurm", "--out", out.string(), "--shards", "2", "--gpus-per-shard", "2", "--cpus-per-task", "16",
               "--seed", "7", (root / "subs").string(), "--", "--task-processes=one"},
              root / "logs-one");
  ASSERT_EQ(one.process.exitCode, 0) << one.err;
  EXPECT_NE(slurp(out / "clgrade.sbatch").find(" --seed 7 --jobs 12 '--task-processes=one'\n"), std::string::npos)
      << "the instructor's own, once:\n"
      << slurp(out / "clgrade.sbatch");
  const CliRun each =
      clgrade({"slurm", "--out", out.string(), "--shards", "2", "--gpus-per-shard", "2", "--cpus-per-task", "16",
               "--seed", "7", (root / "subs").string(), "--", "--task-processes", "each"},
              root / "logs-each");
  ASSERT_EQ(each.process.exitCode, 0) << each.err;
  const std::string eachArray = slurp(out / "clgrade.sbatch");
  EXPECT_NE(eachArray.find(" --seed 7 --jobs 4 '--task-processes' 'each'\n"), std::string::npos)
      << "a process a task: 2 a GPU from 8 CPUs each:\n"
      << eachArray;
  const CliRun both = clgrade({"slurm", "--out", out.string(), "--shards", "2", "--gpus-per-shard", "1", "--gres",
                               "gpu:1", (root / "subs").string()},
                              root / "logs-both");
  EXPECT_EQ(both.process.exitCode, 2) << both.err;
  EXPECT_NE(both.err.find("give it or --gres, not both"), std::string::npos) << both.err;
  const CliRun drawn =
      clgrade({"slurm", "--out", out.string(), "--shards", "2", (root / "subs").string()}, root / "logs-drawn");
  ASSERT_EQ(drawn.process.exitCode, 0) << drawn.err;
  EXPECT_NE(slurp(out / "clgrade.sbatch").find(" --seed "), std::string::npos);
  EXPECT_NE(drawn.out.find("hidden seed "), std::string::npos) << drawn.out;
}

// --- A one-node Slurm cluster ------------------------------------------------------------------

/// A program of Debian's slurm-wlm or munge: on the PATH, else in /usr/sbin (not on every PATH).
std::string tool(const std::string& name) {
  const std::string onPath = findOnPath(name);
  if (!onPath.empty()) return onPath;
  return fs::exists("/usr/sbin/" + name) ? "/usr/sbin/" + name : "";
}

/// A TCP port nothing listens on now (the kernel's choice for port 0).
int freePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  close(fd);
  return port;
}

/// munged, slurmctld and slurmd of a cluster of this machine alone, everything under one folder, on
/// ports of their own, so no Slurm or munge of the machine is touched. The daemons are stopped when
/// it goes, whatever happened (the jobs first).
class OneNodeCluster {
 public:
  explicit OneNodeCluster(const fs::path& dir) : dir_(dir) {}
  ~OneNodeCluster() { stop(); }

  /// Empty when the cluster is up (its node idle), else why not.
  std::string start() {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    std::string node = host;
    node = node.substr(0, node.find('.'));  // slurmd's own name for the node
    const fs::path munge = dir_ / "munge", state = dir_ / "state", spool = dir_ / "spool", logs = dir_ / "logs";
    for (const fs::path& d : {munge, state, spool, logs}) fs::create_directories(d);
    fs::permissions(munge, fs::perms::owner_all, fs::perm_options::replace);
    {  // munge's key: 1 KiB of random bytes, readable by its owner only
      std::random_device random;
      std::string key(1024, '\0');
      for (char& c : key) c = char(random());
      writeText(munge / "munge.key", key);
      fs::permissions(munge / "munge.key", fs::perms::owner_read, fs::perm_options::replace);
    }
    const std::string socket = (munge / "munge.socket").string();
    spawn({tool("munged"), "--foreground", "--force", "--socket=" + socket,
           "--key-file=" + (munge / "munge.key").string(), "--pid-file=" + (munge / "munged.pid").string(),
           "--seed-file=" + (munge / "munged.seed").string(), "--log-file=" + (logs / "munged.log").string()},
          logs / "munged.out");
    for (int i = 0; i < 100 && !fs::exists(socket); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!fs::exists(socket)) return "munged did not start: " + slurp(logs / "munged.out");

    conf_ = dir_ / "slurm.conf";
    writeText(conf_,
              "ClusterName=clgradetest\n"
              "SlurmctldHost=" +
                  node +
                  "(127.0.0.1)\n"
                  "SlurmctldPort=" +
                  std::to_string(freePort()) +
                  "\n"
                  "SlurmdPort=" +
                  std::to_string(freePort()) +
                  "\n"
                  "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=" +
                  socket +
                  "\n"
                  "SlurmUser=root\nSlurmdUser=root\n"
                  "StateSaveLocation=" +
                  state.string() + "\nSlurmdSpoolDir=" + spool.string() +
                  "\n"
                  "SlurmctldPidFile=" +
                  (dir_ / "slurmctld.pid").string() +
                  "\n"
                  "SlurmdPidFile=" +
                  (dir_ / "slurmd.pid").string() +
                  "\n"
                  "SlurmctldLogFile=" +
                  (logs / "slurmctld.log").string() +
                  "\n"
                  "SlurmdLogFile=" +
                  (logs / "slurmd.log").string() +
                  "\n"
                  "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
                  "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"
                  "ReturnToService=2\nMpiDefault=none\nJobCompType=jobcomp/none\n"
                  "AccountingStorageType=accounting_storage/none\nJobAcctGatherType=jobacct_gather/none\n"
                  "NodeName=" +
                  node +
                  " NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n"
                  "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n");
    // The clients (sinfo, sbatch: clgrade slurm's too) and the jobs, which inherit sbatch's environment.
    setenv("SLURM_CONF", conf_.c_str(), 1);
    spawn({tool("slurmctld"), "-D", "-f", conf_.string()}, logs / "slurmctld.out");
    spawn({tool("slurmd"), "-D", "-f", conf_.string()}, logs / "slurmd.out");
    for (int i = 0; i < 60; ++i) {
      if (run({tool("sinfo"), "-h", "-o", "%T"}).find("idle") != std::string::npos) return "";
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    return "the node did not become idle in 60 s:\n" + slurp(logs / "slurmctld.log") + slurp(logs / "slurmd.log");
  }

  /// The output of a Slurm client command (stderr too).
  std::string run(const std::vector<std::string>& argv) {
    const fs::path out = dir_ / "logs" / "client.txt";
    runProcess(argv, {}, 60, out.string(), out.string());
    return slurp(out);
  }

  /// Waits until the job has left the queue; false after `seconds`.
  bool waitFor(const std::string& job, double seconds) {
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
      const std::string queued = run({tool("squeue"), "-h", "-j", job, "-o", "%i %T"});
      if (queued.find_first_not_of(" \n") == std::string::npos || queued.find("Invalid job id") != std::string::npos)
        return true;
      std::this_thread::sleep_for(std::chrono::seconds(2));
    }
    return false;
  }

  std::string logs() const {
    std::string all;
    for (const char* f : {"slurmctld.log", "slurmd.log"})
      all += std::string("--- ") + f + "\n" + slurp(dir_ / "logs" / f);
    return all;
  }

  void stop() {
    if (!conf_.empty() && !pids_.empty()) run({tool("scancel"), "--full", "--user=root"});
    // The daemons in reverse order: slurmd, slurmctld, then munged (which both need to shut down).
    for (auto it = pids_.rbegin(); it != pids_.rend(); ++it) {
      kill(*it, SIGTERM);
      int status = 0;
      bool ended = false;
      for (int i = 0; i < 100 && !ended; ++i) {
        ended = waitpid(*it, &status, WNOHANG) == *it;
        if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      if (!ended) {
        kill(*it, SIGKILL);
        waitpid(*it, &status, 0);
      }
    }
    pids_.clear();
    if (!conf_.empty()) unsetenv("SLURM_CONF");
  }

 private:
  void spawn(const std::vector<std::string>& argv, const fs::path& output) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) == 0) pids_.push_back(pid);
    posix_spawn_file_actions_destroy(&actions);
  }

  fs::path dir_, conf_;
  std::vector<pid_t> pids_;
};

/// The job id after "<what> job: " in clgrade slurm's output.
std::string jobId(const std::string& out, const std::string& what) {
  const std::string key = what + " job: ";
  const size_t at = out.find(key);
  if (at == std::string::npos) return "";
  return out.substr(at + key.size(), out.find('\n', at) - at - key.size());
}

TEST(SlurmCluster, AShardedBatchThroughSbatchGivesOneBatchsClassResults) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root: the test starts slurmctld and slurmd (SlurmUser=root)";
  std::string missing;
  for (const char* t : {"munged", "slurmctld", "slurmd", "sbatch", "sinfo", "squeue", "scancel"})
    if (tool(t).empty()) missing += std::string(missing.empty() ? "" : ", ") + t;
  if (!missing.empty())
    GTEST_SKIP() << "Slurm or munge is not installed (no " << missing << "): apt-get install slurm-wlm munge";

  const fs::path root = scratch("cluster");
  const fs::path subs = root / "subs";
  fs::create_directories(subs);
  // Two in each shard of two (pinned in Shard.EverySubmissionInExactlyOneShardByItsNameAlone).
  for (const std::string s : {"reference", "template", "histogram_bin_formula", "stray_writes"})
    fs::copy(fs::path(test::samplesDir()) / s, subs / s, fs::copy_options::recursive);
  const std::string seed = "20250501";
  // Two of the four tasks: sharding is about submissions, not tasks, and CI's two cores are shared.
  const std::vector<std::string> options{"--device", test::deviceSpec(), "--task-timeout", "300",    "--build-timeout",
                                         "60",       "--task-memory",    "1024",           "--task", "conv3x3",
                                         "--task",   "histogram"};

  // One batch, as the reference.
  std::vector<std::string> once{"batch",  subs.string(), "--out",  (root / "once").string(),
                                "--jobs", "2",           "--seed", seed};
  once.insert(once.end(), options.begin(), options.end());
  const CliRun single = clgrade(once, root / "logs-once", 600);
  ASSERT_TRUE(single.process.ok()) << single.process.describe() << "\n" << single.err;

  OneNodeCluster cluster(root / "slurm");
  const std::string why = cluster.start();
  ASSERT_EQ(why, "") << "the one-node cluster did not start";

  // Two shards of one CPU each (the node's two), then the merge.
  const fs::path out = root / "cluster-class";
  std::vector<std::string> slurm{"slurm", "--out",  out.string(), "--shards", "2",           "--seed",
                                 seed,    "--time", "20",         "--submit", subs.string(), "--"};
  slurm.insert(slurm.end(), options.begin(), options.end());
  const CliRun submitted = clgrade(slurm, root / "logs-slurm");
  ASSERT_EQ(submitted.process.exitCode, 0) << submitted.err << "\n" << cluster.logs();
  const std::string arrayJob = jobId(submitted.out, "array"), mergeJob = jobId(submitted.out, "merge");
  ASSERT_FALSE(arrayJob.empty()) << submitted.out;
  ASSERT_FALSE(mergeJob.empty()) << submitted.out;
  const bool ended = cluster.waitFor(mergeJob, 540);
  const std::string shardLogs =
      slurp(out / ".shards" / "logs" / "shard-1.out") + slurp(out / ".shards" / "logs" / "shard-2.out");
  const std::string mergeLog = slurp(out / ".shards" / "logs" / "merge.out");
  ASSERT_TRUE(ended) << "the merge job did not end in time\n" << shardLogs << mergeLog << cluster.logs();

  // Each shard graded its own two.
  for (int k : {1, 2}) {
    const ordered_json shard = ordered_json::parse(slurp(out / ".shards" / std::to_string(k) / "class.json"));
    EXPECT_EQ(shard["shard"]["submissions"].size(), 2u) << shard.dump();
    EXPECT_EQ(shard["submissions_graded"], 2) << shardLogs;
  }
  EXPECT_NE(mergeLog.find("merged 4 submission(s) from 2 shard folder(s)"), std::string::npos) << mergeLog << shardLogs;
  // class.json holds no times: the same bytes as the single batch's.
  EXPECT_EQ(slurp(out / "class.json"), slurp(root / "once" / "class.json")) << mergeLog << shardLogs;
  EXPECT_EQ(slurp(out / "gradebook.csv"), slurp(root / "once" / "gradebook.csv"));
  for (const std::string s : {"reference", "template", "histogram_bin_formula", "stray_writes"})
    EXPECT_TRUE(fs::exists(out / s / "report.html")) << s;

  // The merge again, by hand: nothing to copy, the same class results.
  const CliRun again =
      clgrade({"merge", "--out", out.string(), (out / ".shards" / "1").string(), (out / ".shards" / "2").string()},
              root / "logs-merge");
  EXPECT_EQ(again.process.exitCode, 0) << again.err;
  EXPECT_NE(again.out.find("(0 copied"), std::string::npos) << again.out;
  EXPECT_EQ(slurp(out / "class.json"), slurp(root / "once" / "class.json"));
  cluster.stop();
  if (!HasFailure()) fs::remove_all(root);
}

}  // namespace
}  // namespace clgrade
