// clgrade golden: the manifest of generated inputs and CPU reference outputs (golden/manifest.tsv).
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "grading/golden.h"
#include "util/files.h"
#include "util/install_layout.h"

namespace clgrade::cli {
namespace {

struct GoldenArgs {
  std::vector<std::string> rubrics;
  std::string write;
  std::string exportDir;
};

int goldenCommand(const GoldenArgs& args) {
  std::string manifest, err;
  if (!goldenManifest(args.rubrics, &manifest, &err, args.exportDir)) {
    std::cerr << "clgrade: " << err << "\n";
    return kUsage;
  }
  if (args.write.empty()) {
    std::cout << manifest;
    return kOk;
  }
  if (!writeFileAtomically(args.write, manifest, &err)) {
    std::cerr << "clgrade: " << err << "\n";
    return kOutput;
  }
  std::cout << "wrote " << args.write << "\n";
  return kOk;
}

}  // namespace

void addGoldenCommand(CLI::App& app, Commands* commands) {
  auto args = std::make_shared<GoldenArgs>();
  args->rubrics = rubricFiles(dataPath("rubrics"));  // every shipped rubric
  CLI::App* golden = app.add_subcommand("golden", "print the golden manifest (inputs and CPU reference outputs)");
  golden->add_option("--rubric", args->rubrics, "rubric files whose cases it covers");
  golden->add_option("--write", args->write, "write the manifest to this file instead of printing it");
  golden->add_option("--export", args->exportDir, "also write every generated input to this folder (PFM + PNG)");
  commands->push_back({golden, [args] { return goldenCommand(*args); }});
}

}  // namespace clgrade::cli
