// The runner of several tasks as the keeper follows it (RunnerProcess::runTogether), with a stand-in
// for `clgrade run-tasks` (no sandbox, no device): the counters session it runs after the tasks'
// parts is handed over out of its scratch folder as its own process would have left it, and where it
// does not end, the keeper is told so that the session runs in a process of its own.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "../../scratch.h"
#include "keeper/runner_process.h"
#include "protocol/session_part.h"
#include "util/files.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

struct Together {
  fs::path dir;
  KeeperSettings settings;
  std::vector<RunnerLaunch> launches;
  SessionLaunch session;
  std::vector<PartEnd> parts;
  int sessionEnds = 0;
  std::optional<ProcessResult> sessionEnd;
  std::string sessionFiles;

  /// `then`: what the stand-in does once both tasks' parts have ended.
  Together(const std::string& name, const std::string& then) : dir(test::freshFolder("runner_together", name)) {
    const std::string scratch = (dir / "scratch").string();
    const std::string clgrade = (dir / "clgrade").string();
    std::ofstream(clgrade) << "#!/bin/sh\n"
                              "s="
                           << scratch
                           << "\n"
                              "for t in conv3x3 histogram; do\n"
                              "  mkdir -p $s/$t && echo tape > $s/$t/record && : > $s/$t/progress\n"
                              "  printf 'exit 0\\npeak 0\\nerrors\\n' > $s/$t/e && mv $s/$t/e $s/$t/ended\n"
                              "done\n"
                           << then << "\n";
    fs::permissions(clgrade, fs::perms::owner_all);
    settings.sandbox = false;
    settings.clgrade = clgrade;
    settings.taskTimeoutSeconds = 20;
    for (const std::string task : {"conv3x3", "histogram"}) {
      RunnerLaunch l;
      l.request.task = task;
      l.scratch = (dir / ("own-" + task)).string();
      l.request.recordPath = l.scratch + "/record";
      l.request.progressPath = l.scratch + "/progress";
      l.stdoutPath = (dir / (task + ".stdout")).string();
      l.stderrPath = (dir / (task + ".stderr")).string();
      launches.push_back(l);
    }
    session.workDir = (dir / "hardware").string();
    session.argv = {
        "clgrade", "hwsession", "kernels", "--out", session.workDir, "--log-file", session.workDir + "/ncu.csv"};
    session.inputs = (dir / "hardware-input").string();
    session.outputPath = (dir / "all.hardware.log").string();
    session.timeoutSeconds = 2;
    session.ended = [this](std::optional<ProcessResult> p, const std::string& files) {
      ++sessionEnds;
      sessionEnd = std::move(p);
      sessionFiles = files;
    };
  }
  void run() {
    RunnerProcess launcher(RunnerPlace{&settings, (dir / "kernels").string()});
    parts.resize(launches.size());
    launcher.runTogether(
        launches, (dir / "scratch").string(), (dir / "requests").string(),
        [this](size_t i, PartEnd end) { parts.at(i) = std::move(end); }, &session);
  }
  std::string text(const std::string& path) {
    std::string t;
    readFile(path, &t, nullptr);
    return t;
  }
};

TEST(RunnerTogether, TheCountersSessionAfterThePartsIsHandedOverAsItsOwnProcessLeavesIt) {
  Together t("ends",
             "mkdir -p $s/hardware $s/session && echo counted > $s/hardware/ncu.csv &&"
             " echo '==PROF== the session says' > $s/session/output &&"
             " printf 'exit 6\\npeak 0\\nerrors\\n' > $s/session/ended");
  t.run();
  for (const PartEnd& p : t.parts) EXPECT_TRUE(p.ended.has_value()) << p.alone;
  ASSERT_EQ(t.sessionEnds, 1);
  ASSERT_TRUE(t.sessionEnd.has_value());
  EXPECT_EQ(t.sessionEnd->exitCode, 6);  // the session's own code (here: the PTX counters could not count)
  EXPECT_TRUE(t.sessionEnd->started);
  EXPECT_EQ(t.text(t.sessionFiles + "/ncu.csv"), "counted\n");  // the session moves them to its --out
  EXPECT_EQ(t.text(t.session.outputPath), "==PROF== the session says\n");
  // The runner was told to write where its sandbox may: its scratch folder, not the keeper's.
  std::string folder;
  std::vector<std::string> argv;
  std::string err;
  ASSERT_TRUE(readSessionPartText(t.text((t.dir / "requests" / "session.json").string()), &folder, &argv, &err)) << err;
  const std::string scratch = fs::absolute(t.dir / "scratch").string();
  EXPECT_EQ(folder, scratch + "/session");
  EXPECT_EQ(argv.at(4), scratch + "/hardware");
  EXPECT_EQ(argv.at(6), scratch + "/hardware/ncu.csv");
}

TEST(RunnerTogether, ASessionThatRunsPastItsLimitEndsAsItsOwnProcessWouldHave) {
  // What it counted before its limit stands; the tasks it left are counted alone (runHardwareSession):
  // a kernel that hangs in the analysis case costs the session's limit once here, not once more.
  Together t("hangs", "mkdir -p $s/hardware $s/session && echo counted > $s/hardware/ncu.csv && sleep 30");
  const auto began = std::chrono::steady_clock::now();
  t.run();
  // Stopped at its own limit (2 s here), not the runner's whole (the tasks' limits and its own).
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count(), 15);
  for (const PartEnd& p : t.parts) EXPECT_TRUE(p.ended.has_value()) << p.alone;  // the tasks lose nothing
  ASSERT_EQ(t.sessionEnds, 1);
  ASSERT_TRUE(t.sessionEnd.has_value());
  EXPECT_TRUE(t.sessionEnd->timedOut);
  EXPECT_FALSE(t.sessionEnd->ok());
  EXPECT_EQ(t.text(t.sessionFiles + "/ncu.csv"), "counted\n");
}

/// Whether the session, after the stand-in did `then`, was left to a process of its own (told once).
bool leftToItsOwnProcess(const std::string& name, const std::string& then) {
  Together t(name, then);
  t.run();
  return t.sessionEnds == 1 && !t.sessionEnd.has_value();
}

TEST(RunnerTogether, ASessionThatNeverGotGoingBesideTheTasksRunsInItsOwnProcess) {
  // CUDA did not start beside the tasks' context, say: no "==PROF==" line, which the keeper would
  // take for the machine's fault. A process of its own may count.
  EXPECT_TRUE(leftToItsOwnProcess("no-cuda",
                                  "mkdir -p $s/session && echo 'clgrade hwcount: no CUDA driver' > $s/session/output"
                                  " && printf 'exit 3\npeak 0\nerrors\n' > $s/session/ended"));
}

TEST(RunnerTogether, ALinkInPlaceOfTheSessionsFolderIsNotFollowed) {
  EXPECT_TRUE(leftToItsOwnProcess("link",
                                  "mkdir -p $s/elsewhere && ln -s $s/elsewhere $s/hardware && mkdir -p "
                                  "$s/session && echo '==PROF==' > $s/session/output &&"
                                  " printf 'exit 0\npeak 0\nerrors\n' > $s/session/ended"));
}

TEST(RunnerTogether, ASessionWhoseProcessCrashesRunsInItsOwnProcess) {
  Together t("crashes", "mkdir -p $s/hardware && echo half > $s/hardware/ncu.csv && kill -SEGV $$");
  t.run();
  for (const PartEnd& p : t.parts) EXPECT_TRUE(p.ended.has_value()) << p.alone;
  ASSERT_EQ(t.sessionEnds, 1);
  EXPECT_FALSE(t.sessionEnd.has_value());
}

TEST(RunnerTogether, ATaskPartThatDidNotEndLeavesTheSessionToItsOwnProcess) {
  Together t("unfit", "");
  // The second task's part never ends: the runner dies in it.
  std::ofstream(t.settings.clgrade) << "#!/bin/sh\n"
                                       "s="
                                    << (t.dir / "scratch").string()
                                    << "\n"
                                       "mkdir -p $s/conv3x3 && echo tape > $s/conv3x3/record\n"
                                       "printf 'exit 0\\npeak 0\\nerrors\\n' > $s/conv3x3/ended\n"
                                       "exit 3\n";
  t.run();
  EXPECT_TRUE(t.parts[0].ended.has_value());
  EXPECT_FALSE(t.parts[1].ended.has_value());
  EXPECT_FALSE(t.parts[1].alone.empty());
  ASSERT_EQ(t.sessionEnds, 1);
  EXPECT_FALSE(t.sessionEnd.has_value());
}

}  // namespace
}  // namespace clgrade
