// Child processes under limits (util/subprocess), the progress file a task child leaves for its
// parent (protocol/progress), and a submission folder's kernels (intake/submission).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <csignal>

#include <filesystem>
#include <fstream>

#include "../../scratch.h"
#include "intake/submission.h"
#include "protocol/progress.h"
#include "util/files.h"
#include "util/subprocess.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

fs::path scratch(const std::string& name) { return test::freshFolder("clgrade_subprocess", name); }

ProcessSpec shell(const std::string& script) {
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.timeoutSeconds = 30;
  return spec;
}

TEST(Subprocess, ExitCodesAndSignalsAreReportedByName) {
  EXPECT_TRUE(runProcess(shell("exit 0")).ok());
  const ProcessResult three = runProcess(shell("exit 3"));
  EXPECT_EQ(three.exitCode, 3);
  EXPECT_EQ(three.describe(), "exit code 3");
  const ProcessResult segv = runProcess(shell("kill -SEGV $$"));
  EXPECT_EQ(segv.signal, SIGSEGV);
  EXPECT_EQ(signalName(segv.signal), "SIGSEGV");
  EXPECT_NE(segv.describe().find("SIGSEGV"), std::string::npos) << segv.describe();
}

TEST(Subprocess, ATimeOutKillsTheWholeProcessGroup) {
  const fs::path dir = scratch("timeout");
  ProcessSpec spec = shell("(sleep 3; touch " + (dir / "late").string() + ") & sleep 30");
  spec.timeoutSeconds = 0.5;
  const ProcessResult p = runProcess(spec);
  EXPECT_TRUE(p.timedOut);
  EXPECT_LT(p.seconds, 5);
  sleep(4);
  EXPECT_FALSE(fs::exists(dir / "late")) << "a grandchild survived the time-out";
}

TEST(Subprocess, OutputBeyondTheLimitIsCountedNotKept) {
  const fs::path dir = scratch("output");
  ProcessSpec spec = shell("head -c 5000000 /dev/zero; echo done >&2");
  spec.stdoutPath = (dir / "out").string();
  spec.stderrPath = (dir / "err").string();
  spec.outputLimitBytes = 1000;
  const ProcessResult p = runProcess(spec);
  EXPECT_TRUE(p.ok()) << p.describe();
  EXPECT_EQ(p.stdoutBytes, 5000000u);
  EXPECT_EQ(fs::file_size(dir / "out"), 1000u);
  std::string err;
  ASSERT_TRUE(readFile((dir / "err").string(), &err, nullptr));
  EXPECT_EQ(err, "done\n");
}

TEST(Subprocess, ResidentMemoryAboveTheLimitStopsTheChild) {
  // tail keeps the (endless) last line of /dev/zero in memory.
  ProcessSpec spec = shell("exec tail -n 1 /dev/zero");
  spec.memoryLimitBytes = uint64_t(64) << 20;
  const ProcessResult p = runProcess(spec);
  EXPECT_TRUE(p.memoryExceeded) << p.describe();
  EXPECT_GT(p.peakResidentBytes, uint64_t(64) << 20);
  EXPECT_LT(p.seconds, 20);
}

TEST(Subprocess, FileSizeLimitMakesWritesFailInsteadOfKilling) {
  const fs::path dir = scratch("fsize");
  ProcessSpec spec =
      shell("head -c 3000000 /dev/zero > " + (dir / "big").string() + "; echo $? > " + (dir / "status").string());
  spec.limits.fileSizeBytes = 1 << 20;
  spec.limits.noCoreDumps = true;
  const ProcessResult p = runProcess(spec);
  EXPECT_TRUE(p.ok()) << p.describe();
  EXPECT_EQ(fs::file_size(dir / "big"), size_t(1) << 20);
  std::string status;
  ASSERT_TRUE(readFile((dir / "status").string(), &status, nullptr));
  EXPECT_NE(status, "0\n");  // head saw the write fail
}

TEST(Subprocess, AMonitorCanStopTheChildWithAReason) {
  ProcessSpec spec = shell("sleep 30");
  spec.monitor = [](double t) { return t > 0.3 ? std::string("enough") : std::string(); };
  const ProcessResult p = runProcess(spec);
  EXPECT_EQ(p.stoppedBy, "enough");
  EXPECT_EQ(p.describe(), "stopped: enough");
  EXPECT_FALSE(p.ok());
}

TEST(Subprocess, TheEnvironmentIsAddedToTheChilds) {
  const fs::path dir = scratch("env");
  ProcessSpec spec = shell("echo \"$CLGRADE_TEST_VALUE\"");
  spec.env["CLGRADE_TEST_VALUE"] = "forty two";
  spec.stdoutPath = (dir / "out").string();
  ASSERT_TRUE(runProcess(spec).ok());
  std::string out;
  ASSERT_TRUE(readFile(spec.stdoutPath, &out, nullptr));
  EXPECT_EQ(out, "forty two\n");
}

// Whatever started clgrade may have left descriptors open (a CI runner's log, a shell's redirection):
// no child gets them, so no kernel reaches them through /proc/<pid>/fd; stdin is /dev/null; the
// descriptors a spec names (bwrap's --bind-fd) are kept.
TEST(Subprocess, TheChildGetsNoDescriptorItsParentInherited) {
  const fs::path dir = scratch("descriptors");
  const std::string hostFile = (dir / "host.txt").string();
  ASSERT_TRUE(writeFileAtomically(hostFile, "a file of the machine\n", nullptr, false));
  const int leaked = open(hostFile.c_str(), O_RDWR);   // no O_CLOEXEC: as a careless parent leaves it
  const int named = open(hostFile.c_str(), O_RDONLY);  // one the spec passes on
  const int high = fcntl(leaked, F_DUPFD, 900);        // far above the others (close_range's ranges)
  ASSERT_GE(leaked, 3);
  ASSERT_GE(named, 3);
  ASSERT_GE(high, 900);
  ProcessSpec spec =
      shell("for fd in " + std::to_string(leaked) + " " + std::to_string(named) + " " + std::to_string(high) +
            "; do if [ -e /proc/self/fd/$fd ]; then echo $fd open; else echo $fd closed; fi; done; "
            "readlink /proc/self/fd/0");
  spec.inheritFds = std::make_shared<const std::vector<int>>(std::vector<int>{named});
  spec.stdoutPath = (dir / "out").string();
  const ProcessResult p = runProcess(spec);
  close(leaked);
  close(named);
  close(high);
  ASSERT_TRUE(p.ok()) << p.describe();
  std::string out;
  ASSERT_TRUE(readFile(spec.stdoutPath, &out, nullptr));
  EXPECT_EQ(out, std::to_string(leaked) + " closed\n" + std::to_string(named) + " open\n" + std::to_string(high) +
                     " closed\n/dev/null\n");
}

// The child starts while this thread blocks every signal (util/subprocess.cpp, startChild): it must
// end with the signal mask the starting thread had, not with all blocked (a runner that could not be
// stopped by SIGTERM, a sandbox whose SIGPIPE never comes), and a handler of the parent's is not its.
TEST(Subprocess, TheChildGetsTheParentsSignalMaskAndNoneOfItsHandlers) {
  const fs::path dir = scratch("signals");
  struct sigaction handled {
  }, before{};
  handled.sa_handler = [](int) {};
  ASSERT_EQ(sigaction(SIGUSR1, &handled, &before), 0);
  sigset_t blocked, old;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGUSR2);
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, &blocked, &old), 0);
  ProcessSpec mask;  // no shell between: a shell sets its own mask
  mask.argv = {"/bin/grep", "^SigBlk:", "/proc/self/status"};
  mask.stdoutPath = (dir / "mask").string();
  const ProcessResult m = runProcess(mask);
  ProcessSpec handler = shell("kill -USR1 $$; echo survived");
  handler.stdoutPath = (dir / "handler").string();
  const ProcessResult h = runProcess(handler);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  sigaction(SIGUSR1, &before, nullptr);
  ASSERT_TRUE(m.ok()) << m.describe();
  std::string out;
  ASSERT_TRUE(readFile(mask.stdoutPath, &out, nullptr));
  // SIGUSR2 is signal 12: bit 11 of the mask, 0x800, and nothing else blocked.
  EXPECT_EQ(out, "SigBlk:\t0000000000000800\n");
  // SIGUSR1 at its default in the child ends it: the parent's handler did not come along.
  ASSERT_TRUE(readFile(handler.stdoutPath, &out, nullptr));
  EXPECT_EQ(h.signal, SIGUSR1) << h.describe() << "\n" << out;
  EXPECT_EQ(out, "");
}

// A runner writes its progress file in its own scratch folder: a link it puts there instead, to a file
// of the grading machine (another grade's progress, say), is not followed by the keeper reading it.
TEST(Progress, ALinkInPlaceOfTheFileIsNotFollowed) {
  const fs::path dir = scratch("progress_link");
  const std::string elsewhere = (dir / "elsewhere").string();
  ASSERT_TRUE(writeFileAtomically(elsewhere, "kernel\tbilateral\tcases\tsecret_case\tConvVertical\n", nullptr));
  ASSERT_TRUE(progress::lastPosition(elsewhere).valid);
  fs::create_symlink(elsewhere, dir / "progress");
  EXPECT_FALSE(progress::lastPosition((dir / "progress").string()).valid);
}

TEST(Progress, TheLastLineSaysWhereAChildWas) {
  const fs::path dir = scratch("progress");
  const std::string path = (dir / "progress").string();
  progress::setFile(path);
  progress::note(progress::Step::Task, "separable");
  progress::enterCase("course_box4");
  {
    const progress::Scope build(progress::Step::Build, "-D RESULT_STEPS=4");
    EXPECT_EQ(progress::describe(progress::lastPosition(path)),
              "while building with options '-D RESULT_STEPS=4' (case course_box4)");
    EXPECT_TRUE(progress::isBuild(progress::lastPosition(path)));
  }
  EXPECT_EQ(progress::describe(progress::lastPosition(path)), "while running case course_box4");
  progress::note(progress::Step::Kernel, "ConvVertical");
  const progress::Position p = progress::lastPosition(path);
  EXPECT_EQ(p.task, "separable");
  EXPECT_EQ(progress::describe(p), "while running kernel ConvVertical (case course_box4)");
  progress::note(progress::Step::Performance, "");
  {
    const progress::Scope build(progress::Step::Build, "");
    progress::note(progress::Step::Kernel, "ConvHorizontal");
    EXPECT_EQ(progress::describe(progress::lastPosition(path)),
              "while running kernel ConvHorizontal (performance measurement)");
  }
  progress::note(progress::Step::Simulator, "");
  EXPECT_EQ(progress::describe(progress::lastPosition(path)), "during the simulator run (Oclgrind)");
  progress::setFile("");
  progress::note(progress::Step::Kernel, "not written");
  EXPECT_EQ(progress::describe(progress::lastPosition(path)), "during the simulator run (Oclgrind)");
  EXPECT_FALSE(progress::lastPosition((dir / "none").string()).valid);
}

TEST(SubmissionFolder, KernelsSubfolderOrTheFilesDirectly) {
  const fs::path dir = scratch("submission");
  fs::create_directories(dir / "a" / "kernels");
  std::ofstream(dir / "a" / "kernels" / "histogram.cl") << "\n";
  EXPECT_EQ(resolveSubmission((dir / "a").string()).kernelsDir, (dir / "a" / "kernels").string());
  fs::create_directories(dir / "b");
  std::ofstream(dir / "b" / "histogram.cl") << "\n";
  EXPECT_EQ(resolveSubmission((dir / "b").string()).kernelsDir, (dir / "b").string());
  fs::create_directories(dir / "c");
  fs::create_directory_symlink(dir / "a" / "kernels", dir / "c" / "kernels");
  const SubmissionFolder c = resolveSubmission((dir / "c").string());
  EXPECT_NE(c.problem.find("kernels/ is a symbolic link to " + (dir / "a" / "kernels").string() +
                           ", outside the submission folder"),
            std::string::npos)
      << c.problem;
  EXPECT_TRUE(resolveSubmission((dir / "a").string()).notices.empty());
}

// Found by an intake corpus: .cl files both in kernels/ and beside it, one set ignored without a word.
// kernels/ is still graded; the others are named in a notice, which refuses nothing.
TEST(SubmissionFolder, ClFilesBesideAGradedKernelsFolderAreNoticed) {
  const fs::path dir = scratch("beside") / "alice";
  fs::create_directories(dir / "kernels");
  std::ofstream(dir / "kernels" / "histogram.cl") << "\n";
  std::ofstream(dir / "histogram.cl") << "\n";
  std::ofstream(dir / "Convolution3x3.cl") << "\n";
  const SubmissionFolder s = resolveSubmission(dir.string());
  EXPECT_EQ(s.kernelsDir, (dir / "kernels").string());
  EXPECT_TRUE(s.problem.empty()) << s.problem;
  ASSERT_EQ(s.notices.size(), 1u);
  EXPECT_EQ(s.notices[0],
            "Convolution3x3.cl, histogram.cl are beside the kernels folder and not graded: the .cl files in "
            "kernels/ are; keep one set of files");
}

}  // namespace
}  // namespace clgrade
