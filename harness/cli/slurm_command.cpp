// clgrade slurm: a batch graded on a Slurm cluster. Writes <out>/clgrade.sbatch, a job array with one
// array task per shard (`clgrade batch --shard K/N`, each into <out>/.shards/K), and
// <out>/merge.sbatch (`clgrade merge` of the shards into <out>); with --submit, submits both, the merge
// depending on the array (afterany: it runs when every shard has ended, and names what is missing).
// Every shard gets the same --seed (one is drawn here when none is given), so that the hidden inputs
// are the same in every shard and the merged class.json is the one a single batch writes.
#include <sys/stat.h>

#include <filesystem>
#include <initializer_list>
#include <iostream>
#include <memory>

#include "batch/batch.h"
#include "batch/shard.h"
#include "cli/command.h"
#include "cli/usage.h"
#include "report/outputs.h"
#include "tasks/inputs.h"
#include "util/files.h"
#include "util/markup.h"
#include "util/search_path.h"
#include "util/subprocess.h"

namespace fs = std::filesystem;

namespace clgrade::cli {
namespace {

struct SlurmArgs {
  std::string out;
  std::string submissionsDir;
  int shards = 0;
  std::string gres, partition, time;
  int cpusPerTask = 1;
  int gpusPerShard = 0;  ///< GPUs each shard asks for (--gres=gpu:N); 0: none asked this way
  std::vector<std::string> sbatchOptions;
  std::optional<uint64_t> seed;
  std::string overrides;
  bool submit = false;
  std::vector<std::string> batchOptions;  ///< after `--`: passed to every shard's clgrade batch
};

/// `s` as one word of a bash command line.
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// Whether `arg` is one of `options` ("--out" or "--out=..."); *which names it.
bool isOneOf(const std::string& arg, std::initializer_list<const char*> options, std::string* which) {
  for (const char* option : options) {
    const std::string o = option;
    if (arg == o || arg.rfind(o + "=", 0) == 0) {
      *which = o;
      return true;
    }
  }
  return false;
}

/// The batch options that `clgrade slurm` sets itself (per shard, or once for all): refused after `--`.
bool ownOption(const std::string& arg, std::string* which) {
  return isOneOf(arg, {"--out", "--shard", "--seed", "--overrides"}, which);
}

/// Options of one run: clgrade.sbatch is run again by every resume, so they would be repeated.
bool oneRunOption(const std::string& arg, std::string* which) {
  return isOneOf(arg, {"--regrade", "--regrade-all", "--force", "--confirm-overrides"}, which);
}

bool hasJobs(const std::vector<std::string>& options) {
  for (const std::string& a : options)
    if (a == "--jobs" || a == "-j" || a.rfind("--jobs=", 0) == 0 || (a.size() > 2 && a.rfind("-j", 0) == 0))
      return true;
  return false;
}

/// The --task-processes the batch options give ("" when none).
std::string taskProcessesOf(const std::vector<std::string>& options) {
  const std::string prefix = "--task-processes=";
  for (size_t i = 0; i < options.size(); ++i) {
    if (options[i].rfind(prefix, 0) == 0) return options[i].substr(prefix.size());
    if (options[i] == "--task-processes" && i + 1 < options.size()) return options[i + 1];
  }
  return "";
}

/// The #SBATCH lines both scripts share.
std::string commonDirectives(const SlurmArgs& a) {
  std::string d;
  if (!a.partition.empty()) d += "#SBATCH --partition=" + a.partition + "\n";
  if (!a.time.empty()) d += "#SBATCH --time=" + a.time + "\n";
  for (const std::string& o : a.sbatchOptions) d += "#SBATCH " + o + "\n";
  return d;
}

/// Runs `sbatch --parsable ARGS...` and returns the job id it printed ("" with *err on failure).
std::string submit(const std::string& sbatch, const std::vector<std::string>& args, const fs::path& logs,
                   const std::string& name, std::string* err) {
  std::vector<std::string> argv{sbatch, "--parsable"};
  argv.insert(argv.end(), args.begin(), args.end());
  const std::string outPath = (logs / (name + ".stdout")).string(), errPath = (logs / (name + ".stderr")).string();
  const ProcessResult r = runProcess(argv, {}, 300, outPath, errPath);
  std::string out, text;
  readFile(outPath, &out, nullptr);
  if (!r.ok()) {
    readFile(errPath, &text, nullptr);
    *err = "sbatch " + r.describe() + ": " + text;
    return "";
  }
  // --parsable prints "<id>" or "<id>;<cluster>".
  const std::string id = out.substr(0, out.find_first_of(";\n"));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    *err = "sbatch printed no job id: " + out;
    return "";
  }
  return id;
}

/// What the scripts cannot hold: batch options clgrade slurm sets itself, sbatch settings that would
/// add directives of their own. kOk, or the usage error (said on stderr).
int refusedSettings(const SlurmArgs& a) {
  if (const std::string why = notAKernelsFolder(a.submissionsDir, true); !why.empty()) {
    std::cerr << "clgrade slurm: " << why << "\n";
    return kUsage;
  }
  for (const std::string& arg : a.batchOptions) {
    std::string which;
    if (ownOption(arg, &which)) {
      std::cerr << "clgrade slurm: " << which << " is clgrade slurm's own option: give it before the submissions "
                << "folder (each shard's --out and --shard are set by the job array)\n";
      return kUsage;
    }
    if (oneRunOption(arg, &which)) {
      std::cerr << "clgrade slurm: " << which << " is for one run, and clgrade.sbatch is run again by every resume: "
                << "run `clgrade batch` with it on the shard's folder (.shards/K, with that shard's --shard K/N "
                << "and --seed), then `sbatch merge.sbatch`\n";
      return kUsage;
    }
  }
  if (a.gpusPerShard > 0 && !a.gres.empty()) {
    std::cerr << "clgrade slurm: --gpus-per-shard asks for --gres=gpu:" << a.gpusPerShard
              << " itself: give it or --gres, not both\n";
    return kUsage;
  }
  // The #SBATCH lines are one line each: a value with a line break would add directives of its own.
  for (const std::string* v : {&a.gres, &a.partition, &a.time})
    if (v->find_first_of("\n\r") != std::string::npos) {
      std::cerr << "clgrade slurm: an sbatch setting holds a line break\n";
      return kUsage;
    }
  for (const std::string& v : a.sbatchOptions)
    if (v.find_first_of("\n\r") != std::string::npos || v.rfind("-", 0) != 0) {
      std::cerr << "clgrade slurm: --sbatch-option '" << terminalText(v) << "': one sbatch option on one line, "
                << "such as --account=course42\n";
      return kUsage;
    }
  return kOk;
}

/// Submits the job array, then the merge job depending on it.
int submitScripts(const fs::path& arrayPath, const fs::path& mergePath, const fs::path& logs) {
  std::string err;
  const std::string sbatch = findOnPath("sbatch");
  if (sbatch.empty()) {
    std::cerr << "clgrade slurm: sbatch is not on the PATH: submit the scripts from a Slurm login node\n";
    return kOutput;
  }
  const std::string arrayId = submit(sbatch, {arrayPath.string()}, logs, "sbatch-array", &err);
  if (arrayId.empty()) {
    std::cerr << "clgrade slurm: the job array was not submitted: " << terminalText(err) << "\n";
    return kOutput;
  }
  std::cout << "array job: " << arrayId << "\n" << std::flush;
  const std::string mergeId =
      submit(sbatch, {"--dependency=afterany:" + arrayId, mergePath.string()}, logs, "sbatch-merge", &err);
  if (mergeId.empty()) {
    std::cerr << "clgrade slurm: the merge job was not submitted (the array runs; submit merge.sbatch once it has "
              << "ended): " << terminalText(err) << "\n";
    return kOutput;
  }
  std::cout << "merge job: " << mergeId << "\n";
  return kOk;
}

int slurmCommand(const SlurmArgs& a) {
  std::error_code ec;
  if (const int refused = refusedSettings(a); refused != kOk) return refused;
  const uint64_t seed = a.seed ? *a.seed : drawHiddenSeed();
  const fs::path out = fs::absolute(a.out, ec).lexically_normal();
  const fs::path shards = out / ".shards", logs = shards / "logs";
  std::string err;
  if (!makeDirectories(logs.string(), &err)) {
    std::cerr << "clgrade slurm: " << terminalText(err) << "\n";
    return kOutput;
  }
  const std::string n = std::to_string(a.shards);
  const std::string clgrade = selfExecutable(), cwd = fs::current_path(ec).string();
  const std::string overrides =
      a.overrides.empty() ? "" : " --overrides " + quoted(fs::absolute(a.overrides, ec).string());

  // Hidden folders: a submission can never be named like one (the batch skips them), so no student's
  // report folder in <out> can collide with the shards' results.
  std::string array =
      "#!/bin/bash\n"
      "# Written by clgrade slurm: array task K grades shard K of " +
      n +
      " of the submissions (clgrade batch --shard\n"
      "# K/" +
      n + ", a share fixed by each submission's name) into " + shards.string() +
      "/K; merge.sbatch joins\n"
      "# the shards. Every shard has the same --seed: the same hidden inputs. Submitting it again (or one\n"
      "# task: sbatch --array=K) resumes: a shard grades only what it has not completed.\n"
      "#SBATCH --job-name=clgrade\n"
      "#SBATCH --array=1-" +
      n +
      "\n"
      "#SBATCH --ntasks=1\n"
      "#SBATCH --cpus-per-task=" +
      std::to_string(a.cpusPerTask) +
      "\n"
      "#SBATCH --output=" +
      (logs / "shard-%a.out").string() + "\n";
  if (!a.gres.empty()) array += "#SBATCH --gres=" + a.gres + "\n";
  if (a.gpusPerShard > 0) array += "#SBATCH --gres=gpu:" + std::to_string(a.gpusPerShard) + "\n";
  array += commonDirectives(a);
  array += "set -eu\ncd " + quoted(cwd) + "\nexec " + quoted(clgrade) + " batch " +
           quoted(fs::absolute(a.submissionsDir, ec).string()) + " --shard \"${SLURM_ARRAY_TASK_ID}/" + n +
           "\" --out " + quoted(shards.string() + "/") + "\"${SLURM_ARRAY_TASK_ID}\" --seed " + std::to_string(seed) +
           overrides;
  // Jobs at once per shard, from the CPUs and GPUs Slurm gives it (a node without CPU binding would
  // show the batch every core of the node): the batch's own default for those.
  if (!hasJobs(a.batchOptions)) {
    DeviceInfo device;
    device.type = a.gpusPerShard > 0 ? "gpu" : "cpu";
    // A GPU shard runs a submission's tasks in one process unless its options say otherwise, and
    // says so: its jobs are counted for that, where `auto` would count the node's every core.
    const std::string processes = taskProcessesOf(a.batchOptions);
    const bool together = device.type == "gpu" && processes != "each";
    array += " --jobs " + std::to_string(defaultJobs(device, a.cpusPerTask, std::max(1, a.gpusPerShard), 0, together));
    if (together && processes.empty()) array += " --task-processes one";
  }
  for (const std::string& o : a.batchOptions) array += " " + quoted(o);
  array += "\n";

  std::string merge =
      "#!/bin/bash\n"
      "# Written by clgrade slurm: joins the shards of clgrade.sbatch into " +
      out.string() +
      " (class.json,\n"
      "# gradebook.csv, summary.html). Run it again at any time: it copies only what is new.\n"
      "#SBATCH --job-name=clgrade-merge\n"
      "#SBATCH --ntasks=1\n"
      "#SBATCH --cpus-per-task=1\n"
      "#SBATCH --output=" +
      (logs / "merge.out").string() + "\n" + commonDirectives(a) + "set -eu\ncd " + quoted(cwd) +
      "\nshards=()\nfor k in $(seq 1 " + n + "); do shards+=(" + quoted(shards.string() + "/") +
      "\"$k\"); done\nexec " + quoted(clgrade) + " merge --out " + quoted(out.string()) + overrides +
      " \"${shards[@]}\"\n";

  const fs::path arrayPath = out / kSlurmArrayScript, mergePath = out / kSlurmMergeScript;
  for (const auto& [path, text] : {std::pair{arrayPath, array}, std::pair{mergePath, merge}}) {
    if (!writeFileAtomically(path.string(), text, &err)) {
      std::cerr << "clgrade slurm: " << terminalText(err) << "\n";
      return kOutput;
    }
    chmod(path.c_str(), 0755);
  }
  std::cout << "wrote " << arrayPath.string() << " (" << a.shards << " shards, hidden seed " << seed << ") and "
            << mergePath.string() << "\n";
  if (!a.submit) {
    std::cout << "submit with: id=$(sbatch --parsable " << quoted(arrayPath.string())
              << ") && sbatch --dependency=afterany:$id " << quoted(mergePath.string()) << "\n";
    return kOk;
  }
  return submitScripts(arrayPath, mergePath, logs);
}

}  // namespace

void addSlurmCommand(CLI::App& app, Commands* commands) {
  auto args = std::make_shared<SlurmArgs>();
  CLI::App* sub =
      app.add_subcommand("slurm",
                         "grade a batch on a Slurm cluster: writes (and with --submit submits) a job array of shards "
                         "(clgrade batch --shard K/N) and a merge job; batch options go after --");
  sub->add_option("--out", args->out, "the class folder: scripts, the shards (.shards/K) and the merged results")
      ->required();
  sub->add_option("--shards", args->shards, "number of shards, one array task each")
      ->required()
      ->check(CLI::Range(1, kMaxShards));
  sub->add_option("--gres", args->gres, "generic resources of each shard, such as gpu:1");
  sub->add_option("--gpus-per-shard", args->gpusPerShard,
                  "GPUs of each shard (--gres=gpu:N; the shard's batch uses every one, with its jobs from the "
                  "CPUs and GPUs); whole nodes: N the node's GPUs and --sbatch-option=--exclusive")
      ->check(CLI::Range(0, 64));
  sub->add_option("--partition", args->partition, "the Slurm partition of both jobs");
  sub->add_option("--time", args->time, "time limit of each job (sbatch --time)");
  sub->add_option("--cpus-per-task", args->cpusPerTask,
                  "CPUs of each shard; its --jobs unless the batch options set them: one per CPU, or with "
                  "--gpus-per-shard one per 4 CPUs of each GPU, 1 to 4 a GPU")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  // One value per occurrence: the submissions folder after it is never taken for a second one.
  sub->add_option("--sbatch-option", args->sbatchOptions,
                  "one more #SBATCH line for both jobs, such as --account=x (repeatable)")
      ->allow_extra_args(false);
  addSeedOption(sub, &args->seed, "seed of the hidden cases' inputs, the same in every shard (default: one drawn)");
  sub->add_option("--overrides", args->overrides, "CSV of instructor adjustments, for every shard and the merge");
  sub->add_flag("--submit", args->submit, "submit the array and the merge (sbatch) and print their job ids");
  sub->add_option("submissions-dir", args->submissionsDir, "folder with one subfolder per submission")->required();
  sub->add_option("batch-options", args->batchOptions,
                  "after --: options of every shard's clgrade batch (--device, --rubric, --task-timeout, ...)");
  commands->push_back({sub, [args] { return slurmCommand(*args); }});
}

}  // namespace clgrade::cli
