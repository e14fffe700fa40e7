// One counters session for every task of a submission (keeper/hardware_session.h), with a stand-in
// for the sandboxed session that writes ncu's CSV: each task gets its own rows under its own kernel
// names, a session that ends early is made up for task by task, and who counts takes its turn on
// the profiler lock or not.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "counters/nvidia/ptx_accesses.h"
#include "keeper/hardware_session.h"
#include "model/report.h"
#include "protocol/profiler_files.h"
#include "protocol/tape.h"
#include "rubric/rubric.h"
#include "runner/session_args.h"
#include "util/files.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

std::string row(int id, const std::string& kernel, const std::string& metric, const std::string& value) {
  return "\"" + std::to_string(id) + "\",\"4242\",\"clgrade\",\"127.0.0.1\",\"" + kernel +
         "\",\"1\",\"7\",\"(32, 16, 1)\",\"(25, 36, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"" + metric +
         "\",\"\",\"" + value + "\"\n";
}

std::string launch(int id, const std::string& kernel, int storeConflicts) {
  return row(id, kernel, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "0") +
         row(id, kernel, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", std::to_string(storeConflicts)) +
         row(id, kernel, "smsp__sass_inst_executed_op_shared_ld.sum", "700") +
         row(id, kernel, "smsp__sass_inst_executed_op_shared_st.sum", "420");
}

const char* const kHeader =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";

struct Fixture {
  SessionRequest request;
  std::vector<std::vector<std::string>> calls;  // the tasks of each profiled run
  fs::path dir = fs::temp_directory_path() / ("clgrade-session-" + std::to_string(::getpid()));
  ~Fixture() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  Fixture() {
    fs::remove_all(dir);
    fs::create_directories(dir / "work");
    fs::create_directories(dir / "report");
    request.ncu = "ncu";
    request.clgrade = "clgrade";
    request.kernelsDir = "kernels";
    request.rubricPath = "rubric.xml";
    request.tasks = {"separable", "bilateral"};
    request.workDir = (dir / "work").string();
    request.logDir = (dir / "work").string();
    request.reportDir = (dir / "report").string();
  }
  /// A profiler that writes what `csvFor` says for the tasks it is asked to profile.
  ProfiledRunner runner(std::function<std::pair<std::string, bool>(const std::vector<std::string>&)> csvFor) {
    return [this, csvFor](const std::vector<std::string>& argv, double, const std::string&) {
      std::vector<std::string> tasks;
      std::string csvPath;
      for (size_t i = 0; i + 1 < argv.size(); ++i) {
        if (argv[i] == "--task") tasks.push_back(argv[i + 1]);
        if (argv[i] == "--log-file") csvPath = argv[i + 1];
      }
      calls.push_back(tasks);
      const auto [csv, ok] = csvFor(tasks);
      writeFileAtomically(csvPath, csv, nullptr);
      ProcessResult p;
      p.started = true;
      p.exitCode = ok ? 0 : -1;
      p.timedOut = !ok;
      return p;
    };
  }
};

TEST(HardwareSession, OneRunCountsEveryTaskUnderItsOwnKernelNames) {
  Fixture f;
  const auto counted = runHardwareSession(f.request, f.runner([](const std::vector<std::string>&) {
    return std::make_pair(std::string(kHeader) + launch(0, "separable__ConvVertical", 0) +
                              launch(1, "bilateral__ConvVertical", 96) +
                              launch(2, "bilateral__DiscontinuityHorizontal", 0),
                          true);
  }));
  ASSERT_EQ(f.calls.size(), 1u) << "one session for both tasks";
  EXPECT_EQ(f.calls[0], (std::vector<std::string>{"separable", "bilateral"}));
  const HardwareRun& separable = counted.at("separable");
  ASSERT_EQ(separable.outcome, HardwareRun::Outcome::Ran);
  ASSERT_EQ(separable.counts.size(), 1u);
  EXPECT_EQ(separable.counts[0].kernel, "ConvVertical");
  EXPECT_EQ(separable.counts[0].sharedStoreConflicts, 0);
  const HardwareRun& bilateral = counted.at("bilateral");
  ASSERT_EQ(bilateral.counts.size(), 2u);
  EXPECT_EQ(bilateral.counts[0].kernel, "ConvVertical");
  EXPECT_EQ(bilateral.counts[0].sharedStoreConflicts, 96) << "the other task's kernel of the same name";
  // Each task's evidence holds its own rows only.
  std::string csv;
  ASSERT_TRUE(readFile(f.request.reportDir + "/" + separable.logPath, &csv, nullptr));
  EXPECT_NE(csv.find("separable__ConvVertical"), std::string::npos);
  EXPECT_EQ(csv.find("bilateral__"), std::string::npos);
}

TEST(HardwareSession, ATaskWithoutRowsInASessionThatEndedWellFailsAlone) {
  Fixture f;
  const auto counted = runHardwareSession(f.request, f.runner([](const std::vector<std::string>&) {
    return std::make_pair(std::string(kHeader) + launch(0, "separable__ConvVertical", 0), true);
  }));
  EXPECT_EQ(f.calls.size(), 1u) << "nothing to make up for: the bilateral file did not run";
  EXPECT_EQ(counted.at("separable").outcome, HardwareRun::Outcome::Ran);
  EXPECT_EQ(counted.at("bilateral").outcome, HardwareRun::Outcome::Failed);
  EXPECT_NE(counted.at("bilateral").message.find("counted no kernel of bilateral"), std::string::npos);
}

TEST(HardwareSession, ASessionStoppedEarlyIsMadeUpTaskByTask) {
  Fixture f;
  // The session ends (time-out) after the separable task's rows; the bilateral kernel never ends.
  const auto counted = runHardwareSession(f.request, f.runner([](const std::vector<std::string>& tasks) {
    if (tasks.size() > 1) return std::make_pair(std::string(kHeader) + launch(0, "separable__ConvVertical", 0), false);
    if (tasks[0] == "separable")
      return std::make_pair(std::string(kHeader) + launch(0, "separable__ConvVertical", 0), true);
    return std::make_pair(std::string("==PROF== Connected\n"), false);
  }));
  ASSERT_EQ(f.calls.size(), 2u) << "only the task without counts is profiled again";
  EXPECT_EQ(f.calls[1], (std::vector<std::string>{"bilateral"}));
  EXPECT_EQ(counted.at("separable").outcome, HardwareRun::Outcome::Ran);
  EXPECT_EQ(counted.at("bilateral").outcome, HardwareRun::Outcome::Failed);
  EXPECT_NE(counted.at("bilateral").message.find("ended early"), std::string::npos);
}

/// The record hwcount leaves for a kernel it could not count.
std::string errorRecord(const std::string& kernel, const std::string& why) {
  return "clgrade atomics record 1\nkernel " + kernel + "\nwork_groups 0\nerror " + why + "\n";
}

TEST(HardwareSession, AtomicsAreCountedInTheCountersReplayAndTheirRecordIsChecked) {
  Fixture f;
  f.request.tasks = {"separable", "histogram"};
  f.request.atomics["histogram"] = {"compute_histogram_local_memory", "other_kernel"};
  std::vector<std::string> asked;
  ProfiledRunner counters = f.runner([](const std::vector<std::string>&) {
    return std::make_pair(std::string(kHeader) + launch(0, "separable__ConvVertical", 0) +
                              launch(1, "histogram__compute_histogram_local_memory", 0),
                          true);
  });
  const auto counted =
      runHardwareSession(f.request, [&](const std::vector<std::string>& argv, double t, const std::string& log) {
        for (size_t i = 0; i + 1 < argv.size(); ++i)
          if (argv[i] == "--atomics") asked.push_back(argv[i + 1]);
        // The first run's bytes say ncu was not there; the second's are no record at all.
        writeFileAtomically(atomicsRecordPath(f.request.workDir, "histogram", "compute_histogram_local_memory"),
                            errorRecord("compute_histogram_local_memory", "no CUDA in this sandbox"), nullptr);
        writeFileAtomically(atomicsRecordPath(f.request.workDir, "histogram", "other_kernel"), "\x01garbage", nullptr);
        return counters(argv, t, log);
      });
  ASSERT_EQ(f.calls.size(), 1u) << "one sandboxed session for the counters and the atomics";
  EXPECT_EQ(asked, (std::vector<std::string>{"histogram:compute_histogram_local_memory", "histogram:other_kernel"}));
  EXPECT_TRUE(counted.at("separable").atomics.empty());
  const HardwareRun& histogram = counted.at("histogram");
  EXPECT_EQ(histogram.outcome, HardwareRun::Outcome::Ran);
  ASSERT_EQ(histogram.atomics.size(), 2u);
  EXPECT_EQ(histogram.atomics[0].kernel, "compute_histogram_local_memory");
  EXPECT_NE(histogram.atomics[0].outcome, HardwareRun::Outcome::Ran);
  EXPECT_NE(histogram.atomics[0].message.find("could not be counted: no CUDA in this sandbox"), std::string::npos)
      << histogram.atomics[0].message;
  EXPECT_EQ(histogram.atomics[1].outcome, HardwareRun::Outcome::Failed);
  EXPECT_NE(histogram.atomics[1].message.find("does not read"), std::string::npos) << histogram.atomics[1].message;
}

// A grade's session runs each atomics kernel at the drawn case too; its record is read as the
// task's drawn atomics (a check's session asks for none).
TEST(HardwareSession, AGradesAtomicsRunsCountTheDrawnCaseToo) {
  Fixture f;
  f.request.tasks = {"histogram"};
  f.request.atomics["histogram"] = {"compute_histogram_local_memory"};
  f.request.seeds = HiddenSeeds{5, 6, 7, 8};
  ProfiledRunner counters = f.runner([](const std::vector<std::string>&) {
    return std::make_pair(std::string(kHeader) + launch(0, "histogram__compute_histogram_local_memory", 0) +
                              launch(1, "drawn_histogram__compute_histogram_local_memory", 0),
                          true);
  });
  const auto counted =
      runHardwareSession(f.request, [&](const std::vector<std::string>& argv, double t, const std::string& log) {
        writeFileAtomically(atomicsRecordPath(f.request.workDir, "histogram", "compute_histogram_local_memory"),
                            errorRecord("compute_histogram_local_memory", "the analysis case's"), nullptr);
        writeFileAtomically(atomicsRecordPath(f.request.workDir, "histogram", "compute_histogram_local_memory.drawn"),
                            errorRecord("compute_histogram_local_memory", "the drawn case's"), nullptr);
        return counters(argv, t, log);
      });
  const HardwareRun& histogram = counted.at("histogram");
  ASSERT_EQ(histogram.atomics.size(), 1u);
  EXPECT_NE(histogram.atomics[0].message.find("the analysis case's"), std::string::npos);
  ASSERT_EQ(histogram.drawnAtomics.size(), 1u);
  EXPECT_EQ(histogram.drawnAtomics[0].kernel, "compute_histogram_local_memory");
  EXPECT_NE(histogram.drawnAtomics[0].message.find("the drawn case's"), std::string::npos);
  EXPECT_EQ(histogram.drawnCounts.size(), 1u);
}

TEST(HardwareSession, AtomicsRunsLeftBehindAreSaidSo) {
  Fixture f;
  f.request.tasks = {"histogram"};
  f.request.atomics["histogram"] = {"compute_histogram_local_memory"};
  const auto counted = runHardwareSession(f.request, f.runner([](const std::vector<std::string>&) {
    return std::make_pair(std::string(kHeader) + launch(0, "histogram__compute_histogram_local_memory", 0), true);
  }));
  ASSERT_EQ(counted.at("histogram").atomics.size(), 1u);
  EXPECT_NE(counted.at("histogram").atomics[0].message.find("left no atomics count"), std::string::npos);
}

// A session stopped (a kernel that never ends) after a task's counters but before its atomics run
// left a record: that task's atomics run is made again alone, its counters kept.
TEST(HardwareSession, AnAtomicsRunStoppedWithTheSessionIsMadeAgain) {
  Fixture f;
  f.request.tasks = {"separable", "histogram"};
  f.request.atomics["histogram"] = {"compute_histogram_local_memory"};
  ProfiledRunner counters = f.runner([](const std::vector<std::string>& tasks) {
    return std::make_pair(std::string(kHeader) + launch(0, "histogram__compute_histogram_local_memory", 0) +
                              (tasks.size() > 1 ? launch(1, "separable__ConvVertical", 0) : ""),
                          tasks.size() == 1);
  });
  const auto counted =
      runHardwareSession(f.request, [&](const std::vector<std::string>& argv, double t, const std::string& log) {
        if (f.calls.size() == 1)  // the second run, histogram alone: its atomics run ends
          writeFileAtomically(atomicsRecordPath(f.request.workDir, "histogram", "compute_histogram_local_memory"),
                              errorRecord("compute_histogram_local_memory", "counted again"), nullptr);
        return counters(argv, t, log);
      });
  ASSERT_EQ(f.calls.size(), 2u);
  EXPECT_EQ(f.calls[1], (std::vector<std::string>{"histogram"}));
  const HardwareRun& histogram = counted.at("histogram");
  EXPECT_EQ(histogram.outcome, HardwareRun::Outcome::Ran);
  ASSERT_EQ(histogram.atomics.size(), 1u);
  EXPECT_NE(histogram.atomics[0].message.find("counted again"), std::string::npos);
  EXPECT_EQ(counted.at("separable").outcome, HardwareRun::Outcome::Ran);
}

// Spec 5c: a grade's session counts each task's drawn analysis case too (drawn_<task>__<kernel>),
// asked with the hidden seeds; its rows are the task's drawn counts, never another task's.
TEST(HardwareSession, AGradesSessionCountsTheDrawnCaseUnderItsOwnNames) {
  Fixture f;
  f.request.seeds = HiddenSeeds{1, 2, 3, 4};
  std::vector<std::string> argv;
  const auto counted =
      runHardwareSession(f.request, [&](const std::vector<std::string>& a, double t, const std::string& log) {
        argv = a;
        return f.runner([](const std::vector<std::string>&) {
          return std::make_pair(std::string(kHeader) + launch(0, "separable__ConvVertical", 0) +
                                    launch(1, "drawn_separable__ConvVertical", 4) +
                                    launch(2, "bilateral__ConvVertical", 96) +
                                    launch(3, "drawn_bilateral__ConvVertical", 32),
                                true);
        })(a, t, log);
      });
  const std::string joined = [&] {
    std::string j;
    for (const std::string& a : argv) j += a + " ";
    return j;
  }();
  EXPECT_NE(joined.find("--hidden-seeds 1 2 3 4 "), std::string::npos) << joined;
  const HardwareRun& separable = counted.at("separable");
  EXPECT_TRUE(separable.drawnAsked);
  ASSERT_EQ(separable.counts.size(), 1u);
  ASSERT_EQ(separable.drawnCounts.size(), 1u);
  EXPECT_EQ(separable.drawnCounts[0].kernel, "ConvVertical");
  EXPECT_EQ(separable.drawnCounts[0].sharedStoreConflicts, 4);
  EXPECT_EQ(counted.at("bilateral").drawnCounts.at(0).sharedStoreConflicts, 32);
  std::string csv;
  ASSERT_TRUE(readFile(f.request.reportDir + "/" + separable.logPath, &csv, nullptr));
  EXPECT_EQ(csv.find("bilateral__"), std::string::npos) << "another task's drawn rows";
  // A check's session (no seeds) asks for no drawn case.
  Fixture g;
  const auto checked = runHardwareSession(g.request, g.runner([](const std::vector<std::string>&) {
    return std::make_pair(std::string(kHeader) + launch(0, "separable__ConvVertical", 0), true);
  }));
  EXPECT_FALSE(checked.at("separable").drawnAsked);
}

// Issue 27, item 3: counters the machine could not take are not a student's 0.
TEST(HardwareSession, ASessionThatCannotStartOrHasNoPermissionIsTheMachinesFault) {
  Fixture f;
  auto counted = runHardwareSession(f.request, [](const std::vector<std::string>&, double, const std::string&) {
    ProcessResult p;
    p.error = "bwrap: execvp ncu: No such file or directory";
    return p;
  });
  for (const std::string task : {"separable", "bilateral"}) {
    EXPECT_EQ(counted.at(task).outcome, HardwareRun::Outcome::Failed);
    EXPECT_TRUE(counted.at(task).machineFault) << task;
    EXPECT_NE(counted.at(task).message.find("could not start"), std::string::npos) << counted.at(task).message;
  }
  Fixture g;
  counted = runHardwareSession(g.request, g.runner([](const std::vector<std::string>&) {
    return std::make_pair(std::string("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access "
                                      "NVIDIA GPU Performance Counters on the target device 0.\n"),
                          true);
  }));
  EXPECT_EQ(counted.at("separable").outcome, HardwareRun::Outcome::Unavailable);
  EXPECT_TRUE(counted.at("separable").machineFault);
  // ncu that ends with an error before the profiled process connects (a broken installation).
  Fixture h;
  counted = runHardwareSession(h.request, [&h](const std::vector<std::string>&, double, const std::string&) {
    h.calls.push_back({});
    ProcessResult p;
    p.started = true;
    p.exitCode = 1;
    return p;
  });
  EXPECT_TRUE(counted.at("bilateral").machineFault) << counted.at("bilateral").message;
}

TEST(HardwareSession, ASessionAKernelStoppedIsNotTheMachines) {
  Fixture f;
  const auto counted = runHardwareSession(f.request, f.runner([](const std::vector<std::string>&) {
    return std::make_pair(std::string("==PROF== Connected\n"), false);  // timed out
  }));
  for (const std::string task : {"separable", "bilateral"}) {
    EXPECT_EQ(counted.at(task).outcome, HardwareRun::Outcome::Failed);
    EXPECT_FALSE(counted.at(task).machineFault) << task;
  }
}

TEST(HardwareSession, ATechniqueLeftUnmeasuredByTheMachinesCountersIsNotGraded) {
  Rubric rubric;
  std::vector<std::string> problems;
  ASSERT_TRUE(loadRubric(std::string(CLGRADE_SOURCE_DIR) + "/rubrics/four_tasks.xml", &rubric, &problems));
  auto taskWith = [](const std::string& id, const std::string& criterion, Status status) {
    TaskReport t;
    t.id = id;
    CriterionResult r;
    r.id = criterion;
    r.status = status;
    t.criteria.push_back(r);
    return t;
  };
  GradeReport report;
  report.tasks = {taskWith("histogram", "local_memory", Status::NotMeasured),
                  taskWith("conv3x3", "convolution", Status::NotMeasured),
                  taskWith("bilateral", "discontinuity_local_memory", Status::Passed)};
  GradeReport kernelsDoing = report;
  HardwareRun fault;
  fault.outcome = HardwareRun::Outcome::Unavailable;
  fault.machineFault = true;
  fault.message = "ncu has no permission to read the GPU's performance counters (ERR_NVGPUCTRPERM)";
  markUncountedTechnique(rubric, {{"histogram", fault}, {"conv3x3", fault}, {"bilateral", fault}}, &report);
  EXPECT_NE(report.tasks[0].machineFault.find("ERR_NVGPUCTRPERM"), std::string::npos) << "its technique is unjudged";
  EXPECT_TRUE(report.tasks[1].machineFault.empty()) << "an output criterion: not the counters'";
  EXPECT_TRUE(report.tasks[2].machineFault.empty()) << "judged anyway (the simulator)";
  HardwareRun stopped = fault;
  stopped.outcome = HardwareRun::Outcome::Failed;
  stopped.machineFault = false;
  markUncountedTechnique(rubric, {{"histogram", stopped}}, &kernelsDoing);
  EXPECT_TRUE(kernelsDoing.tasks[0].machineFault.empty()) << "the counters failed for the kernel's reasons";
  kernelsDoing.tasks[0].process.recorded = true;
  kernelsDoing.tasks[0].process.outcome = "signal SIGSEGV";
  markUncountedTechnique(rubric, {{"histogram", fault}}, &kernelsDoing);
  EXPECT_TRUE(kernelsDoing.tasks[0].machineFault.empty()) << "its own runner did not run well either";
}

// Issue 29: only the counters a rule reads are profiled. The store-conflict rule's kernel alone for
// conv3x3 (rows of its other kernels, as CUPTI would give them, are not kept), and the histogram,
// whose only hardware rule is on atomics, is replayed for them without being profiled: its share is
// counted, with no counts and no ncu evidence of its own.
TEST(HardwareSession, OnlyTheKernelsWhoseCountersARuleReadsAreProfiled) {
  Fixture f;
  f.request.tasks = {"conv3x3", "histogram"};
  f.request.profiled.emplace();
  (*f.request.profiled)["conv3x3"] = {"Convolution"};
  f.request.atomics["histogram"] = {"compute_histogram_local_memory"};
  std::vector<std::string> argv;
  ProfiledRunner counters = f.runner([](const std::vector<std::string>&) {
    return std::make_pair(std::string(kHeader) + launch(0, "conv3x3__Convolution", 0) +
                              launch(1, "conv3x3__Helper", 64),
                          true);
  });
  const auto counted =
      runHardwareSession(f.request, [&](const std::vector<std::string>& a, double t, const std::string& log) {
        argv = a;
        writeFileAtomically(atomicsRecordPath(f.request.workDir, "histogram", "compute_histogram_local_memory"),
                            "clgrade atomics record 1\nkernel compute_histogram_local_memory\nwork_groups 21\n"
                            "site 7 shared 3700 0 atom.shared.add.u32\n",
                            nullptr);
        return counters(a, t, log);
      });
  std::string joined;
  for (const std::string& a : argv) joined += a + " ";
  EXPECT_NE(joined.find("--profile conv3x3:Convolution "), std::string::npos) << joined;
  EXPECT_EQ(joined.find("--profile histogram"), std::string::npos) << joined;
  EXPECT_EQ(joined.find("--profile-none"), std::string::npos) << joined;
  const HardwareRun& conv = counted.at("conv3x3");
  ASSERT_EQ(conv.outcome, HardwareRun::Outcome::Ran);
  ASSERT_EQ(conv.counts.size(), 1u);
  EXPECT_EQ(conv.counts[0].kernel, "Convolution");
  const HardwareRun& histogram = counted.at("histogram");
  EXPECT_EQ(histogram.outcome, HardwareRun::Outcome::Ran) << histogram.message;
  EXPECT_TRUE(histogram.counts.empty());
  EXPECT_TRUE(histogram.logPath.empty()) << "no ncu evidence for a task ncu did not profile";
  EXPECT_FALSE(histogram.machineFault);
  ASSERT_EQ(histogram.atomics.size(), 1u);
  EXPECT_EQ(histogram.atomics[0].outcome, HardwareRun::Outcome::Ran) << histogram.atomics[0].message;
}

// A session whose tasks' rules read no counters at all starts no profiler (hwsession --profile-none).
TEST(HardwareSession, ASessionForAtomicsAloneAsksForNoCounters) {
  Fixture f;
  f.request.tasks = {"histogram"};
  f.request.profiled.emplace();
  f.request.atomics["histogram"] = {"compute_histogram_local_memory"};
  std::vector<std::string> argv;
  ProfiledRunner counters = f.runner([](const std::vector<std::string>&) {
    return std::make_pair(std::string("==PROF== clgrade hwsession: no counters asked for\n"), true);
  });
  const auto counted =
      runHardwareSession(f.request, [&](const std::vector<std::string>& a, double t, const std::string& log) {
        argv = a;
        return counters(a, t, log);
      });
  EXPECT_NE(std::find(argv.begin(), argv.end(), "--profile-none"), argv.end());
  EXPECT_EQ(std::find(argv.begin(), argv.end(), "--profile"), argv.end());
  EXPECT_EQ(counted.at("histogram").outcome, HardwareRun::Outcome::Ran);
  EXPECT_FALSE(counted.at("histogram").drawnAsked);  // a check's session: no seeds, no drawn case

  // A grade's session asks its drawn case of a task whose atomics it counts, though its rules read no
  // counters: the histogram's technique at the drawn case went unjudged on a GPU before.
  f.request.seeds = HiddenSeeds{1, 2, 3, 4};
  const auto graded = runHardwareSession(f.request, counters);
  EXPECT_TRUE(graded.at("histogram").drawnAsked);
  EXPECT_EQ(graded.at("histogram").drawnAtomics.size(), 1u);
}

// A task replayed for its atomics alone shares the session's machine faults: a session that could
// not start leaves its technique to be graded again, not unmeasured against the student.
TEST(HardwareSession, ATaskReplayedForItsAtomicsAloneSharesTheMachinesFault) {
  Fixture f;
  f.request.tasks = {"conv3x3", "histogram"};
  f.request.profiled.emplace();
  (*f.request.profiled)["conv3x3"] = {"Convolution"};
  f.request.atomics["histogram"] = {"compute_histogram_local_memory"};
  const auto counted = runHardwareSession(f.request, [](const std::vector<std::string>&, double, const std::string&) {
    ProcessResult p;  // never started
    return p;
  });
  EXPECT_TRUE(counted.at("conv3x3").machineFault);
  EXPECT_TRUE(counted.at("histogram").machineFault);
  EXPECT_EQ(counted.at("histogram").outcome, HardwareRun::Outcome::Failed);
}

// Issue 29: the PTX counters are the replay's own launches, so their session takes no turn on the
// GPU's profiler lock; a profiler's session (ncu, CUPTI) holds it while it runs.
struct Turns {
  std::string lock;
  std::vector<std::string> counters;  // --counters of each call
  std::vector<bool> lockHeld;         // whether the profiler lock was held during each call
  /// A session that counts as `how` says (exit code and CSV) for the --counters it is given.
  ProfiledRunner runner(std::function<std::pair<int, std::string>(const std::string&)> how) {
    return [this, how](const std::vector<std::string>& argv, double, const std::string&) {
      std::string csvPath, counting = "ncu";
      for (size_t i = 0; i + 1 < argv.size(); ++i) {
        if (argv[i] == "--log-file") csvPath = argv[i + 1];
        if (argv[i] == "--counters") counting = argv[i + 1];
      }
      counters.push_back(counting);
      const int fd = ::open(lock.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
      const bool free = fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) == 0;
      if (fd >= 0) ::close(fd);
      lockHeld.push_back(!free);
      const auto [exit, csv] = how(counting);
      writeFileAtomically(csvPath, csv, nullptr);
      ProcessResult p;
      p.started = true;
      p.exitCode = exit;
      return p;
    };
  }
};

std::string ptxCounted(const std::string& kernel, int storeConflicts) {
  return "==PROF== clgrade hwcount: " + std::string(kPtxCountersNote) + "\n" + kHeader + launch(0, kernel, storeConflicts);
}

TEST(HardwareSession, ThePtxCountersTakeNoTurnOnTheProfilerLock) {
  Fixture f;
  Turns turns;
  turns.lock = (f.dir / "gpu.lock.profiler").string();
  f.request.tasks = {"conv3x3"};
  f.request.profilerLock = turns.lock;
  ASSERT_EQ(f.request.counters, "ptx") << "the default";
  const auto counted = runHardwareSession(
      f.request, turns.runner([](const std::string&) { return std::make_pair(0, ptxCounted("conv3x3__Convolution", 0)); }));
  ASSERT_EQ(turns.counters, (std::vector<std::string>{"ptx"}));
  EXPECT_FALSE(turns.lockHeld[0]) << "no profiler ran";
  const HardwareRun& run = counted.at("conv3x3");
  EXPECT_EQ(run.outcome, HardwareRun::Outcome::Ran);
  EXPECT_EQ(run.countedBy, "clgrade's PTX counters");
  ASSERT_EQ(run.counts.size(), 1u);
  EXPECT_EQ(run.counts[0].sharedStoreInstructions, 420);

  // ncu's session holds it.
  f.request.counters = "ncu";
  turns.counters.clear();
  turns.lockHeld.clear();
  const auto byNcu = runHardwareSession(
      f.request, turns.runner([](const std::string&) {
        return std::make_pair(0, std::string(kHeader) + launch(0, "conv3x3__Convolution", 0));
      }));
  ASSERT_EQ(turns.counters, (std::vector<std::string>{"ncu"}));
  EXPECT_TRUE(turns.lockHeld[0]);
  EXPECT_EQ(byNcu.at("conv3x3").countedBy, "ncu");
}

// A kernel the PTX counters do not follow (inline assembly, an old target) is counted by ncu, under
// the lock, and the report says why; without ncu its technique is not measured where its own code
// is the reason, and the machine's fault (graded again) where the machine is.
TEST(HardwareSession, WhatThePtxCountersCannotCountNcuCounts) {
  Fixture f;
  Turns turns;
  turns.lock = (f.dir / "gpu.lock.profiler").string();
  f.request.tasks = {"conv3x3"};
  f.request.profilerLock = turns.lock;
  std::string refusal = std::string("conv3x3__Convolution: ") + kPtxItsOwnCode +
                        "PTX line 40: a memory instruction the counters do not follow: cp.async";
  const auto session = [&refusal](const std::string& counting) {
    if (counting == "ptx")
      return std::make_pair(kHwcountNotCounted,
                            "==PROF== clgrade hwcount: the PTX counters could not count " + refusal + "\n");
    return std::make_pair(0, std::string(kHeader) + launch(0, "conv3x3__Convolution", 64));
  };
  const auto counted = runHardwareSession(f.request, turns.runner(session));
  ASSERT_EQ(turns.counters, (std::vector<std::string>{"ptx", "ncu"}));
  EXPECT_FALSE(turns.lockHeld[0]);
  EXPECT_TRUE(turns.lockHeld[1]) << "ncu takes its turn";
  const HardwareRun& run = counted.at("conv3x3");
  EXPECT_EQ(run.outcome, HardwareRun::Outcome::Ran);
  EXPECT_EQ(run.countedBy, "ncu");
  EXPECT_NE(run.countedBecause.find("cp.async"), std::string::npos) << run.countedBecause;
  ASSERT_EQ(run.counts.size(), 1u);
  EXPECT_EQ(run.counts[0].sharedStoreConflicts, 64);

  f.request.ncu.clear();
  turns.counters.clear();
  const auto noNcu = runHardwareSession(f.request, turns.runner(session));
  EXPECT_EQ(turns.counters, (std::vector<std::string>{"ptx"}));
  EXPECT_EQ(noNcu.at("conv3x3").outcome, HardwareRun::Outcome::Unavailable);
  EXPECT_FALSE(noNcu.at("conv3x3").machineFault) << "its own code: not measured, as without a profiler before";
  EXPECT_NE(noNcu.at("conv3x3").message.find("ncu"), std::string::npos);

  // The machine's GPU (or a counted copy that does not launch) is not the student's: graded again.
  refusal = "conv3x3__Convolution: the PTX's target is older than sm_70 with PTX 6.2";
  const auto oldGpu = runHardwareSession(f.request, turns.runner(session));
  EXPECT_EQ(oldGpu.at("conv3x3").outcome, HardwareRun::Outcome::Unavailable);
  EXPECT_TRUE(oldGpu.at("conv3x3").machineFault);
}

// With a submission's tasks in one process, that process runs the counters session after the tasks'
// parts (RunnerLauncher::runTogether). The session is then read as its own process's would be: the
// same command line, the same files; where it did not end there, it runs in its own.
struct Served {
  Fixture f;
  std::shared_ptr<ServedSession> served;
  std::vector<std::vector<std::string>> own;  // the tasks of each session run in its own process
  Served() {
    f.request.counters = "ptx";
    served = std::make_shared<ServedSession>(sessionArgv(f.request, f.request.tasks), f.request.workDir,
                                             (f.dir / "session.output").string());
  }
  ProfiledRunner runner() {
    const ProfiledRunner ownProcess = f.runner([this](const std::vector<std::string>& tasks) {
      own.push_back(tasks);
      return std::make_pair(
          std::string(kHeader) + launch(0, "separable__ConvVertical", 4) + launch(1, "bilateral__ConvVertical", 8),
          true);
    });
    return servedFirst(served, ownProcess);
  }
};

TEST(HardwareSession, ASessionTheTasksProcessRanIsReadAsItsOwnProcesssWouldBe) {
  Served s;
  // What the process of several tasks left in its scratch folder, and its output.
  const std::string left = (s.f.dir / "tasks-scratch" / "hardware").string();
  ASSERT_TRUE(makeDirectories(left, nullptr));
  writeFileAtomically(
      left + "/ncu.csv",
      std::string(kHeader) + launch(0, "separable__ConvVertical", 0) + launch(1, "bilateral__ConvVertical", 96),
      nullptr);
  writeFileAtomically(s.served->outputPath(), "==PROF== counted in the tasks' process\n", nullptr);
  ProcessResult ended;
  ended.started = true;
  ended.exitCode = 0;
  ended.seconds = 1.5;
  s.served->end(ended, left);
  s.served->end(std::nullopt, "");  // only the first end counts
  const auto counted = runHardwareSession(s.f.request, s.runner());
  EXPECT_TRUE(s.own.empty()) << "no process of its own";
  EXPECT_TRUE(s.f.calls.empty());
  ASSERT_EQ(counted.at("bilateral").outcome, HardwareRun::Outcome::Ran);
  ASSERT_EQ(counted.at("bilateral").counts.size(), 1u);
  EXPECT_EQ(counted.at("bilateral").counts[0].sharedStoreConflicts, 96);
  EXPECT_EQ(counted.at("separable").counts.at(0).sharedStoreConflicts, 0);
  EXPECT_DOUBLE_EQ(counted.at("separable").seconds, 1.5);
  std::string log;
  ASSERT_TRUE(readFile(s.f.request.reportDir + "/evidence/separable/hardware.log", &log, nullptr));
  EXPECT_NE(log.find("counted in the tasks' process"), std::string::npos) << log;
}

TEST(HardwareSession, ASessionTheTasksProcessDidNotEndRunsInItsOwn) {
  Served s;
  s.served->end(std::nullopt, "");
  const auto counted = runHardwareSession(s.f.request, s.runner());
  ASSERT_EQ(s.own.size(), 1u);
  EXPECT_EQ(s.own[0], (std::vector<std::string>{"separable", "bilateral"}));
  EXPECT_EQ(counted.at("bilateral").counts.at(0).sharedStoreConflicts, 8);
}

TEST(HardwareSession, OnlyTheSessionItWasMadeForIsServed) {
  Served s;
  ProcessResult ended;
  ended.started = true;
  ended.exitCode = 0;
  ASSERT_TRUE(makeDirectories((s.f.dir / "left").string(), nullptr));
  s.served->end(ended, (s.f.dir / "left").string());
  // Another command line (here one task alone) runs in its own process, even as the first run.
  SessionRequest one = s.f.request;
  one.tasks = {"separable"};
  runHardwareSession(one, s.runner());
  EXPECT_EQ(s.own.size(), 1u);
  // ... and so does every run after the first.
  const ProfiledRunner runner = s.runner();
  runner(s.served->argv(), 10, (s.f.dir / "first.log").string());
  runner(s.served->argv(), 10, (s.f.dir / "second.log").string());
  EXPECT_EQ(s.own.size(), 2u);
}

// The session's command line, read back as `run-tasks --session` reads it, is the session asked for.
TEST(HardwareSession, ItsCommandLineReadsBackAsTheSessionAskedFor) {
  Fixture f;
  f.request.counters = "ptx";
  f.request.timeoutSeconds = 42;
  f.request.seeds = HiddenSeeds{1, 2, 3, 4};
  f.request.atomics["bilateral"] = {"DiscontinuityHorizontal"};
  f.request.profiled.emplace();
  (*f.request.profiled)["separable"] = {};
  (*f.request.profiled)["bilateral"] = {"DiscontinuityHorizontal", "DiscontinuityVertical"};
  ProfilerSessionArgs a;
  std::string err;
  ASSERT_TRUE(parseSessionCommandLine(sessionArgv(f.request, f.request.tasks), &a, &err)) << err;
  EXPECT_EQ(a.tasks, f.request.tasks);
  EXPECT_EQ(a.kernelsDir, f.request.kernelsDir);
  EXPECT_EQ(a.rubricPath, f.request.rubricPath);
  EXPECT_EQ(a.workDir, f.request.workDir);
  EXPECT_EQ(a.csvPath, f.request.workDir + "/ncu.csv");
  EXPECT_EQ(a.counters, "ptx");
  EXPECT_DOUBLE_EQ(a.timeoutSeconds, 42);
  ASSERT_TRUE(a.seeds.has_value());
  EXPECT_EQ(*a.seeds, (HiddenSeeds{1, 2, 3, 4}));
  EXPECT_EQ(a.atomics, (std::vector<std::string>{"bilateral:DiscontinuityHorizontal"}));
  EXPECT_EQ(a.profile, (std::vector<std::string>{"separable", "bilateral:DiscontinuityHorizontal",
                                                 "bilateral:DiscontinuityVertical"}));
  EXPECT_FALSE(a.profileNone);
  // Atomics alone: no counters asked for.
  f.request.profiled->clear();
  f.request.seeds.reset();
  ASSERT_TRUE(parseSessionCommandLine(sessionArgv(f.request, {"bilateral"}), &a, &err)) << err;
  EXPECT_TRUE(a.profileNone);
  EXPECT_TRUE(a.profile.empty());
  EXPECT_FALSE(a.seeds.has_value());
  EXPECT_FALSE(parseSessionCommandLine({"clgrade", "hwsession", "--unknown"}, &a, &err));
  EXPECT_FALSE(parseSessionCommandLine({"clgrade", "run-task", "x"}, &a, &err));
}

TEST(HardwareSession, TheFirstRunWaitsForTheTasksProcessAndTakesWhatItLeft) {
  Served s;
  const std::string left = (s.f.dir / "tasks-scratch" / "hardware").string();
  std::thread tasksProcess([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the session has cleared its folder by now
    makeDirectories(left, nullptr);
    writeFileAtomically(left + "/ncu.csv", std::string(kHeader) + launch(0, "bilateral__ConvVertical", 32), nullptr);
    ProcessResult ended;
    ended.started = true;
    ended.exitCode = 0;
    s.served->end(ended, left);
  });
  const auto counted = runHardwareSession(s.f.request, s.runner());
  tasksProcess.join();
  EXPECT_TRUE(s.own.empty());
  EXPECT_EQ(counted.at("bilateral").counts.at(0).sharedStoreConflicts, 32);
  // Where its files cannot be taken (the folder is gone), its own process counts.
  Served again;
  ProcessResult ended;
  ended.started = true;
  ended.exitCode = 0;
  again.served->end(ended, (again.f.dir / "gone").string());
  runHardwareSession(again.f.request, again.runner());
  EXPECT_EQ(again.own.size(), 1u);
}

}  // namespace
}  // namespace clgrade
