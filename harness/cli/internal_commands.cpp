// The hidden child commands grade and check start. They only parse their arguments: `run-task`,
// `analyze`, `hwcount` and `hwsession` run inside a sandbox (runner/runner.h), `unpack` unpacks a
// submission's archive in a sandbox (util/archive.h), `time-trusted` times a batch's reference
// kernels, no student code (batch/trusted_timer.h). People never call them.
#include <algorithm>
#include <iostream>
#include <memory>
#include <vector>

#include "batch/trusted_timer.h"
#include "cli/command.h"
#include "protocol/session_part.h"
#include "runner/runner.h"
#include "runner/session_args.h"
#include "tasks/inputs.h"
#include "util/archive.h"
#include "util/files.h"
#include "util/install_layout.h"

namespace clgrade::cli {
namespace {

struct ChildArgs {
  std::string kernelsDir, rubric = defaultRubric(), out;
  std::vector<std::string> tasks;  ///< one or more (hwcount: one profiler session)
};

/// Four numbers given as --hidden-seeds (photo scene extremes rows); none otherwise.
std::optional<HiddenSeeds> seedsOf(const std::vector<uint64_t>& n) {
  if (n.size() != 4) return std::nullopt;
  return HiddenSeeds{n[0], n[1], n[2], n[3]};
}

CLI::App* addChild(CLI::App& app, const char* name, const char* help, ChildArgs* args) {
  CLI::App* sub = app.add_subcommand(name, help);
  sub->add_option("kernels-dir", args->kernelsDir)->required();
  sub->add_option("--rubric", args->rubric);
  sub->add_option("--task", args->tasks, "repeatable")->required();
  sub->add_option("--out", args->out)->required();
  sub->group("");  // hidden from --help
  return sub;
}

bool readSessionPart(const std::string& path, SessionPart* part, std::string* err) {
  std::string text;
  std::vector<std::string> argv;
  return readFile(path, &text, err, size_t(1) << 20) && readSessionPartText(text, &part->folder, &argv, err) &&
         parseSessionCommandLine(argv, &part->args, err);
}

}  // namespace

void addInternalCommands(CLI::App& app, Commands* commands) {
  auto trusted = std::make_shared<TrustedTimingRequest>();
  trusted->rubric = defaultRubric();
  trusted->seed = kGoldenHiddenSeed;
  CLI::App* timer = app.add_subcommand("time-trusted", "(internal) a batch's reference, naive and copy timings");
  timer->add_option("--rubric", trusted->rubric);
  timer->add_option("--device", trusted->device);
  timer->add_option("--task", trusted->tasks);
  timer->add_option("--out", trusted->out)->required();
  timer->add_option("--timing-lock", trusted->timingLock);
  timer->add_option("--seed", trusted->seed);
  timer->add_option("--cache-dir", trusted->storeRoot);
  timer->add_flag("--beside-profiler", trusted->besideProfiler);
  timer->group("");
  commands->push_back({timer, [trusted] { return timeTrustedInChild(*trusted); }});
  auto request = std::make_shared<std::string>();
  CLI::App* runner = app.add_subcommand("run-task", "(internal) a task's runner: run its kernels, record the device");
  runner->add_option("request", *request)->required();
  runner->group("");
  commands->push_back({runner, [request] { return runTask(*request); }});
  auto requests = std::make_shared<std::vector<std::string>>();
  auto sessionFile = std::make_shared<std::string>();
  CLI::App* together = app.add_subcommand("run-tasks", "(internal) several tasks' runners in one process");
  together->add_option("requests", *requests)->required();
  together->add_option("--session", *sessionFile, "then the submission's counters session, in the same context");
  together->group("");
  commands->push_back({together, [requests, sessionFile] {
                         if (sessionFile->empty()) return runTasks(*requests);
                         SessionPart part;
                         std::string err;
                         // Without it the tasks still run; the keeper then counts in a process of its own.
                         const bool read = readSessionPart(*sessionFile, &part, &err);
                         if (!read) std::cerr << "clgrade run-tasks: no counters session: " << err << "\n";
                         return runTasks(*requests, read ? &part : nullptr);
                       }});
  struct AnalyzeArgs {
    std::string source, rubric, task, out;
    bool drawn = false;
    std::vector<uint64_t> seeds;
  };
  auto analyze = std::make_shared<AnalyzeArgs>();
  CLI::App* simulator = app.add_subcommand("analyze", "(internal) run a task's analysis case on Oclgrind");
  simulator->add_option("--source", analyze->source, "the task's kernel file as the keeper read it")->required();
  simulator->add_option("--rubric", analyze->rubric, "the rubric's part for the task")->required();
  simulator->add_option("--task", analyze->task)->required();
  simulator->add_option("--out", analyze->out)->required();
  simulator->add_flag("--drawn", analyze->drawn, "the drawn analysis case instead of the rubric's");
  simulator->add_option("--hidden-seeds", analyze->seeds, "the hidden inputs' seeds: photo scene extremes rows")
      ->expected(4);
  simulator->group("");
  commands->push_back({simulator, [analyze] {
                         return analyzeInChild(analyze->source, analyze->rubric, analyze->task, analyze->out,
                                               analyze->drawn, seedsOf(analyze->seeds));
                       }});
  // A submission's archive, unpacked in a sandbox for grade and check (intake/archive_submission.h).
  auto unpack = std::make_shared<std::pair<std::string, std::string>>();
  CLI::App* unpacker = app.add_subcommand("unpack", "(internal) unpack a submission's archive into a folder");
  unpacker->add_option("archive", unpack->first)->required();
  unpacker->add_option("dest", unpack->second)->required();
  unpacker->group("");
  commands->push_back({unpacker, [unpack] {
                         UnpackResult r = unpackArchive(unpack->first, unpack->second);
                         // Kernel files and includes first, then the first others, then how many more: a
                         // flood of left-out names cannot push the one that matters off the listing.
                         std::stable_partition(r.leftOut.begin(), r.leftOut.end(), [](const std::string& line) {
                           const size_t colon = line.find(": ");
                           const std::string name = line.substr(0, colon);
                           return name.size() > 3 && (name.compare(name.size() - 3, 3, ".cl") == 0 ||
                                                      name.compare(name.size() - 2, 2, ".h") == 0);
                         });
                         const size_t shown = std::min<size_t>(r.leftOut.size(), 200);
                         for (size_t i = 0; i < shown; ++i) std::cout << "left out: " << r.leftOut[i] << "\n";
                         // And those past the archive's first entries, only counted (util/archive.h).
                         if (const size_t more = r.leftOut.size() - shown + size_t(r.moreLeftOut); more > 0)
                           std::cout << "left out more: " << more << "\n";
                         if (!r.ok) {
                           std::cerr << "clgrade unpack: " << r.error << "\n";
                           return 1;
                         }
                         std::cout << "files: " << r.files << "\n";
                         return 0;
                       }});
  // The submission's profiler session, in the keeper's sandbox: the counters and the atomics counts.
  auto session = std::make_shared<SessionArgs>();
  CLI::App* profiler = app.add_subcommand("hwsession", "(internal) a submission's ncu counters and atomics counts");
  addSessionOptions(profiler, session.get());
  profiler->group("");
  commands->push_back({profiler, [session] { return profilerSessionInChild(sessionArgsOf(*session)); }});
  auto hw = std::make_shared<ChildArgs>();
  auto prefixed = std::make_shared<bool>(false);
  auto hwSeeds = std::make_shared<std::vector<uint64_t>>();
  auto hwAtomics = std::make_shared<std::vector<std::string>>();
  auto countersCsv = std::make_shared<std::string>();
  auto accessesCsv = std::make_shared<std::string>();
  auto counted = std::make_shared<std::vector<std::string>>();
  auto copiesOnly = std::make_shared<bool>(false);
  CLI::App* hwcount =
      addChild(app, "hwcount", "(internal) replay tasks' analysis cases through CUDA, where they are counted", hw.get());
  hwcount->add_option("--counters-csv", *countersCsv, "count the hardware in this process (CUPTI), write the counts here");
  hwcount->add_option("--count-accesses", *accessesCsv,
                      "count shared accesses and global loads by the PTX counters, write the counts here");
  hwcount->add_option("--count", *counted, "with --count-accesses: task, or task:kernel, to count (default: all)");
  hwcount->add_flag("--copies-only", *copiesOnly,
                    "no profiler watches: only the counted copies of launches run through CUDA");
  hwcount->add_flag("--prefixed", *prefixed, "name kernels <task>__<kernel> even for one task");
  hwcount->add_option("--hidden-seeds", *hwSeeds, "also the drawn analysis cases, on these hidden inputs")->expected(4);
  hwcount->add_option("--atomics", *hwAtomics, "task:kernel whose atomics are counted per work-item");
  commands->push_back({hwcount, [hw, prefixed, hwSeeds, hwAtomics, countersCsv, accessesCsv, counted,
                                 copiesOnly] {
                         Rubric rubric;
                         if (!loadRubricOrComplain(hw->rubric, &rubric)) return int(kUsage);
                         HwcountCounting counting;
                         if (!accessesCsv->empty()) {
                           counting = {HwcountCounting::How::Ptx, *accessesCsv, *counted};
                         } else if (!countersCsv->empty()) {
                           counting = {HwcountCounting::How::Cupti, *countersCsv, {}};
                         }
                         counting.copiesOnly = *copiesOnly;
                         return hwcountInChild(hw->kernelsDir, rubric, hw->tasks, hw->out, *prefixed, seedsOf(*hwSeeds),
                                               *hwAtomics, counting);
                       }});
}

}  // namespace clgrade::cli
