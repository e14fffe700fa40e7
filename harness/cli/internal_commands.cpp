// The hidden child commands grade and check start: `run-task` (a task's runner in the sandbox: it
// runs the kernels and records what the device hands back), `analyze` (a task's analysis case on
// Oclgrind), `hwcount` (the same case replayed through CUDA under ncu), `hwsession` (a submission's
// counters and atomics runs under ncu, in the keeper's sandbox), `unpack` (a submission's archive,
// in a sandbox) and `time-trusted` (a batch's reference timings, no student code). People never call them.
#include <sys/resource.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <vector>

#include "cli/command.h"
#include "grading/analysis.h"
#include "grading/grader.h"
#include "grading/hardware.h"
#include "grading/hardware_session.h"
#include "grading/performance.h"
#include "grading/runner_request.h"
#include "util/archive.h"
#include "util/files.h"
#include "util/install_layout.h"
#include "util/progress.h"
#include "util/subprocess.h"
#include "util/tape.h"
#include "util/timing_lock.h"

namespace clgrade::cli {
namespace {

struct ChildArgs {
  std::string kernelsDir, rubric = defaultRubric(), out;
  std::vector<std::string> tasks;  ///< one (analyze), one or more (hwcount: one profiler session)
};

CLI::App* addChild(CLI::App& app, const char* name, const char* help, ChildArgs* args, bool severalTasks) {
  CLI::App* sub = app.add_subcommand(name, help);
  sub->add_option("kernels-dir", args->kernelsDir)->required();
  sub->add_option("--rubric", args->rubric);
  sub->add_option("--task", args->tasks, severalTasks ? "repeatable" : "")->required();
  sub->add_option("--out", args->out)->required();
  sub->group("");  // hidden from --help
  return sub;
}

/// A task's runner: the one task of the request graded on the device with every device step
/// recorded; its verdicts are thrown away (the keeper replays the record and judges). Nothing goes
/// to stdout, which holds what the kernels print.
int runTask(const std::string& requestPath) {
  std::string text, err;
  RunnerRequest request;
  if (!readFile(requestPath, &text, &err, size_t(1) << 20) || !readRunnerRequest(text, &request, &err)) {
    std::cerr << "clgrade run-task: " << requestPath << ": " << err << "\n";
    return kUsage;
  }
  Rubric rubric;
  DeviceEntry device;
  if (const int exit = loadRubricAndDevice(request.rubricPath, {request.task}, request.device, &rubric, &device);
      exit != kOk)
    return exit;
  // On a GPU the submission's profiler session (the keeper's, at the default priority) is the longest
  // path of a grade; the runners' CPU work (inputs made on every core, layouts) comes after it. The
  // threads this one starts inherit the priority.
  if (device.info.type == "gpu") setpriority(PRIO_PROCESS, 0, 5);
  progress::setFile(request.progressPath);
  GradeOptions options;
  options.kernelsDir = request.kernelsDir;
  options.outDir = request.outDir;
  options.visibleOnly = request.visibleOnly;
  options.hiddenSeed = request.hiddenSeed;
  options.toolsDir = toolsFolder();
  options.onlyTasks = {request.task};
  options.timingLock = request.timingLock;
  options.hardwareElsewhere = request.hardwareElsewhere;
  options.store = readOnlyInputs(request.inputStore);
  if (!request.trustedTimings.empty()) {
    auto trusted = std::make_shared<TrustedTimings>();
    if (!readTrustedTimings(request.trustedTimings, trusted.get(), &err)) {
      std::cerr << "clgrade run-task: " << err << "\n";
      return kUsage;
    }
    options.trustedTimings = trusted;
  }
  options.discardEvidence = true;
  options.stopped = request.stopped;
  const std::shared_ptr<Tape> tape = Tape::recorder(request.recordPath, &err);
  if (!tape) {
    std::cerr << "clgrade run-task: " << err << "\n";
    return kOutput;
  }
  gradeSubmission(Runtime(device, tape), rubric, options);
  progress::note(progress::Step::Done, "");
  tape->close();
  return kOk;
}

/// The trusted kernels of a batch timed once (`clgrade time-trusted`): the reference kernels, the
/// naive ones and the copy roofline of each task's performance case, into a JSON file the batch
/// hands its grades. No student code runs here.
struct TrustedArgs {
  std::string rubric = defaultRubric(), device = "auto", out, timingLock, storeRoot;
  std::vector<std::string> tasks;
  uint64_t seed = kGoldenHiddenSeed;
};

int timeTrusted(const TrustedArgs& a) {
  Rubric rubric;
  DeviceEntry device;
  if (const int exit = loadRubricAndDevice(a.rubric, a.tasks, a.device, &rubric, &device); exit != kOk) return exit;
  Runtime rt(device);
  rt.timingLock = a.timingLock;  // each set of timed launches takes its turn with the grades'
  // No ncu session beside these figures: they serve many grades, so one session's replays must not
  // slow them all (the grades' own timings run beside the sessions).
  const TimingLock quiet(profilerLockFor(a.timingLock));
  InputCache inputs(a.seed);     // the grades' inputs: the histogram's speed depends on the image
  std::string why;
  inputs.useStore(openCourseStore(a.storeRoot, &why));  // trusted: it may write the store
  if (!why.empty()) std::cerr << "clgrade time-trusted: " << why << "\n";
  const TrustedTimings timings = timeTrustedKernels(rt, rubric, a.tasks, "", inputs);
  std::string err;
  if (!writeFileAtomically(a.out, trustedTimingsJson(timings), &err)) {
    std::cerr << "clgrade time-trusted: " << err << "\n";
    return kOutput;
  }
  return kOk;
}

}  // namespace

void addInternalCommands(CLI::App& app, Commands* commands) {
  auto trusted = std::make_shared<TrustedArgs>();
  CLI::App* timer = app.add_subcommand("time-trusted", "(internal) a batch's reference, naive and copy timings");
  timer->add_option("--rubric", trusted->rubric);
  timer->add_option("--device", trusted->device);
  timer->add_option("--task", trusted->tasks);
  timer->add_option("--out", trusted->out)->required();
  timer->add_option("--timing-lock", trusted->timingLock);
  timer->add_option("--seed", trusted->seed);
  timer->add_option("--cache-dir", trusted->storeRoot);
  timer->group("");
  commands->push_back({timer, [trusted] { return timeTrusted(*trusted); }});
  auto request = std::make_shared<std::string>();
  CLI::App* runner = app.add_subcommand("run-task", "(internal) a task's runner: run its kernels, record the device");
  runner->add_option("request", *request)->required();
  runner->group("");
  commands->push_back({runner, [request] { return runTask(*request); }});
  auto analyze = std::make_shared<ChildArgs>();
  commands->push_back({addChild(app, "analyze", "(internal) run a task's analysis case on Oclgrind", analyze.get(), false),
                       [analyze] {
                         Rubric rubric;
                         if (!loadRubricOrComplain(analyze->rubric, &rubric)) return int(kUsage);
                         return analyzeInChild(analyze->kernelsDir, rubric, analyze->tasks.front(), analyze->out);
                       }});
  // A submission's archive, unpacked in a sandbox for grade and check (batch/archive_submission.h).
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
                         if (r.leftOut.size() > shown) std::cout << "left out more: " << r.leftOut.size() - shown << "\n";
                         if (!r.ok) {
                           std::cerr << "clgrade unpack: " << r.error << "\n";
                           return 1;
                         }
                         std::cout << "files: " << r.files << "\n";
                         return 0;
                       }});
  // The submission's profiler session, in the keeper's sandbox: the counters and the atomics runs.
  struct SessionArgs {
    std::string ncu, clgrade, kernelsDir, rubric, out, csv;
    std::vector<std::string> tasks, atomics;
    double timeout = 300;
  };
  auto session = std::make_shared<SessionArgs>();
  CLI::App* profiler = app.add_subcommand("hwsession", "(internal) a submission's ncu counters and atomics runs");
  profiler->add_option("kernels-dir", session->kernelsDir)->required();
  profiler->add_option("--ncu", session->ncu)->required();
  profiler->add_option("--clgrade", session->clgrade);
  profiler->add_option("--rubric", session->rubric)->required();
  profiler->add_option("--out", session->out)->required();
  profiler->add_option("--log-file", session->csv)->required();
  profiler->add_option("--task", session->tasks)->required();
  profiler->add_option("--atomics", session->atomics);
  profiler->add_option("--timeout", session->timeout);
  profiler->group("");
  commands->push_back({profiler, [session] {
                         const std::string self = session->clgrade.empty() ? toolsFolder() + "/clgrade" : session->clgrade;
                         return profilerSessionInChild(session->ncu, self, session->kernelsDir, session->rubric,
                                                       session->tasks, session->atomics, session->out, session->csv,
                                                       session->timeout);
                       }});
  auto hw = std::make_shared<ChildArgs>();
  auto prefixed = std::make_shared<bool>(false);
  CLI::App* hwcount = addChild(app, "hwcount", "(internal) replay tasks' analysis cases through CUDA for ncu", hw.get(), true);
  hwcount->add_flag("--prefixed", *prefixed, "name kernels <task>__<kernel> even for one task");
  commands->push_back({hwcount, [hw, prefixed] {
                         Rubric rubric;
                         if (!loadRubricOrComplain(hw->rubric, &rubric)) return int(kUsage);
                         return hwcountInChild(hw->kernelsDir, rubric, hw->tasks, hw->out, *prefixed);
                       }});
}

}  // namespace clgrade::cli
