// The keeper's decisions with scripted runners (CMS's FakeSandbox): no process is started and no
// device opened. FakeRunner plays each launch from a script (how the runner ended, what it left in
// its scratch folder); FakeJudge stands for the replay where the test is about the keeper's
// bookkeeping, and the real replayTape where it is about what a tape is worth.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "keeper/submission_keeper.h"
#include "protocol/channels.h"
#include "protocol/runner_request.h"
#include "tasks/task.h"
#include "util/files.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

using Script = std::function<RunnerEnded(const RunnerLaunch&)>;

/// Plays each task's launches from its scripts, in order; records every launch.
ProcessResult exited(int code);

class FakeRunner : public RunnerLauncher {
 public:
  std::map<std::string, std::vector<Script>> scripts;
  RunnerEnded run(const RunnerLaunch& launch) override {
    Script script;
    if (launch.request.probe) {  // the keeper's probe of the sandbox, before any task's runner
      {
        const std::lock_guard<std::mutex> hold(mutex_);
        probes.push_back(launch);
        order.push_back("probe");
      }
      return probe ? probe(launch) : RunnerEnded{exited(0), {}};
    }
    {
      const std::lock_guard<std::mutex> hold(mutex_);
      launches.push_back(launch);
      order.push_back(launch.request.task);
      const size_t n = launchesOf(launch.request.task) - 1;
      std::vector<Script>& mine = scripts[launch.request.task];
      EXPECT_LT(n, mine.size()) << "no script for launch " << n + 1 << " of " << launch.request.task;
      if (n >= mine.size()) return {};
      script = mine[n];
    }
    makeDirectories(launch.scratch, nullptr);
    if (launch.starting) launch.starting();
    return script(launch);
  }
  void runTogether(const std::vector<RunnerLaunch>& ls, const std::string& scratch, const std::string& requests,
                   const PartEnded& partEnded, const SessionLaunch* session) override {
    {
      const std::lock_guard<std::mutex> hold(mutex_);
      if (session) sessions.push_back(*session);
      std::vector<std::string> tasks;
      for (const RunnerLaunch& l : ls) tasks.push_back(l.request.task);
      together.push_back(tasks);
      order.push_back("together");
    }
    if (!parts) return RunnerLauncher::runTogether(ls, scratch, requests, partEnded, session);
    if (session && serve) serve(*session);
    std::string alone;  // as the real one: from the first part that did not end, every one runs alone
    for (size_t i = 0; i < ls.size(); ++i) {
      makeDirectories(ls[i].scratch, nullptr);
      std::optional<RunnerEnded> ended = alone.empty() ? parts(ls[i]) : std::nullopt;
      if (!ended && alone.empty()) alone = "task " + ls[i].request.task + "'s part did not end well";
      partEnded(i, PartEnd{std::move(ended), ended ? "" : alone});
    }
  }
  std::vector<SessionLaunch> sessions;  ///< the counters sessions the runners of several tasks were given
  std::function<void(const SessionLaunch&)> serve;  ///< runs such a session after the parts (none: ignores it)
  /// How each task's part of a runner of several tasks ends (none: the launcher runs none together).
  std::function<std::optional<RunnerEnded>(const RunnerLaunch&)> parts;
  std::vector<std::vector<std::string>> together;  ///< the tasks of each runner of several
  TrustedChildResult timeTrusted(const TrustedTimingRequest& request, const std::string&) override {
    if (whileTiming) whileTiming();
    const std::lock_guard<std::mutex> hold(mutex_);
    trustedRequests.push_back(request);
    order.push_back("trusted");
    if (!giveFigures) return {nullptr, "no trusted kernels in this test"};
    auto timings = std::make_shared<TrustedTimings>();
    timings->takenAt = "2026-11-26T12:00:00Z";
    for (const std::string& task : request.tasks) {
      PerformanceReport& figures = timings->byTask[task];
      figures.caseId = "timed";
      figures.measured = true;
      figures.copy.kernel = "copy";
      KernelFigure reference;
      reference.kernel = "reference of " + task;
      figures.reference = {reference};
    }
    return {timings, ""};
  }
  bool giveFigures = false;
  std::function<void()> whileTiming;  ///< called as the trusted kernels are timed, before they are recorded
  std::vector<TrustedTimingRequest> trustedRequests;
  size_t launchesOf(const std::string& task) const {
    size_t n = 0;
    for (const RunnerLaunch& l : launches) n += l.request.task == task;
    return n;
  }
  std::vector<RunnerLaunch> launches;
  std::vector<RunnerLaunch> probes;
  std::vector<std::string> order;  ///< "probe" and the tasks, as their runners started
  Script probe;  ///< how the probe ends (none: well)

 private:
  std::mutex mutex_;
};

ProcessResult exited(int code) {
  ProcessResult p;
  p.started = true;
  p.exitCode = code;
  p.seconds = 1;
  return p;
}

/// A runner that writes `tape` as its tape, waits `delayMs`, and exits 0.
Script endsWell(std::string tape = "tape", int delayMs = 0) {
  return [tape, delayMs](const RunnerLaunch& l) {
    writeFileAtomically(l.request.recordPath, tape, nullptr);
    std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
    return RunnerEnded{exited(0), {}};
  };
}

/// A runner stopped by the time limit while `kernel` ran in case `caseId`, having printed `printed`.
Script timesOutIn(const std::string& kernel, const std::string& caseId, std::string printed = "") {
  return [=](const RunnerLaunch& l) {
    writeFileAtomically(l.request.recordPath, "half a tape", nullptr);
    writeFileAtomically(l.stderrPath, "clgrade: building ...\n", nullptr);
    RunnerEnded e;
    e.process.started = true;
    e.process.timedOut = true;
    e.process.signal = SIGKILL;
    e.process.seconds = 30;
    if (!printed.empty()) {
      writeFileAtomically(l.stdoutPath, printed, nullptr);
      e.process.stdoutBytes = printed.size();
    }
    e.at.valid = true;
    e.at.phase = progress::Step::Case;
    e.at.step = progress::Step::Kernel;
    e.at.task = l.request.task;
    e.at.caseId = caseId;
    e.at.what = kernel;
    return e;
  };
}

/// A runner that crashed while building.
Script crashesBuilding() {
  return [](const RunnerLaunch& l) {
    writeFileAtomically(l.request.recordPath, "a tape cut short", nullptr);
    RunnerEnded e;
    e.process.started = true;
    e.process.signal = SIGSEGV;
    e.at.valid = true;
    e.at.phase = progress::Step::Case;
    e.at.step = progress::Step::Build;
    e.at.caseId = "course";
    e.at.what = "-DX=1";
    return e;
  };
}

/// Every criterion worth points is an error (a deduction's checks did not fail: it takes nothing).
void expectErrors(const TaskReport& t) {
  int errors = 0;
  for (const CriterionResult& c : t.criteria)
    if (c.max > 0) {
      EXPECT_EQ(c.status, Status::Error) << c.id;
      ++errors;
    }
  EXPECT_GT(errors, 0);
}

/// What the fake judge saw of one replay.
struct Judged {
  std::string task, tape;
  StopInfo stopped;
  bool followed = false;  ///< it was given a `writing` function (it followed a running runner)
};

/// Stands for the replay: a task report with one passing criterion worth the tape's length, and an
/// evidence file in the folder it was given; a tape "broken" is a problem.
class FakeJudge {
 public:
  TapeJudge judge() {
    return [this](const GradeOptions& o, const std::string& tape, std::function<bool()> writing) {
      if (writing)
        while (writing()) std::this_thread::sleep_for(std::chrono::milliseconds(1));  // follows to the end
      std::string bytes;
      readFile(tape, &bytes, nullptr);
      {
        const std::lock_guard<std::mutex> hold(mutex_);
        judged.push_back({o.onlyTasks.front(), bytes, o.stopped, bool(writing)});
      }
      ReplayResult r;
      if (bytes == "broken") {
        r.problem = "the tape does not fit";
        return r;
      }
      const std::string evidence = o.outDir + "/evidence/" + o.onlyTasks.front();
      makeDirectories(evidence, nullptr);
      writeFileAtomically(evidence + "/replayed.txt", bytes, nullptr);
      TaskReport t;
      t.id = o.onlyTasks.front();
      CriterionResult c;
      c.id = "all";
      c.status = Status::Passed;
      c.points = c.max = 1;
      t.criteria.push_back(c);
      t.sumPoints();
      t.max = 1;
      r.graded.tasks.push_back(t);
      r.graded.device.name = "judged with " + t.id;  // whose header heads the merged report
      return r;
    };
  }
  std::vector<Judged> judged;
  /// Whether a replay of `task` has been judged (thread-safe).
  bool judgedTask(const std::string& task) {
    const std::lock_guard<std::mutex> hold(mutex_);
    return std::any_of(judged.begin(), judged.end(), [&](const Judged& j) { return j.task == task; });
  }

 private:
  std::mutex mutex_;
};

class SubmissionKeeperTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root = fs::temp_directory_path() / ("keeper-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    kernels = (root / "kernels").string();
    out = (root / "out").string();
    fs::create_directories(kernels);
    for (const Task* task : allTasks())
      fs::copy_file(fs::path(CLGRADE_SOURCE_DIR) / "reference/kernels" / task->info().file,
                    fs::path(kernels) / task->info().file);
    std::vector<std::string> problems;
    ASSERT_TRUE(loadRubric(std::string(CLGRADE_SOURCE_DIR) + "/rubrics/four_tasks.xml", &rubric, &problems));
    device.info.name = "fake device";
    device.info.type = "cpu";
    settings.clgrade = "/nonexistent/clgrade";
    settings.sandbox = false;  // nothing is started: the fake runner stands for the sandbox
    settings.taskJobs = 4;
    settings.visibleOnly = true;
    settings.taskTimeoutSeconds = 30;
  }
  void TearDown() override { fs::remove_all(root); }

  SubmissionResult grade(const std::vector<std::string>& only = {}, const std::string& problem = "") {
    SubmissionKeeper keeper(rubric, device, kernels, out, settings, problem);
    return keeper.grade(only, runner, judge.judge());
  }
  const TaskReport& task(const SubmissionResult& r, const std::string& id) {
    for (const TaskReport& t : r.report.tasks)
      if (t.id == id) return t;
    ADD_FAILURE() << "no task " << id;
    return r.report.tasks.front();
  }

  fs::path root;
  std::string kernels, out;
  Rubric rubric;
  DeviceEntry device;
  KeeperSettings settings;
  FakeRunner runner;
  FakeJudge judge;
};

TEST_F(SubmissionKeeperTest, RunnersEndingInAnyOrderAreMergedInRubricOrder) {
  // The last task's runner ends first, the first task's last.
  for (size_t i = 0; i < rubric.tasks.size(); ++i)
    runner.scripts[rubric.tasks[i].id] = {endsWell(rubric.tasks[i].id, int(60 * (rubric.tasks.size() - i)))};
  const SubmissionResult r = grade();
  ASSERT_EQ(r.report.tasks.size(), rubric.tasks.size());
  for (size_t i = 0; i < rubric.tasks.size(); ++i) {
    EXPECT_EQ(r.report.tasks[i].id, rubric.tasks[i].id);
    EXPECT_EQ(r.runs[i].task, rubric.tasks[i].id);
    EXPECT_EQ(r.runs[i].outcome, "ok");
    EXPECT_EQ(r.report.tasks[i].process.outcome, "ok");
    EXPECT_TRUE(r.report.tasks[i].process.recorded);
  }
  EXPECT_EQ(r.report.total, double(rubric.tasks.size()));
  EXPECT_EQ(r.report.device.name, "judged with " + rubric.tasks.front().id)
      << "the first task of the rubric heads the report, not the first runner to end";
  ASSERT_EQ(judge.judged.size(), rubric.tasks.size());
  for (const Judged& j : judge.judged) {
    EXPECT_EQ(j.tape, j.task) << "each replay reads its own runner's tape";
    EXPECT_TRUE(j.followed) << "a first runner's tape is followed while it is written";
  }
  // The followed replays' evidence reaches the report folder once their runners ended well.
  EXPECT_TRUE(fs::exists(fs::path(out) / "evidence/conv3x3/replayed.txt"));
  EXPECT_FALSE(fs::exists(fs::path(out) / ".clgrade")) << "the control folder is removed";
}

TEST_F(SubmissionKeeperTest, AStopInOneKernelIsRerunWithoutThatKernel) {
  const TaskInfo& info = findTask("separable")->info();
  ASSERT_FALSE(info.kernelChecks.empty());
  const std::string kernel = info.kernelChecks.begin()->first;
  runner.scripts["separable"] = {timesOutIn(kernel, "course", "printed before the stop"), endsWell("second")};
  const SubmissionResult r = grade({"separable"});
  ASSERT_EQ(runner.launchesOf("separable"), 2u);
  const RunnerRequest& second = runner.launches.back().request;
  ASSERT_EQ(second.stopped.kernels.size(), 1u);
  EXPECT_EQ(second.stopped.kernels.front().kernel, kernel);
  EXPECT_EQ(second.stopped.kernels.front().caseId, "course");
  EXPECT_TRUE(runner.launches.front().request.stopped.empty());

  const TaskReport& t = task(r, "separable");
  EXPECT_EQ(r.runs.front().outcome, "ok after a rerun");
  EXPECT_EQ(t.process.outcome, "ok after a rerun");
  EXPECT_TRUE(t.rerun.ran);
  EXPECT_EQ(t.rerun.firstOutcome, "timed out");
  EXPECT_NE(t.rerun.firstMessage.find(kernel), std::string::npos) << t.rerun.firstMessage;
  EXPECT_EQ(t.rerun.leftOut, "kernel " + kernel);
  EXPECT_EQ(t.points, 1) << "the rerun's replay decides the task";
  // Only the rerun's tape is judged for the report; the stopped runner's followed replay is thrown away.
  ASSERT_EQ(judge.judged.size(), 2u);
  const Judged& kept = judge.judged[0].followed ? judge.judged[1] : judge.judged[0];
  EXPECT_FALSE(kept.followed) << "one replay followed the first runner, the other judged the rerun's tape";
  EXPECT_EQ(kept.tape, "second");
  ASSERT_EQ(kept.stopped.kernels.size(), 1u);
  // The stopped runner's output is kept under its own name and handed to the rerun as evidence.
  EXPECT_TRUE(fs::exists(fs::path(out) / "evidence/separable/kernel_output_stopped.txt"));
  bool printedIsEvidence = false;
  for (const Evidence& e : second.stopped.evidence)
    printedIsEvidence = printedIsEvidence || e.path == "evidence/separable/kernel_output_stopped.txt";
  EXPECT_TRUE(printedIsEvidence);
  std::string replayed;
  ASSERT_TRUE(readFile((fs::path(out) / "evidence/separable/replayed.txt").string(), &replayed, nullptr));
  EXPECT_EQ(replayed, "second") << "the evidence is the rerun's, never the stopped runner's";
}

TEST_F(SubmissionKeeperTest, AStoppedRunnersStagedEvidenceIsDiscarded) {
  runner.scripts["conv3x3"] = {crashesBuilding()};
  const SubmissionResult r = grade({"conv3x3"});
  EXPECT_EQ(runner.launchesOf("conv3x3"), 1u) << "a crash in a build is not rerun";
  ASSERT_EQ(judge.judged.size(), 1u) << "the replay followed the runner";
  EXPECT_FALSE(fs::exists(fs::path(out) / "evidence/conv3x3/replayed.txt"));
  const TaskReport& t = task(r, "conv3x3");
  EXPECT_EQ(t.process.outcome, "signal SIGSEGV");
  EXPECT_EQ(t.points, 0);
  ASSERT_FALSE(t.criteria.empty());
  EXPECT_EQ(t.criteria.front().status, Status::Error);
  EXPECT_NE(r.runs.front().message.find("compiler crashed"), std::string::npos) << r.runs.front().message;
}

TEST_F(SubmissionKeeperTest, ATapeThatCannotBeGradedIsAnError) {
  runner.scripts["histogram"] = {endsWell("broken")};
  const SubmissionResult r = grade({"histogram"});
  const TaskReport& t = task(r, "histogram");
  EXPECT_EQ(t.process.outcome, "no record");
  EXPECT_EQ(r.runs.front().outcome, "no record");
  EXPECT_FALSE(r.runs.front().ok);
  EXPECT_NE(r.runs.front().message.find("cannot be graded: the tape does not fit"), std::string::npos);
  EXPECT_EQ(t.points, 0);
  expectErrors(t);
  EXPECT_FALSE(fs::exists(fs::path(out) / "evidence/histogram/replayed.txt"));
}

/// The real replay: garbage on the tape, or no tape at all, is an error whatever the runner's exit.
class RealReplayTest : public SubmissionKeeperTest {
 protected:
  SubmissionResult gradeReally(const std::string& only) {
    SubmissionKeeper keeper(rubric, device, kernels, out, settings);
    const TapeJudge real = [this](const GradeOptions& o, const std::string& tape, std::function<bool()> writing) {
      return replayTape(rubric, device, o, tape, std::move(writing));
    };
    return keeper.grade({only}, runner, real);
  }
};

TEST_F(RealReplayTest, ABrokenTapeIsAnError) {
  runner.scripts["conv3x3"] = {endsWell(std::string("\x07garbage that is no tape at all", 30))};
  const SubmissionResult r = gradeReally("conv3x3");
  EXPECT_EQ(r.runs.front().outcome, "no record");
  EXPECT_NE(r.runs.front().message.find("cannot be graded"), std::string::npos) << r.runs.front().message;
  expectErrors(task(r, "conv3x3"));
}

TEST_F(RealReplayTest, ARunnerThatNeverWritesATapeIsAnError) {
  runner.scripts["conv3x3"] = {[](const RunnerLaunch&) { return RunnerEnded{exited(0), {}}; }};
  const SubmissionResult r = gradeReally("conv3x3");
  EXPECT_EQ(r.runs.front().outcome, "no record");
  EXPECT_EQ(task(r, "conv3x3").points, 0);
  expectErrors(task(r, "conv3x3"));
}

TEST_F(SubmissionKeeperTest, ARunnerThatCannotStartIsAnErrorWithTheReason) {
  runner.scripts["bilateral"] = {[](const RunnerLaunch&) {
    RunnerEnded e;
    e.process.error = "bwrap: cannot make the sandbox";
    return e;
  }};
  const SubmissionResult r = grade({"bilateral"});
  EXPECT_EQ(r.runs.front().outcome, "not started");
  EXPECT_NE(r.runs.front().message.find("bwrap: cannot make the sandbox"), std::string::npos);
  EXPECT_EQ(task(r, "bilateral").criteria.front().status, Status::Error);
  // The machine's fault, not the student's: the report says so, and nothing of it is a grade.
  EXPECT_NE(task(r, "bilateral").machineFault.find("bwrap: cannot make the sandbox"), std::string::npos);
  EXPECT_EQ(r.report.machineFault().rfind("bilateral: ", 0), 0u) << r.report.machineFault();
}

// Issue 27: with OCL_ICD_VENDORS naming a folder the sandbox did not hold, every runner found no
// device (exit 3) and every task became an error worth 0. Before the task's code is built the runner's
// exit is the machine's; after it, the same code is the kernel's doing (its native code can exit too).
TEST_F(SubmissionKeeperTest, ARunnerWithoutTheDeviceIsAMachineFaultOnlyBeforeTheTasksCodeRan) {
  runner.scripts["conv3x3"] = {[](const RunnerLaunch&) { return RunnerEnded{exited(kRunnerNoDevice), {}}; }};
  runner.scripts["histogram"] = {[](const RunnerLaunch&) {
    progress::Position building;
    building.valid = true;
    building.phase = progress::Step::Case;
    building.step = progress::Step::Build;
    return RunnerEnded{exited(kRunnerNoDevice), building};
  }};
  const SubmissionResult r = grade({"conv3x3", "histogram"});
  EXPECT_NE(task(r, "conv3x3").machineFault.find("did not find the grade's OpenCL device"), std::string::npos)
      << task(r, "conv3x3").machineFault;
  EXPECT_TRUE(task(r, "histogram").machineFault.empty()) << "exit 3 after a build is the kernel's";
  EXPECT_EQ(r.report.machineFault().rfind("conv3x3: ", 0), 0u);
}

// Issue 27, item 3: before anything is graded, one runner in the tasks' sandbox opens the device and
// every path and runs nothing; every task's runner must then see the keeper's device.
TEST_F(SubmissionKeeperTest, TheSandboxIsProbedOnceBeforeAnyRunnerAndEveryRunnerIsToldTheDevice) {
  runner.scripts["conv3x3"] = {endsWell()};
  runner.scripts["histogram"] = {endsWell()};
  grade({"conv3x3", "histogram"});
  ASSERT_EQ(runner.probes.size(), 1u);
  EXPECT_EQ(runner.order.front(), "probe");
  const RunnerRequest& probe = runner.probes.front().request;
  EXPECT_TRUE(probe.probe);
  EXPECT_EQ(probe.expectedDevice, deviceIdentity(device.info));
  EXPECT_TRUE(probe.source.text.empty()) << "the probe builds no kernel";
  ASSERT_EQ(runner.launches.size(), 2u);
  for (const RunnerLaunch& l : runner.launches) {
    EXPECT_FALSE(l.request.probe);
    EXPECT_EQ(l.request.expectedDevice, deviceIdentity(device.info));
  }
  // A batch probed before its first submission: its grades do not probe again.
  runner.scripts["conv3x3"].push_back(endsWell());
  settings.sandboxProbed = true;
  grade({"conv3x3"});
  EXPECT_EQ(runner.probes.size(), 1u);
}

// Before: a sandbox without the keeper's device (ICD files it did not hold) made every task an error
// worth 0. Now the probe finds it first: no runner starts, no task is graded, the machine is named.
TEST_F(SubmissionKeeperTest, AProbeThatCannotSeeTheDeviceGradesNothingAndBlamesTheMachine) {
  runner.probe = [](const RunnerLaunch& l) {
    writeFileAtomically(l.stderrPath, "clgrade: the OpenCL device in this sandbox is PoCL / cpu, not the grade's\n",
                        nullptr);
    return RunnerEnded{exited(kRunnerNoDevice), {}};
  };
  const SubmissionResult r = grade();
  EXPECT_TRUE(runner.launches.empty());
  ASSERT_EQ(r.report.tasks.size(), rubric.tasks.size());
  for (const TaskReport& t : r.report.tasks) {
    EXPECT_NE(t.machineFault.find("did not find the grade's OpenCL device"), std::string::npos) << t.machineFault;
    EXPECT_NE(t.machineFault.find("in this sandbox is PoCL / cpu"), std::string::npos) << t.machineFault;
    expectErrors(t);
  }
  EXPECT_FALSE(r.report.machineFault().empty());
}

TEST_F(SubmissionKeeperTest, ARefusedSubmissionStartsNoRunner) {
  const SubmissionResult r = grade({}, "kernels/ is a link to a folder outside the submission");
  EXPECT_TRUE(runner.launches.empty());
  EXPECT_TRUE(runner.probes.empty());
  EXPECT_TRUE(judge.judged.empty());
  ASSERT_EQ(r.report.tasks.size(), rubric.tasks.size());
  for (const TaskRun& run : r.runs) EXPECT_EQ(run.outcome, "refused");
  for (const TaskReport& t : r.report.tasks) {
    EXPECT_EQ(t.points, 0);
    EXPECT_EQ(t.criteria.front().status, Status::Failed) << "the submission's doing, not the machine's";
  }
}

TEST_F(SubmissionKeeperTest, AFileThePolicyRefusesStartsNoRunnerForItsTask) {
  writeFileAtomically(kernels + "/histogram.cl", "#include \"/etc/passwd\"\n", nullptr);
  runner.scripts["conv3x3"] = {endsWell()};
  const SubmissionResult r = grade({"conv3x3", "histogram"});
  EXPECT_EQ(runner.launchesOf("histogram"), 0u);
  EXPECT_EQ(runner.launchesOf("conv3x3"), 1u);
  EXPECT_EQ(task(r, "histogram").process.outcome, "refused");
  EXPECT_EQ(task(r, "histogram").criteria.front().status, Status::Failed);
  EXPECT_EQ(task(r, "conv3x3").points, 1);
}

// Spec 5c: the reference and naive kernels are timed by a process of the keeper's that runs no
// student code, for the tasks whose runner will time a performance case and whose figures the batch
// did not bring (every such task of a lone grade); the replays wait for those figures.
TEST_F(SubmissionKeeperTest, TheReferenceIsTimedBesideTheRunnersByTheKeeperAndTheReplaysWaitForIt) {
  settings.visibleOnly = false;
  settings.hiddenSeed = 77;
  fs::remove(fs::path(kernels) / findTask("histogram")->info().file);  // nothing of it is timed
  auto batch = std::make_shared<TrustedTimings>();
  batch->byTask["conv3x3"].caseId = "course_edge";  // the batch brought these
  settings.trustedTimings = [batch] { return ServedFigures{batch, nullptr}; };
  for (const TaskRubric& t : rubric.tasks) runner.scripts[t.id] = {endsWell(t.id)};
  std::mutex mutex;
  std::vector<std::string> problems;
  const TapeJudge base = judge.judge();
  const TapeJudge waiting = [&](const GradeOptions& o, const std::string& tape, std::function<bool()> writing) {
    std::string problem = "not asked";
    if (o.trustedBeside) {
      EXPECT_EQ(o.trustedBeside(&problem), nullptr);
    }
    const std::lock_guard<std::mutex> hold(mutex);
    problems.push_back(problem);
    return base(o, tape, std::move(writing));
  };
  SubmissionKeeper keeper(rubric, device, kernels, out, settings);
  keeper.grade({}, runner, waiting);
  ASSERT_EQ(runner.trustedRequests.size(), 1u);
  const TrustedTimingRequest& asked = runner.trustedRequests.front();
  EXPECT_EQ(asked.tasks, (std::vector<std::string>{"separable", "bilateral"}));
  EXPECT_EQ(asked.seed, 77u) << "the trusted process times on the grade's own inputs";
  EXPECT_TRUE(asked.besideProfiler);
  ASSERT_EQ(problems.size(), rubric.tasks.size());
  for (const std::string& p : problems) EXPECT_EQ(p, "no trusted kernels in this test") << "a replay did not wait";
}

// Spec 5c: the batch re-times its reference only once the grades it served have let go of their
// figures (batch/trusted_timer.h). A grade holds them until its keeper ends: past every runner.
TEST_F(SubmissionKeeperTest, TheBatchsFiguresAreHeldUntilTheGradeHasEnded) {
  auto released = std::make_shared<std::atomic<bool>>(false);
  settings.trustedTimings = [released] {
    return ServedFigures{std::make_shared<TrustedTimings>(),
                         std::shared_ptr<void>(released.get(), [released](void*) { released->store(true); })};
  };
  std::atomic<int> runnersSeeingThemReleased{0};
  for (const TaskRubric& t : rubric.tasks)
    runner.scripts[t.id] = {[&, ends = endsWell(t.id, 50)](const RunnerLaunch& l) {
      const RunnerEnded e = ends(l);
      if (released->load()) ++runnersSeeingThemReleased;
      return e;
    }};
  {
    SubmissionKeeper keeper(rubric, device, kernels, out, settings);
    keeper.grade({}, runner, judge.judge());
    EXPECT_EQ(runnersSeeingThemReleased.load(), 0);
    EXPECT_FALSE(released->load()) << "released before the keeper ended";
  }
  EXPECT_TRUE(released->load()) << "still held after the grade";
}

// Spec 5c: on a GPU the reference is timed before any of the grade's student code runs (its runners,
// its counters session): a kernel that kept the GPU busy beside it would slow the reference it is
// scored against. On a CPU device, where speed is never graded, the timing overlaps the runners.
TEST_F(SubmissionKeeperTest, OnAGpuTheReferenceIsTimedBeforeTheGradesStudentCodeRuns) {
  settings.visibleOnly = false;
  for (const char* type : {"gpu", "cpu"}) {
    SCOPED_TRACE(type);
    device.info.type = type;
    runner.order.clear();
    runner.trustedRequests.clear();
    runner.launches.clear();
    for (const TaskRubric& t : rubric.tasks) runner.scripts[t.id] = {endsWell(t.id)};
    std::atomic<bool> runnerSeen{false};
    runner.whileTiming = [&] {
      // Long enough for a runner started beside it to be seen.
      for (int i = 0; i < 100 && !runnerSeen; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    };
    runner.scripts["conv3x3"] = {[&](const RunnerLaunch& l) {
      runnerSeen = true;
      return endsWell("conv3x3")(l);
    }};
    grade();
    ASSERT_EQ(runner.trustedRequests.size(), 1u);
    // The sandbox probe ("probe") runs no student code.
    std::vector<std::string> started;
    for (const std::string& o : runner.order)
      if (o != "probe") started.push_back(o);
    ASSERT_FALSE(started.empty());
    if (std::string(type) == "gpu")
      EXPECT_EQ(started.front(), "trusted") << "a runner started before the reference was timed";
    else
      EXPECT_NE(started.front(), "trusted") << "on a CPU device the timing overlaps the runners";
  }
}

// ... but a trusted process that hangs does not take a grade's time: with a deadline the runners
// wait at most a quarter of the time left, then start beside it.
TEST_F(SubmissionKeeperTest, AGradeWithADeadlineWaitsForItsTrustedTimingsOnlyAQuarterOfItsTime) {
  settings.visibleOnly = false;
  device.info.type = "gpu";
  settings.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(4);
  for (const TaskRubric& t : rubric.tasks) runner.scripts[t.id] = {endsWell(t.id)};
  std::atomic<bool> runnerSeen{false};
  runner.scripts["conv3x3"] = {[&](const RunnerLaunch& l) {
    runnerSeen = true;
    return endsWell("conv3x3")(l);
  }};
  runner.whileTiming = [&] {  // hangs until a runner started, 10 s at most
    for (int i = 0; i < 500 && !runnerSeen; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  };
  const auto start = std::chrono::steady_clock::now();
  grade();
  EXPECT_TRUE(runnerSeen) << "the runners waited for a trusted timing that did not end";
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(8));
}

// A lone grade's trusted figures serve the grades after it on this machine (as a batch's serve its
// grades, for 15 minutes): the next grade starts no trusted process and hands them to its runners.
TEST_F(SubmissionKeeperTest, ALoneGradesTrustedFiguresServeTheGradesAfterIt) {
  settings.reuseTrustedFigures = true;
  device.info.name = "fake device " + std::to_string(::getpid()) + "-" + std::to_string(std::time(nullptr));
  runner.giveFigures = true;
  for (const TaskRubric& t : rubric.tasks) runner.scripts[t.id] = {endsWell(t.id), endsWell(t.id), endsWell(t.id)};
  grade();
  ASSERT_EQ(runner.trustedRequests.size(), 1u);
  for (const RunnerLaunch& l : runner.launches) EXPECT_TRUE(l.request.trustedTimings.empty());
  runner.launches.clear();
  grade();
  EXPECT_EQ(runner.trustedRequests.size(), 1u) << "the figures kept by the first grade were timed again";
  ASSERT_FALSE(runner.launches.empty());
  for (const RunnerLaunch& l : runner.launches)
    EXPECT_NE(l.request.trustedTimings.find("for an earlier grade"), std::string::npos) << l.request.trustedTimings;
  // Another task selection is another key: timed for itself.
  grade({"conv3x3"});
  EXPECT_EQ(runner.trustedRequests.size(), 2u);
}

// Issue 27: on a GPU, a speed criterion left unmeasured because the trusted process could not time
// the reference kernels is the machine's fault: the task is not graded (no student's 0 for it).
TEST_F(SubmissionKeeperTest, AReferenceThatCouldNotBeTimedIsAMachineFaultOnAGpu) {
  std::vector<std::string> problems;
  ASSERT_TRUE(loadRubric(std::string(CLGRADE_SOURCE_DIR) + "/rubrics/gpu/four_tasks_speed.xml", &rubric, &problems));
  settings.visibleOnly = false;
  for (const TaskRubric& t : rubric.tasks) runner.scripts[t.id] = {endsWell(t.id), endsWell(t.id)};
  const TapeJudge base = judge.judge();
  const TapeJudge unmeasuredSpeed = [&](const GradeOptions& o, const std::string& tape, std::function<bool()> writing) {
    ReplayResult r = base(o, tape, std::move(writing));
    for (TaskReport& t : r.graded.tasks) {
      CriterionResult speed;
      speed.id = "speed";
      speed.status = Status::NotMeasured;
      speed.message = "no figures of the reference kernels";
      t.criteria.push_back(speed);
    }
    return r;
  };
  for (const char* type : {"cpu", "gpu"}) {
    device.info.type = type;
    SubmissionKeeper keeper(rubric, device, kernels, out, settings);
    const SubmissionResult r = keeper.grade({"conv3x3"}, runner, unmeasuredSpeed);
    if (std::string(type) == "cpu") {
      EXPECT_EQ(r.report.machineFault(), "") << "speed is never graded on a CPU device";
    } else {
      EXPECT_NE(r.report.machineFault().find("the reference kernels"), std::string::npos) << r.report.machineFault();
      EXPECT_NE(r.report.machineFault().find("no trusted kernels in this test"), std::string::npos);
    }
  }
}

// Spec 5c: what runs student code never holds the run's hidden seed, only what is derived from it.
TEST_F(SubmissionKeeperTest, AGradesRunnerGetsTheDerivedSeedsAndNeverTheRunsSeed) {
  settings.hiddenSeed = 987654321;
  settings.visibleOnly = false;
  runner.scripts["conv3x3"] = {endsWell()};
  grade({"conv3x3"});
  ASSERT_EQ(runner.launches.size(), 1u);
  const RunnerRequest& request = runner.launches.front().request;
  EXPECT_EQ(request.hiddenSeeds, hiddenSeedsOf(987654321));
  EXPECT_EQ(runnerRequestJson(request).find("987654321"), std::string::npos);
}

TEST_F(SubmissionKeeperTest, TheRequestCarriesTheSettingsAndPathsOfTheWall) {
  settings.hiddenSeed = 1234;
  runner.scripts["conv3x3"] = {endsWell()};
  grade({"conv3x3"});
  ASSERT_EQ(runner.launches.size(), 1u);
  const RunnerLaunch& l = runner.launches.front();
  EXPECT_EQ(l.request.task, "conv3x3");
  EXPECT_TRUE(l.request.visibleOnly);
  const HiddenSeeds rowsOnly{0, 0, 0, hiddenSeedsOf(1234).rows};
  EXPECT_EQ(l.request.hiddenSeeds, rowsOnly) << "a check runs no hidden case: no input seed crosses the wall";
  EXPECT_EQ(fs::path(l.request.recordPath).parent_path(), fs::path(l.scratch));
  EXPECT_EQ(fs::path(l.request.recordPath).filename(), channel::kTapeFile);
  EXPECT_EQ(fs::path(l.request.progressPath).filename(), channel::kProgressFile);
  EXPECT_FALSE(l.request.hardwareElsewhere) << "no profiler session on a CPU device";
  EXPECT_FALSE(l.request.timingLock.empty()) << "tasks side by side take turns for their timings";
  // What the runner compiles and the rubric it runs come in the request: its task's file as the
  // keeper read it, and the rubric's settings with that task only.
  EXPECT_EQ(l.request.sourceFile, "Convolution3x3.cl");
  EXPECT_EQ(l.request.source.text, loadKernelSource(kernels, "Convolution3x3.cl").text);
  EXPECT_FALSE(l.request.source.text.empty());
  Rubric part;
  std::vector<std::string> problems;
  ASSERT_TRUE(parseRubric(l.request.rubricText, "part.xml", &part, &problems)) << l.request.rubricText;
  ASSERT_EQ(part.tasks.size(), 1u);
  EXPECT_EQ(part.tasks.front().id, "conv3x3");
  EXPECT_EQ(part.tasks.front().cases.size(), rubric.tasks.front().cases.size());
}

// Issue 29: with KeeperSettings::tasksTogether the tasks' first runners are one process; a part that
// stands for its task is judged like its own runner's end, and no runner of its own starts.
TEST_F(SubmissionKeeperTest, TasksTogetherRunInOneProcessAndStartNoneOfTheirOwn) {
  settings.tasksTogether = true;
  runner.parts = [](const RunnerLaunch& l) -> std::optional<RunnerEnded> {
    writeFileAtomically(l.request.recordPath, l.request.task, nullptr);
    return RunnerEnded{exited(0), {}};
  };
  const SubmissionResult r = grade();
  ASSERT_EQ(runner.together.size(), 1u);
  std::vector<std::string> all;
  for (const TaskRubric& t : rubric.tasks) all.push_back(t.id);
  EXPECT_EQ(runner.together.front(), all) << "one runner of every task, in the rubric's order";
  EXPECT_TRUE(runner.launches.empty()) << "no task ran a runner of its own";
  ASSERT_EQ(r.runs.size(), all.size());
  for (const TaskRun& run : r.runs) EXPECT_EQ(run.outcome, "ok") << run.task;
  EXPECT_EQ(r.report.total, double(all.size()));
  ASSERT_EQ(judge.judged.size(), all.size());
  for (const Judged& j : judge.judged) EXPECT_EQ(j.tape, j.task) << "each replay reads its own part's tape";
}

// A part is judged as soon as it has ended, while the runner goes on with the next tasks.
TEST_F(SubmissionKeeperTest, APartIsJudgedWhileTheTasksAfterItStillRun) {
  settings.tasksTogether = true;
  const std::string first = rubric.tasks.front().id;
  bool judgedBeforeTheNext = false;
  runner.parts = [&](const RunnerLaunch& l) -> std::optional<RunnerEnded> {
    if (l.request.task != first) {
      for (int i = 0; i < 500 && !judge.judgedTask(first); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      judgedBeforeTheNext = judgedBeforeTheNext || (l.request.task == rubric.tasks[1].id && judge.judgedTask(first));
    }
    writeFileAtomically(l.request.recordPath, l.request.task, nullptr);
    return RunnerEnded{exited(0), {}};
  };
  const SubmissionResult r = grade();
  EXPECT_TRUE(judgedBeforeTheNext) << "the first task's part was judged only after the runner had ended";
  EXPECT_EQ(r.report.total, double(rubric.tasks.size()));
}

// A part that does not stand for its task (a crash, a limit, a failed device step: the launcher says
// nothing of it) is run again in a runner of its own, and so is every task after it; the tasks before
// it keep their parts.
TEST_F(SubmissionKeeperTest, ATaskWhosePartDidNotEndWellRunsAloneWithTheTasksAfterIt) {
  settings.tasksTogether = true;
  ASSERT_GE(rubric.tasks.size(), 3u);
  const std::string failing = rubric.tasks[1].id;
  bool reached = false;
  runner.parts = [&](const RunnerLaunch& l) -> std::optional<RunnerEnded> {
    if (l.request.task == failing) reached = true;
    if (reached) return std::nullopt;
    writeFileAtomically(l.request.recordPath, "part of " + l.request.task, nullptr);
    return RunnerEnded{exited(0), {}};
  };
  for (size_t i = 1; i < rubric.tasks.size(); ++i) runner.scripts[rubric.tasks[i].id] = {endsWell("alone")};
  const SubmissionResult r = grade();
  EXPECT_EQ(runner.launchesOf(rubric.tasks[0].id), 0u) << "the task before the failing part keeps its part";
  for (size_t i = 1; i < rubric.tasks.size(); ++i)
    EXPECT_EQ(runner.launchesOf(rubric.tasks[i].id), 1u) << rubric.tasks[i].id << " runs alone";
  for (const Judged& j : judge.judged)
    EXPECT_EQ(j.tape, j.task == rubric.tasks[0].id ? "part of " + j.task : "alone") << j.task;
  EXPECT_EQ(r.report.total, double(rubric.tasks.size()));
  // The report says which ran in the one process, and why the others ran alone.
  EXPECT_TRUE(task(r, rubric.tasks[0].id).process.sharedProcess);
  EXPECT_EQ(task(r, rubric.tasks[0].id).process.ranAloneBecause, "");
  for (size_t i = 1; i < rubric.tasks.size(); ++i) {
    EXPECT_FALSE(task(r, rubric.tasks[i].id).process.sharedProcess);
    EXPECT_EQ(task(r, rubric.tasks[i].id).process.ranAloneBecause, "task " + failing + "'s part did not end well");
  }
}

// A file the source policy refuses starts nothing, in a runner of several tasks as alone; a launcher
// that runs none together leaves every task to a runner of its own.
TEST_F(SubmissionKeeperTest, ARefusedFileIsLeftOutOfTheTasksRunTogether) {
  settings.tasksTogether = true;
  const Task* refused = findTask(rubric.tasks.back().id);
  ASSERT_NE(refused, nullptr);
  fs::remove(fs::path(kernels) / refused->info().file);
  fs::create_symlink("/etc/passwd", fs::path(kernels) / refused->info().file);
  for (size_t i = 0; i + 1 < rubric.tasks.size(); ++i) runner.scripts[rubric.tasks[i].id] = {endsWell()};
  const SubmissionResult r = grade();
  ASSERT_EQ(runner.together.size(), 1u);
  EXPECT_EQ(runner.together.front().size(), rubric.tasks.size() - 1);
  EXPECT_EQ(std::count(runner.together.front().begin(), runner.together.front().end(), refused->info().id), 0);
  EXPECT_EQ(runner.launchesOf(refused->info().id), 0u);
  EXPECT_EQ(r.runs.back().outcome, "refused");
  for (size_t i = 0; i + 1 < rubric.tasks.size(); ++i)
    EXPECT_EQ(runner.launchesOf(rubric.tasks[i].id), 1u) << "no part came back: each ran alone";
}

// On an NVIDIA GPU with the PTX counters, the runner of several tasks runs the counters session
// after their parts: what it left is what the keeper reads, and no process of its own starts (here
// none could: the clgrade it would run does not exist).
class SessionTogetherTest : public SubmissionKeeperTest {
 protected:
  void SetUp() override {
    SubmissionKeeperTest::SetUp();
    device.info.type = "gpu";
    device.info.platform = "NVIDIA CUDA";
    settings.tasksTogether = true;
    runner.parts = [](const RunnerLaunch& l) -> std::optional<RunnerEnded> {
      writeFileAtomically(l.request.recordPath, l.request.task, nullptr);
      return RunnerEnded{exited(0), {}};
    };
  }
  std::string hardwareLog(const std::string& taskId) {
    std::string log;
    readFile(out + "/evidence/" + taskId + "/hardware.log", &log, nullptr);
    return log;
  }
};

TEST_F(SessionTogetherTest, TheCountersSessionIsTheTasksProcesssLastPart) {
  if (std::getenv("CLGRADE_COUNTERS")) GTEST_SKIP() << "CLGRADE_COUNTERS chooses another counter";
  const std::string left = (root / "left").string();
  runner.serve = [&](const SessionLaunch& session) {
    makeDirectories(left, nullptr);
    writeFileAtomically(session.outputPath, "==PROF== served by the tasks' process\n", nullptr);
    ProcessResult p = exited(0);
    session.ended(p, left);
  };
  grade();
  ASSERT_EQ(runner.sessions.size(), 1u);
  EXPECT_EQ(runner.sessions[0].argv.at(1), "hwsession");
  EXPECT_NE(hardwareLog("conv3x3").find("served by the tasks' process"), std::string::npos) << hardwareLog("conv3x3");
}

TEST_F(SessionTogetherTest, ASessionTheRunnerLeftRunsInItsOwnProcessAndTheGradeEnds) {
  grade();  // the fake runner ignores the session: the grade would wait for ever without its end
  ASSERT_EQ(runner.sessions.size(), 1u);
  // Its own process: here it cannot start, which the session says.
  EXPECT_EQ(hardwareLog("conv3x3").find("served"), std::string::npos);
}

TEST_F(SessionTogetherTest, OneTaskAloneRunsTheSessionInItsOwnProcess) {
  runner.scripts["conv3x3"] = {endsWell()};
  grade({"conv3x3"});
  EXPECT_TRUE(runner.together.empty());
  EXPECT_TRUE(runner.sessions.empty());
}

}  // namespace
}  // namespace clgrade
