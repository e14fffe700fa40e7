// The hidden child commands grade and check start: `analyze` (a task's analysis case on Oclgrind)
// and `hwcount` (the same case replayed through CUDA under ncu). People never call them.
#include <memory>

#include "cli/command.h"
#include "grading/analysis.h"
#include "grading/hardware.h"

namespace clgrade::cli {
namespace {

struct ChildArgs {
  std::string kernelsDir, rubric = defaultRubric(), task, out;
};

CLI::App* addChild(CLI::App& app, const char* name, const char* help, ChildArgs* args) {
  CLI::App* sub = app.add_subcommand(name, help);
  sub->add_option("kernels-dir", args->kernelsDir)->required();
  sub->add_option("--rubric", args->rubric);
  sub->add_option("--task", args->task)->required();
  sub->add_option("--out", args->out)->required();
  sub->group("");  // hidden from --help
  return sub;
}

}  // namespace

void addInternalCommands(CLI::App& app, Commands* commands) {
  auto analyze = std::make_shared<ChildArgs>();
  commands->push_back({addChild(app, "analyze", "(internal) run a task's analysis case on Oclgrind", analyze.get()),
                       [analyze] {
                         Rubric rubric;
                         if (!loadRubricOrComplain(analyze->rubric, &rubric)) return int(kUsage);
                         return analyzeInChild(analyze->kernelsDir, rubric, analyze->task, analyze->out);
                       }});
  auto hw = std::make_shared<ChildArgs>();
  commands->push_back({addChild(app, "hwcount", "(internal) replay a task's analysis case through CUDA for ncu", hw.get()),
                       [hw] {
                         Rubric rubric;
                         if (!loadRubricOrComplain(hw->rubric, &rubric)) return int(kUsage);
                         return hwcountInChild(hw->kernelsDir, rubric, hw->task, hw->out);
                       }});
}

}  // namespace clgrade::cli
