// clgrade's command line: the table of subcommands; each lives in its own *_command.cpp.
//   clgrade devices                   list OpenCL devices
//   clgrade grade <kernels-dir>       grade every case of the rubric, write report.json
//   clgrade check <kernels-dir>       the students' self-check: visible cases only
//   clgrade bench [kernels-dir]       time kernels against the copy roofline
//   clgrade sweep <kernels-dir>       the RESULT_STEPS experiment: correctness and chart
//   clgrade batch <submissions-dir>  grade every submission of a folder, in parallel, resumably
//   clgrade merge --out DIR SHARD...  one class folder from the shards of a batch (batch --shard K/N)
//   clgrade slurm --out DIR --shards N <submissions-dir>  a Slurm job array of shards and its merge
//   clgrade export FORMAT CLASS-DIR   the class's grades as Canvas, Moodle or ILIAS import them
//   clgrade rubric-criteria FILE      a rubric's criteria (for CI); criterion-status REPORT T.C
//   clgrade profile PATH...           where the time of grading went (phase times of reports)
//   clgrade golden [--write FILE]     print (or write) the golden manifest of inputs and references
//   clgrade package gradescope ...    the autograder zip for Gradescope (setup.sh, run_autograder)
#include <iostream>

#include "cl/driver_settings.h"
#include "cli/command.h"
#include "cli/usage.h"
#include "grading/grader.h"

#ifndef CLGRADE_GIT_COMMIT
#define CLGRADE_GIT_COMMIT "unknown"
#endif

int main(int argc, char** argv) {
  using namespace clgrade::cli;
  clgrade::applyDriverSettings();  // before any thread or driver starts
  CLI::App app{"clgrade: grades the OpenCL image-convolution assignment"};
  app.name("clgrade");  // usage lines say "clgrade", not the path the program was started by
  app.require_subcommand(1);
  app.set_version_flag("--version", "clgrade " + clgrade::clgradeVersion() + " (configured from commit " +
                                        CLGRADE_GIT_COMMIT + ")\nbuilt with " + CLGRADE_BUILT_WITH);

  Commands commands;
  addDevicesCommand(app, &commands);
  addGradeCommands(app, &commands);
  addBenchCommand(app, &commands);
  addSweepCommand(app, &commands);
  addBatchCommand(app, &commands);
  addMergeCommand(app, &commands);
  addExportCommand(app, &commands);
  addSlurmCommand(app, &commands);
  addPackageCommand(app, &commands);
  addCriterionCommands(app, &commands);
  addProfileCommand(app, &commands);
  addGoldenCommand(app, &commands);
  addInternalCommands(app, &commands);

  app.footer(kExitCodesText);

  // `clgrade`, `clgrade help [COMMAND]`, `clgrade version` and -V, as git and cargo answer them.
  if (const int exit = answerHelpOrVersion(app, argc, argv); exit >= 0) return exit;
  // Every usage error exits 2 (CLI11's own codes are 105-114), an unknown subcommand with the nearest.
  if (const int exit = parseCommandLine(app, argc, argv); exit >= 0) return exit;
  // An exception caught here unwinds the stack first: scratch folders (an archive's, say) are removed.
  try {
    for (const Command& c : commands)
      if (c.sub->parsed()) return c.run();
  } catch (const std::exception& e) {
    std::cerr << "clgrade: internal error (clgrade's fault, not the submission's): " << e.what() << "\n";
    return kInternal;
  }
  return kUsage;
}
