// The red team against the sandbox, through the executable: each kernel in tests/sandbox runs
// system calls from inside an OpenCL kernel (PoCL compiles kernels to native code in the grading
// process) and the test asserts that nothing of it reaches outside the sandbox.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <vector>

#include "../scratch.h"
#include "sandbox/cgroup.h"
#include "sandbox/sandbox.h"
#include "util/cache_home.h"
#include "util/files.h"
#include "util/subprocess.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace clgrade {
namespace {

const std::string kCases = std::string(CLGRADE_SOURCE_DIR) + "/tests/sandbox";

/// Why these tests cannot run here ("" when they can): the kernels are x86-64 inline assembly for
/// a CPU device (PoCL), and need a sandbox to be contained by.
std::string skipReason() {
#if !defined(__x86_64__)
  return "the red-team kernels are x86-64 system calls";
#else
  if (!sandboxSupport().available) return "no sandbox can be made here: " + sandboxSupport().reason;
  const char* device = std::getenv("CLGRADE_TEST_DEVICE");
  if (device && *device && std::string(device) != "cpu") return "the red-team kernels need a CPU OpenCL device";
  return "";
#endif
}

fs::path outDir(const std::string& name) { return test::freshFolder("clgrade_sandbox", name, /*make=*/false); }

/// tests/sandbox/<name> with syscalls.h beside its kernel, as a submission folder next to `out`.
std::string submission(const std::string& name, const fs::path& out) {
  const fs::path dir = out.string() + "-submission";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(kCases + "/" + name + "/Convolution3x3.cl", dir / "Convolution3x3.cl");
  fs::copy_file(kCases + "/syscalls.h", dir / "syscalls.h");
  return dir.string();
}

/// Grades task conv3x3 of tests/sandbox/<name> on the CPU device; the report.
json grade(const std::string& name, const fs::path& out, int taskTimeout = 60,
           const std::vector<std::string>& extra = {}, const std::vector<int>& inherited = {}) {
  ProcessSpec spec;
  if (!inherited.empty()) spec.inheritFds = std::make_shared<const std::vector<int>>(inherited);
  spec.argv = {CLGRADE_EXECUTABLE,
               "grade",
               submission(name, out),
               "--task",
               "conv3x3",
               "--device",
               "cpu",
               "--out",
               out.string(),
               "--quiet",
               "--task-timeout",
               std::to_string(taskTimeout)};
  spec.argv.insert(spec.argv.end(), extra.begin(), extra.end());
  spec.timeoutSeconds = 240;
  spec.stdoutPath = (out.string() + ".stdout");
  spec.stderrPath = (out.string() + ".stderr");
  fs::create_directories(out.parent_path());
  const ProcessResult p = runProcess(spec);
  EXPECT_TRUE(p.ok()) << name << ": " << p.describe();
  std::string text, err;
  if (!readFile((out / "report.json").string(), &text, &err)) {
    ADD_FAILURE() << err;
    return json::object();
  }
  return json::parse(text);
}

std::string kernelOutput(const fs::path& out) {
  std::string text;
  readFile((out / "evidence/conv3x3/kernel_output.txt").string(), &text, nullptr);
  return text;
}

/// Processes of this machine whose command line contains `needle`.
int processesWith(const std::string& needle) {
  int n = 0;
  for (const fs::directory_entry& e : fs::directory_iterator("/proc")) {
    std::ifstream in(e.path() / "cmdline", std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    for (char& c : s)
      if (c == '\0') c = ' ';
    if (s.find(needle) != std::string::npos) ++n;
  }
  return n;
}

#define SKIP_WITHOUT_SANDBOX()             \
  do {                                     \
    const std::string why = skipReason();  \
    if (!why.empty()) GTEST_SKIP() << why; \
  } while (0)

TEST(Sandbox, SystemCallsReachNothingOutside) {
  SKIP_WITHOUT_SANDBOX();
  const std::string marker = "/tmp/clgrade_sandbox_escape";
  fs::remove(marker);
  const fs::path out = outDir("syscall_escape");
  const json report = grade("syscall_escape", out);
  const std::string printed = kernelOutput(out);
  // The shell ran (so the kernel did run its system calls) as the unprivileged uid, and its file
  // stayed inside the sandbox's own /tmp.
  EXPECT_NE(printed.find("uid=65534"), std::string::npos) << printed;
  EXPECT_EQ(printed.find("uid=0("), std::string::npos) << printed;
  EXPECT_FALSE(fs::exists(marker)) << "the kernel wrote " << marker << " on the grading machine";
  EXPECT_EQ(report["tasks"][0]["points"], 0.0);
  EXPECT_NE(report.value("sandbox", "").find("bubblewrap"), std::string::npos);
}

TEST(Sandbox, NothingOutlivesTheGrade) {
  SKIP_WITHOUT_SANDBOX();
  ASSERT_EQ(processesWith("sleep 417.25"), 0) << "a survivor of an earlier run is still alive";
  const fs::path out = outDir("setsid_survivor");
  grade("setsid_survivor", out);
  EXPECT_EQ(processesWith("sleep 417.25"), 0) << "the kernel's setsid process outlived the grade";
}

TEST(Sandbox, ForkBombIsContained) {
  SKIP_WITHOUT_SANDBOX();
  const fs::path out = outDir("fork_bomb");
  const auto start = std::chrono::steady_clock::now();
  const json report = grade("fork_bomb", out, 20);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const json& task = report["tasks"][0];
  EXPECT_EQ(task["points"], 0.0);
  EXPECT_NE(task["process"].value("outcome", ""), "ok") << task.dump();
  EXPECT_LT(seconds, 60.0);
  // The machine can still start processes, and nothing of the bomb is left.
  ProcessSpec probe;
  probe.argv = {"/bin/true"};
  EXPECT_TRUE(runProcess(probe).ok());
}

// Issue 27, item 1: a runner filling its scratch folder made another submission's results
// unwritable. Its scratch folder and cache have a quota: the task is stopped above it, and its
// files go with it.
TEST(Sandbox, AKernelFillingTheDiskIsStoppedAtItsQuota) {
  SKIP_WITHOUT_SANDBOX();
  const fs::path out = outDir("disk_filler");
  const json report = grade("disk_filler", out, 60, {"--task-disk", "64"});
  const json& task = report["tasks"][0];
  EXPECT_EQ(task["points"], 0.0);
  EXPECT_EQ(task["process"].value("outcome", ""), "disk") << task["process"].dump();
  EXPECT_NE(task.dump().find("more than 64 MiB into its scratch folder and compiler cache"), std::string::npos) << task.dump();
  EXPECT_LT(diskUsageBytes(out.string()), uint64_t(32) << 20) << "the filler's files were left behind";
  // The same through the compiler cache, the one writable folder the grades of a submission keep.
  const fs::path cached = outDir("cache_filler");
  const json viaCache = grade("cache_filler", cached, 60, {"--task-disk", "64"});
  EXPECT_EQ(viaCache["tasks"][0]["process"].value("outcome", ""), "disk") << viaCache["tasks"][0]["process"].dump();
  const fs::path cacheRoot = fs::path(cacheHome()) / "clgrade" / "pocl";
  uint64_t cacheLeft = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(cacheRoot, ec))
    for (const auto& file : fs::directory_iterator(entry.path(), ec))
      if (file.path().filename().string().rfind("fill", 0) == 0) cacheLeft += diskUsageBytes(file.path().string());
  EXPECT_EQ(cacheLeft, 0u) << "the filler's files were left in the compiler cache";
}

// Issue 27, item 1: the timing locks every runner of a grade opens are outside the scratch quota;
// bound writable, a kernel could fill the disk through them. Read-only: flock needs no write.
TEST(Sandbox, TheTimingLocksAreReadOnlyInside) {
  SKIP_WITHOUT_SANDBOX();
  const fs::path out = outDir("lock_writer");
  grade("lock_writer", out, 60, {"--task-jobs", "2"});  // tasks side by side: the grade's own lock
  const std::string printed = kernelOutput(out);
  EXPECT_NE(printed.find("lock=/"), std::string::npos) << "the kernel found no timing lock:\n" << printed;
  EXPECT_NE(printed.find("done"), std::string::npos) << printed;
  EXPECT_EQ(printed.find("WROTE"), std::string::npos) << "the kernel wrote into a lock:\n" << printed;
}

TEST(Sandbox, NoNetwork) {
  SKIP_WITHOUT_SANDBOX();
  // The kernel connects to 127.0.0.1:47613; the test listens there on the grading machine.
  const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener, 0);
  const int yes = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(47613);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || listen(listener, 8) != 0) {
    close(listener);
    GTEST_SKIP() << "port 47613 is in use on this machine";
  }
  const fs::path out = outDir("network");
  grade("network", out);
  const std::string printed = kernelOutput(out);
  EXPECT_NE(printed.find("connect=-111"), std::string::npos) << printed;  // ECONNREFUSED: its own loopback
  // Nothing reached the listener.
  fcntl(listener, F_SETFL, O_NONBLOCK);
  const int connection = accept(listener, nullptr, nullptr);
  EXPECT_LT(connection, 0) << "the kernel connected to the grading machine's loopback";
  if (connection >= 0) close(connection);
  close(listener);
}

TEST(Sandbox, ForgedReportScoresWhatItsOutputsEarn) {
  SKIP_WITHOUT_SANDBOX();
  const fs::path out = outDir("forged_report");
  const json report = grade("forged_report", out);
  EXPECT_EQ(report["tasks"][0]["points"], 0.0) << report["tasks"][0].dump();
}

TEST(Sandbox, ForgedSimulatorCountersEarnNoTechniquePoints) {
  SKIP_WITHOUT_SANDBOX();
  const fs::path out = outDir("forged_counters");
  const json report = grade("forged_counters", out);
  const json& task = report["tasks"][0];
  for (const json& check : task["checks"]) {
    if (check["id"] == "output") {
      EXPECT_EQ(check["status"], "passed") << check.dump();
    }
    // Judged from Oclgrind's own run in a sandbox the kernel's processes never see (Oclgrind cannot
    // even run this file's inline assembly); the counters the kernel wrote everywhere are never read.
    if (check["id"] == "bank_conflicts") {
      EXPECT_EQ(check["status"], "failed") << check.dump();
    }
  }
  EXPECT_LT(task["points"].get<double>(), task["max"].get<double>());
}

TEST(Sandbox, TheStoreOfInputsIsReadOnlyAndHoldsNoResults) {
  SKIP_WITHOUT_SANDBOX();
  const fs::path out = outDir("poison_store");
  const fs::path root = out.string() + "-store";
  fs::remove_all(root);
  grade("poison_store", out, 60, {"--cache-dir", root.string()});
  // The store of this clgrade build: the one folder below the root.
  fs::path inputs;
  for (const fs::directory_entry& e : fs::directory_iterator(root)) inputs = e.path() / "inputs";
  ASSERT_TRUE(fs::is_directory(inputs)) << inputs;
  const std::string printed = kernelOutput(out);
  EXPECT_NE(printed.find("mounted=" + inputs.string()), std::string::npos) << printed;  // it did see the store
  EXPECT_EQ(printed.find("wrote=0"), std::string::npos) << printed;
  EXPECT_EQ(printed.find("results=0"), std::string::npos) << printed;
  EXPECT_TRUE(fs::is_empty(inputs)) << "the kernel wrote into the store of inputs";
}

// The runner's request holds its task's file and rubric part (issue 26): neither the kernels folder
// nor the rubric file (with the other tasks' hidden cases) is in its sandbox.
TEST(Sandbox, TheRunnerSeesNeitherTheKernelsFolderNorTheRubric) {
  SKIP_WITHOUT_SANDBOX();
  const fs::path out = outDir("look_around");
  grade("look_around", out);
  const std::string printed = kernelOutput(out);
  EXPECT_NE(printed.find("request=/"), std::string::npos) << "the kernel did not find its request:\n" << printed;
  EXPECT_NE(printed.find("folder=/"), std::string::npos) << printed;
  EXPECT_NE(printed.find("listed="), std::string::npos) << printed;
  EXPECT_EQ(printed.find("listed=0"), std::string::npos) << "the runner listed the kernels folder:\n" << printed;
  EXPECT_NE(printed.find("read="), std::string::npos) << printed;
  EXPECT_EQ(printed.find("read=0"), std::string::npos) << "the runner read the rubric file:\n" << printed;
  EXPECT_NE(printed.find("tasks=1"), std::string::npos) << "the request holds more than its task:\n" << printed;
}

// clgrade started with a file of the machine open for writing (as a CI runner or a shell may leave
// one): the kernel finds no descriptor to it inside, reads nothing of it and writes nothing into it.
TEST(Sandbox, NoDescriptorOfWhateverStartedClgradeReachesTheKernel) {
  SKIP_WITHOUT_SANDBOX();
  const fs::path out = outDir("inherited_fds");
  const std::string hostFile = out.string() + "-clgrade_inherited.txt";
  const std::string secret = "CLGRADE-HOST-SECRET\n";
  fs::create_directories(out.parent_path());
  ASSERT_TRUE(writeFileAtomically(hostFile, secret, nullptr, false));
  const int fd = open(hostFile.c_str(), O_RDWR | O_APPEND | O_CLOEXEC);
  ASSERT_GE(fd, 3);
  grade("inherited_fds", out, 60, {}, {fd});
  close(fd);
  const std::string printed = kernelOutput(out);
  EXPECT_NE(printed.find("scanned"), std::string::npos) << "the kernel's script did not run:\n" << printed;
  EXPECT_EQ(printed.find("reached="), std::string::npos) << "a descriptor of the host file was inside:\n" << printed;
  EXPECT_EQ(printed.find("CLGRADE-HOST-SECRET"), std::string::npos) << printed;
  std::string after;
  ASSERT_TRUE(readFile(hostFile, &after, nullptr));
  EXPECT_EQ(after, secret) << "the kernel wrote into a file of the machine";
}

// Spec 5c: nothing that runs student code holds the run's hidden seed or the reference kernels. The
// kernel prints its runner's whole request and every kernel file it can find; neither the seed of
// this grade nor any reference or naive kernel file is among them.
TEST(Sandbox, TheKernelFindsNoHiddenSeedAndNoReferenceKernel) {
  SKIP_WITHOUT_SANDBOX();
  const fs::path out = outDir("secrets");
  const std::string seed = "4503599627370321";  // below 2^53, and a string no request holds by chance
  const json report = grade("secrets", out, 120, {"--seed", seed});
  EXPECT_EQ(report["reproducibility"]["hidden_seed"].dump(), seed) << "the grade ran with another seed";
  const std::string printed = kernelOutput(out);
  EXPECT_NE(printed.find("scanned"), std::string::npos) << "the kernel's script did not run:\n" << printed;
  EXPECT_NE(printed.find("clgrade-runner-request"), std::string::npos) << "it found no request to read:\n" << printed;
  EXPECT_EQ(printed.find(seed), std::string::npos) << "the hidden seed is inside the wall:\n" << printed;
  EXPECT_EQ(printed.find("kernel-file="), std::string::npos) << "a kernel file is inside the wall:\n" << printed;
}

// Issue 27: system calls no grading run needs (tracing, kcmp, personality, keyrings, io_uring) are
// refused from inside a kernel by the sandbox's filter; unfiltered each one answers otherwise.
TEST(Sandbox, TheSystemCallFilterRefusesWhatNoGradingRunNeeds) {
  SKIP_WITHOUT_SANDBOX();
  const fs::path out = outDir("syscall_filter");
  const json report = grade("syscall_filter", out);
  const std::string printed = kernelOutput(out);
  ASSERT_NE(printed.find("filtered"), std::string::npos) << "the kernel did not run its calls:\n" << printed;
  for (const char* call : {"ptrace", "kcmp", "personality", "keyctl", "io_uring_setup"})
    EXPECT_NE(printed.find(std::string(call) + "=-1\n"), std::string::npos) << call << " was not refused:\n" << printed;
  EXPECT_NE(report.value("sandbox", "").find("system-call filter"), std::string::npos) << report.value("sandbox", "");
}

/// Runs `script` with /bin/sh in a sandbox of `memory` bytes (its control group's limit).
ProcessResult inSandbox(const fs::path& dir, const std::string& script, uint64_t memory) {
  SandboxSpec box;
  box.scratch = (dir / "scratch").string();
  box.memoryBytes = memory;
  box.env = {{"PATH", "/usr/bin:/bin"}};
  fs::remove_all(box.scratch);
  ProcessSpec p;
  p.argv = {"/bin/sh", "-c", script};
  p.stdoutPath = (dir / "out").string();
  p.stderrPath = (dir / "err").string();
  p.timeoutSeconds = 60;
  std::string err;
  EXPECT_TRUE(sandboxProcess(box, &p, &err)) << err;
  return runProcess(p);
}

// Issue 27: a sandbox's control group holds its memory, what it puts in a tmpfs included (the
// resident-size watch sees neither a file in memory nor a burst between two of its samples).
TEST(Sandbox, ItsControlGroupBoundsMemoryTmpfsIncluded) {
  SKIP_WITHOUT_SANDBOX();
  if (!cgroupSupport().available) GTEST_SKIP() << cgroupSupport().reason;
  const fs::path dir = outDir("cgroup_memory");
  fs::create_directories(dir);
  const ProcessResult burst = inSandbox(dir, "exec dd if=/dev/zero of=/dev/null bs=200M count=1", uint64_t(48) << 20);
  EXPECT_TRUE(burst.memoryExceeded) << burst.describe();
  const ProcessResult tmpfs =
      inSandbox(dir, "exec dd if=/dev/zero of=/dev/shm/fill bs=1M count=60 2>&1", uint64_t(32) << 20);
  EXPECT_TRUE(tmpfs.memoryExceeded) << tmpfs.describe();
  EXPECT_LE(tmpfs.peakResidentBytes, uint64_t(33) << 20);
  const ProcessResult within = inSandbox(dir, "exec dd if=/dev/zero of=/dev/shm/fill bs=1M count=8 2>&1", uint64_t(32) << 20);
  EXPECT_TRUE(within.ok()) << within.describe();
  EXPECT_NE(cgroupDescription().find("per sandbox"), std::string::npos) << cgroupDescription();
}

// A group's task limit holds whatever the uid (RLIMIT_NPROC counts per uid: a keeper that is not
// root shares its own with every sandbox), and what is left in a group when it goes is killed.
TEST(Sandbox, AControlGroupCountsItsTasks) {
  if (!cgroupSupport().available) GTEST_SKIP() << cgroupSupport().reason;
  const std::vector<std::string>& controllers = cgroupSupport().controllers;
  if (std::find(controllers.begin(), controllers.end(), "pids") == controllers.end())
    GTEST_SKIP() << cgroupDescription();
  const fs::path dir = outDir("cgroup_tasks");
  fs::create_directories(dir);
  std::string err;
  std::shared_ptr<SandboxCgroup> group = SandboxCgroup::make({0, 10}, &err);
  ASSERT_TRUE(group) << err;
  ProcessSpec p;
  p.argv = {"/bin/sh", "-c", "for i in $(seq 30); do sleep 31.75 & done; echo started; exit 0"};
  p.joinGroups = group->procsFiles();
  p.stdoutPath = (dir / "out").string();
  p.stderrPath = (dir / "err").string();
  p.timeoutSeconds = 60;
  p.dieWithParent = false;
  const ProcessResult r = runProcess(p);
  std::string errors;
  readFile((dir / "err").string(), &errors, nullptr);
  EXPECT_NE(errors.find("fork"), std::string::npos) << "30 processes started in a group of 10 tasks: " << errors;
  EXPECT_GT(processesWith("sleep 31.75"), 0) << "its sleeps should still be running in the group";
  group.reset();  // kills what is left and removes the group
  for (int i = 0; i < 100 && processesWith("sleep 31.75") > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // killed, perhaps not yet reaped
  EXPECT_EQ(processesWith("sleep 31.75"), 0);
  (void)r;
}

// A container started with --cpus shows every core to sched_getaffinity: a batch counts its jobs on
// the cores its groups' CPU quota lends (sandbox/cgroup.h, cpuQuotaCores). This process joins a
// group of one CPU's quota for the look, then goes back.
TEST(Sandbox, TheCpuQuotaOfThisProcesssGroupIsSeen) {
  if (!cgroupSupport().available) GTEST_SKIP() << cgroupSupport().reason;
  const CgroupSupport& s = cgroupSupport();
  const auto cpu = std::find(s.controllers.begin(), s.controllers.end(), "cpu");
  if (cpu == s.controllers.end()) GTEST_SKIP() << cgroupDescription();
  const std::string parent = s.version == 2 ? s.parents.front() : s.parents[size_t(cpu - s.controllers.begin())];
  const std::string group = parent + "/clgrade-quota-test-" + std::to_string(getpid());
  ASSERT_TRUE(fs::create_directory(group)) << group;
  auto write = [](const std::string& file, const std::string& text) {
    std::ofstream out(file);
    out << text << std::flush;
    return bool(out);
  };
  const bool limited =
      s.version == 2 ? write(group + "/cpu.max", "100000 100000") : write(group + "/cpu.cfs_quota_us", "100000");
  const int before = cpuQuotaCores();
  int inside = -1;
  if (limited && write(group + "/cgroup.procs", "0")) {
    inside = cpuQuotaCores();
    EXPECT_TRUE(write(parent + "/cgroup.procs", "0")) << "back to " << parent;
  }
  rmdir(group.c_str());
  ASSERT_TRUE(limited) << "no quota could be written in " << group;
  EXPECT_EQ(inside, 1) << "a quota of one CPU in " << group << " (" << before << " outside it)";
}

// A clgrade killed before it removed its groups leaves them behind under its process id, which a
// later clgrade can have: its sandboxes are still made (a resumed batch once lost its probe to
// "File exists" and called the machine faulty).
TEST(Sandbox, AGroupLeftByAKilledClgradeOfTheSamePidIsNoFault) {
  if (!cgroupSupport().available) GTEST_SKIP() << cgroupSupport().reason;
  std::string err;
  std::shared_ptr<SandboxCgroup> first = SandboxCgroup::make({uint64_t(64) << 20, 10}, &err);
  ASSERT_TRUE(first) << err;
  // Its name is clgrade-<pid>-<n>: the next ones are taken as a killed run would have left them.
  const std::vector<std::string> files = first->procsFiles();
  const std::string folder = fs::path(files.front()).parent_path().string();
  const size_t dash = folder.rfind('-');
  const std::string stem = folder.substr(0, dash + 1);
  const unsigned n = std::stoul(folder.substr(dash + 1));
  std::vector<std::string> left;
  for (const std::string& f : files)
    for (unsigned k = 1; k <= 2; ++k) {
      const fs::path parent = fs::path(f).parent_path().parent_path();
      left.push_back((parent / (fs::path(stem).filename().string() + std::to_string(n + k))).string());
      ASSERT_EQ(mkdir(left.back().c_str(), 0755), 0) << left.back() << ": " << std::strerror(errno);
    }
  std::shared_ptr<SandboxCgroup> next = SandboxCgroup::make({uint64_t(64) << 20, 10}, &err);
  EXPECT_TRUE(next) << err;
  next.reset();
  first.reset();
  for (const std::string& f : left) rmdir(f.c_str());
  for (const std::string& f : left) EXPECT_FALSE(fs::exists(f)) << f;
}

// What a sandbox must read but its uid cannot reach (a build under /root) is copied for that sandbox
// alone: the copy is what the file holds now (never an older copy kept because its date looked
// newer), no other user can read it, and it goes with the scratch folder.
TEST(Sandbox, WhatItCannotReachIsStagedForItAloneAsItIsNow) {
  if (geteuid() != 0) GTEST_SKIP() << "only a sandbox of another uid (as root) needs copies";
  if (!sandboxSupport().available) GTEST_SKIP() << sandboxSupport().reason;
  const fs::path dir = outDir("staging");
  const fs::path closed = dir / "closed", scratch = dir / "scratch";
  fs::create_directories(closed);
  fs::permissions(dir, fs::perms(0755));
  fs::permissions(closed, fs::perms(0700));
  const std::string file = (closed / "data.txt").string();
  auto seen = [&](const std::string& content, std::time_t mtime) {
    EXPECT_TRUE(writeFileAtomically(file, content, nullptr, false));
    fs::permissions(file, fs::perms(0644));
    const struct timespec times[2] = {{mtime, 0}, {mtime, 0}};
    utimensat(AT_FDCWD, file.c_str(), times, 0);
    fs::remove_all(scratch);
    SandboxSpec box;
    box.scratch = scratch.string();
    box.mounts = {{file, false}};
    box.env = {{"PATH", "/usr/bin:/bin"}};
    ProcessSpec p;
    p.argv = {"/bin/cat", file};
    p.stdoutPath = (dir / "out").string();
    p.timeoutSeconds = 30;
    std::string err;
    EXPECT_TRUE(sandboxProcess(box, &p, &err)) << err;
    const ProcessResult r = runProcess(p);
    EXPECT_TRUE(r.ok()) << r.describe();
    const fs::perms staged = fs::status(scratch / ".staged").permissions();
    EXPECT_EQ(staged & fs::perms::others_all, fs::perms::none) << "other users can enter the staging folder";
    std::string out;
    readFile(p.stdoutPath, &out, nullptr);
    return out;
  };
  const std::time_t now = std::time(nullptr);
  EXPECT_EQ(seen("the reference's file", now), "the reference's file");
  EXPECT_EQ(seen("the template's file!", now - 3600), "the template's file!") << "an older copy was used";
  EXPECT_FALSE(fs::exists("/var/cache/clgrade/staging")) << "a staging folder every user can read";
}

// A sandbox's root and /dev were tmpfs folders a kernel could fill (1.5 GB under a 256 MiB limit), and
// it could make nested user namespaces. Where this bwrap takes the hardening, the report says so and the
// kernel gets neither; where it does not, the report says why.
TEST(Sandbox, NoNestedUserNamespacesAndNoWritableRootOrDev) {
  SKIP_WITHOUT_SANDBOX();
  const fs::path out = outDir("hardening");
  const json report = grade("hardening", out);
  const std::string line = report.value("sandbox", "");
  const std::string printed = kernelOutput(out);
  ASSERT_NE(printed.find("shm="), std::string::npos) << "the kernel's script did not run:\n" << printed;
  if (line.find("no nested user namespaces") == std::string::npos) {
    EXPECT_NE(line.find("nested user namespaces allowed"), std::string::npos) << "no reason given: " << line;
    GTEST_SKIP() << "this bwrap does not take the hardening: " << line;
  }
  EXPECT_NE(printed.find("userns=no"), std::string::npos) << printed;
  EXPECT_NE(printed.find("rootwrite=no"), std::string::npos) << printed;
  EXPECT_NE(printed.find("devwrite=no"), std::string::npos) << printed;
  const size_t at = printed.find("shm=");
  EXPECT_LE(std::atoi(printed.c_str() + at + 4), 64) << printed;
}

TEST(Sandbox, InProcessNeedsNoSandboxConfirmed) {
  ProcessSpec spec;
  spec.argv = {CLGRADE_EXECUTABLE, "grade", kCases + "/syscall_escape",   "--in-process",
               "--quiet",          "--out", outDir("in_process").string()};
  spec.timeoutSeconds = 60;
  const ProcessResult p = runProcess(spec);
  EXPECT_EQ(p.exitCode, 2) << p.describe();
}

}  // namespace
}  // namespace clgrade
