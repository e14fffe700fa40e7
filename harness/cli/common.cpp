#include <filesystem>
#include <iostream>

#include "cli/command.h"
#include "cli/usage.h"
#include "util/install_layout.h"
#include "util/markup.h"
#include "util/subprocess.h"

namespace clgrade::cli {

void addAudienceOption(CLI::App* sub, std::string* word, const std::string& help) {
  sub->add_option("--audience", *word, help)->check(CLI::IsMember({"student", "instructor", "both"}));
}

std::optional<Audience> audienceOf(const std::string& word) {
  Audience a = Audience::Student;
  if (audienceFromName(word, &a)) return a;
  return std::nullopt;
}

std::string defaultRubric() { return dataPath("rubrics/four_tasks.xml"); }

bool loadOverridesOrComplain(const std::string& path, std::vector<Override>* overrides) {
  std::vector<std::string> problems;
  if (loadOverrides(path, overrides, &problems)) return true;
  std::cerr << "clgrade: the overrides cannot be used:\n";
  for (const std::string& p : problems) std::cerr << "  " << terminalText(p) << "\n";
  return false;
}

bool loadRosterOrComplain(const std::string& path, Roster* roster) {
  std::vector<std::string> problems;
  if (loadRoster(path, roster, &problems)) return true;
  std::cerr << "clgrade: the roster cannot be used:\n";
  for (const std::string& p : problems) std::cerr << "  " << terminalText(p) << "\n";
  return false;
}

int loadRubricAndDevice(const std::string& rubricPath, const std::vector<std::string>& tasks,
                        const std::string& deviceSpec, Rubric* rubric, DeviceEntry* device) {
  if (!loadRubricOrComplain(rubricPath, rubric)) return kUsage;
  for (const std::string& t : tasks) {
    bool known = false;
    for (const TaskRubric& tr : rubric->tasks) known = known || tr.id == t;
    if (!known) {
      std::vector<std::string> ids;
      for (const TaskRubric& tr : rubric->tasks) ids.push_back(tr.id);
      const std::string near = nearestName(t, ids);
      std::string list;
      for (const std::string& id : ids) list += (list.empty() ? "" : ", ") + id;
      std::cerr << "clgrade: the rubric has no task '" << terminalText(t) << "'"
                << (near.empty() ? "" : ", did you mean '" + near + "'?") << " (its tasks: " << list << ")\n";
      return kUsage;
    }
  }
  std::string err;
  if (!chooseDevice(deviceSpec, device, &err)) {
    std::cerr << "clgrade: " << err << "\n";
    return kNoDevice;
  }
  return kOk;
}

void addSeedOption(CLI::App* sub, std::optional<uint64_t>* seed, const std::string& help) {
  sub->add_option("--seed", *seed, help)->check(CLI::Range(uint64_t(0), kMaxHiddenSeed));
}

void addChildLimitOptions(CLI::App* sub, ChildLimitArgs* args, const std::string& taskTimeoutHelp) {
  sub->add_option("--evidence-cases", args->evidenceCases,
                  "write difference images for the first N failing cases of each check (0: all)")
      ->capture_default_str()
      ->check(between(0, 1e6, "cases"));
  sub->add_flag("--pfm", args->pfm, "also write each difference image as PFM (every channel, full precision)");
  sub->add_option("--evidence-mib", args->evidenceMiB,
                  "MiB of PNG images one submission's evidence may take, shared equally by the rubric's tasks; "
                  "the first failing checks keep theirs (0: no limit)")
      ->capture_default_str()
      ->check(between(0, 1 << 20, "MiB"));
  sub->add_option("--task-timeout", args->taskTimeout, taskTimeoutHelp)
      ->capture_default_str()
      ->check(between(0, 7 * 86400, "seconds"));
  sub->add_option("--build-timeout", args->buildTimeout,
                  "seconds one build of a kernel file may take before its task is stopped (0: no limit)")
      ->capture_default_str()
      ->check(between(0, 86400, "seconds"));
  sub->add_option("--task-memory", args->taskMemoryMiB,
                  "MiB of memory one task may use before it is stopped (0: 3/4 of the machine's, shared by the "
                  "jobs, at most 8192)")
      ->capture_default_str()
      ->check(between(0, 1 << 20, "MiB"));
  sub->add_option("--task-disk", args->taskDiskMiB,
                  "MiB of disk one task may write (its scratch folder, its /tmp and HOME, and compiler cache) before it "
                  "is stopped (0: no "
                  "limit; a grading run writes a few hundred)")
      ->capture_default_str()
      ->check(between(0, 1 << 24, "MiB"));
  sub->add_option("--task-jobs", args->taskJobs,
                  "tasks of one submission graded at once, their timings taking turns (0: every task on a GPU, "
                  "one at a time on a CPU device, whose cores one task already uses)")
      ->capture_default_str()
      ->check(between(0, 64, "tasks"));
  sub->add_option("--cache-dir", args->cacheDir,
                  "where the course's inputs of a megapixel or more and the CPU's results on them are kept between "
                  "grades (default: " +
                      defaultStoreRoot() + "; none: made in every grade; not used with --no-sandbox)");
  sub->add_flag("--no-sandbox", args->noSandbox,
                "run student code without the bubblewrap sandbox (only where none can be made; the report "
                "records it)");
}

KeeperSettings keeperSettings(const ChildLimitArgs& args, const std::string& deviceSpec, const DeviceEntry& device,
                              bool visibleOnly) {
  KeeperSettings s;
  s.clgrade = selfExecutable();
  s.device = deviceSpec;
  s.taskTimeoutSeconds = args.taskTimeout;
  s.buildTimeoutSeconds = args.buildTimeout;
  s.memoryLimitBytes = static_cast<uint64_t>(args.taskMemoryMiB * 1048576.0);
  s.scratchQuotaBytes = static_cast<uint64_t>(args.taskDiskMiB * 1048576.0);
  s.cpuDevice = device.info.type == "cpu";
  s.evidenceCases = args.evidenceCases;
  s.pfmEvidence = args.pfm;
  s.imageBudgetBytes = args.evidenceMiB << 20;
  s.visibleOnly = visibleOnly;
  s.sandbox = !args.noSandbox;
  // Only where student code is sandboxed: unconfined, it could rewrite what later grades read.
  if (s.sandbox) {
    std::string why;
    s.store = openCourseStore(args.cacheDir, &why);
    if (!why.empty()) std::cerr << "clgrade: " << why << " (every input is made in each grade)\n";
  }
  // A GPU runs one task's timing while the others build, check and profile; PoCL already spreads one
  // task's launches over every core.
  constexpr int kEveryTask = 64;
  s.taskJobs = args.taskJobs > 0 ? args.taskJobs : s.cpuDevice ? 1 : kEveryTask;
  return s;
}

}  // namespace clgrade::cli
