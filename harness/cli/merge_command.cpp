// clgrade merge: one class folder from the --out folders of a batch graded in shards
// (`clgrade batch --shard K/N`, `clgrade slurm`). Exit 0: every shard and submission merged;
// 1: something is missing (named; what is there is merged, and running it again once the rest is
// graded completes the folder); 2: the shards are not one batch's (nothing written); 4: a file could
// not be written.
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "batch/merge.h"
#include "cli/command.h"
#include "util/markup.h"

namespace clgrade::cli {
namespace {

struct MergeArgs {
  std::string out;
  std::vector<std::string> shards;
  std::string overrides;
  std::string audience;
  bool noSimilarity = false;
};

int mergeCommand(const MergeArgs& args) {
  MergeOptions options;
  options.outDir = args.out;
  options.shardDirs = args.shards;
  if (!args.overrides.empty() && !loadOverridesOrComplain(args.overrides, &options.overrides)) return kUsage;
  options.audience = audienceOf(args.audience);
  options.similarity = !args.noSimilarity;
  MergeResult r;
  try {
    r = mergeShards(options);
  } catch (const nlohmann::json::exception& e) {  // a class.json of the right shape but wrong types
    r.refusal = std::string("a shard's class.json cannot be read: ") + e.what();
  }
  if (!r.refusal.empty()) {
    std::cerr << "clgrade merge: refused, nothing written: " << terminalText(r.refusal) << "\n";
    return kUsage;
  }
  for (const std::string& p : r.problems) std::cerr << "clgrade merge: " << terminalText(p) << "\n";
  std::cout << "merged " << r.merged << " submission(s) from " << args.shards.size() << " shard folder(s) (" << r.copied
            << " copied by this run); class results: " << terminalText(args.out) << "/class.json\n";
  for (const std::string& m : r.missing) std::cerr << "clgrade merge: missing: " << terminalText(m) << "\n";
  for (const std::string& e : r.notWritten) std::cerr << "clgrade merge: not written: " << terminalText(e) << "\n";
  if (!r.notWritten.empty()) return kOutput;
  if (!r.missing.empty()) {
    std::cerr << "clgrade merge: " << r.missing.size() << " shard(s) or submission(s) missing: merged what is "
              << "there; run the merge again once they are graded\n";
    return kFailures;
  }
  return kOk;
}

}  // namespace

void addMergeCommand(CLI::App& app, Commands* commands) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* sub = app.add_subcommand(
      "merge",
      "one class folder (class.json, gradebook.csv, summary.html, every report) from the --out folders of "
      "a batch graded in shards (clgrade batch --shard K/N)");
  sub->add_option("--out", args->out, "the merged class folder (not one of the shards')")->required();
  sub->add_option("--overrides", args->overrides,
                  "CSV of instructor adjustments (submission,task,criterion,points,comment), merged into every output");
  addAudienceOption(sub, &args->audience, "who each submission's files are for, as batch --audience");
  sub->add_flag("--no-similarity", args->noSimilarity, "as batch --no-similarity: the class's similarity not measured");
  sub->add_option("shard-dirs", args->shards, "the shards' --out folders")->required();
  commands->push_back({sub, [args] { return mergeCommand(*args); }});
}

}  // namespace clgrade::cli
