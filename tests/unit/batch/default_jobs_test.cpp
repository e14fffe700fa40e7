// The batch's default number of jobs (issue 29, item 4): from the cores it may use and the GPUs it
// places jobs on, said on its first line.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "batch/batch.h"
#include "util/subprocess.h"

namespace clgrade {
namespace {

DeviceInfo ofType(const std::string& type) {
  DeviceInfo d;
  d.type = type;
  return d;
}

TEST(DefaultJobs, OnACpuDeviceOnePerCore) {
  EXPECT_EQ(defaultJobs(ofType("cpu"), 2, 1), 2);
  EXPECT_EQ(defaultJobs(ofType("cpu"), 64, 1), 64);
  EXPECT_EQ(defaultJobs(ofType("cpu"), 0, 1), 1);
  EXPECT_EQ(defaultJobsReason(ofType("cpu"), 2, 1), "one per core: 2 cores");
}

TEST(DefaultJobs, OnGpusOnePerFourCoresOfEachGpusShareBetweenOneAndFour) {
  const DeviceInfo gpu = ofType("gpu");
  EXPECT_EQ(defaultJobs(gpu, 16, 1), 4);   // the H100 machine: 16 cores, one GPU
  EXPECT_EQ(defaultJobs(gpu, 8, 1), 2);    // a Slurm share of 8 CPUs
  EXPECT_EQ(defaultJobs(gpu, 2, 1), 1);    // never none
  EXPECT_EQ(defaultJobs(gpu, 128, 1), 4);  // a GPU's locks take turns: no more than 4 wait on them
  EXPECT_EQ(defaultJobs(gpu, 32, 2), 8);
  EXPECT_EQ(defaultJobs(gpu, 16, 8), 8);  // 2 cores a GPU: one job each
  EXPECT_EQ(defaultJobsReason(gpu, 16, 1), "4 per GPU: 16 cores");
  EXPECT_EQ(defaultJobsReason(gpu, 32, 2), "4 per GPU: 32 cores for 2 GPUs");
  // Memory: each of a job's 4 runners keeps a limit of 3 GiB or more (a 4096 x 4096 histogram runner
  // went past 1 GiB): a 16-core machine with 32 GiB runs 2 jobs on its GPU, one with 128 GiB 4.
  const uint64_t gib = uint64_t(1) << 30;
  EXPECT_EQ(defaultJobs(gpu, 16, 1, 128 * gib), 4);
  EXPECT_EQ(defaultJobs(gpu, 16, 1, 32 * gib), 2);
  EXPECT_EQ(defaultJobs(gpu, 16, 1, 8 * gib), 1);
  EXPECT_EQ(defaultJobs(gpu, 32, 2, 32 * gib), 2);
  EXPECT_EQ(defaultJobsReason(gpu, 16, 1, 32 * gib), "2 per GPU: 16 cores, fewer for 32 GiB of memory");
  EXPECT_EQ(defaultJobs(ofType("cpu"), 16, 1, 8 * gib), 16);
}

// A submission's tasks in one process, its counters after them: one GPU process a job instead of 5,
// so 3 jobs for every 4 cores of a GPU's share, at most 16 (one H200, 16 cores: 12 jobs 57.8 s, 7 jobs
// 69.6 s).
TEST(DefaultJobs, WithTheTasksInOneProcessThreeForEveryFourCoresOfEachGpusShareUpToSixteen) {
  const DeviceInfo gpu = ofType("gpu");
  EXPECT_EQ(defaultJobs(gpu, 16, 1, 0, true), 12);
  EXPECT_EQ(defaultJobs(gpu, 128, 1, 0, true), 16);
  EXPECT_EQ(defaultJobs(gpu, 32, 2, 0, true), 24);
  EXPECT_EQ(defaultJobs(gpu, 6, 1, 0, true), 4);
  EXPECT_EQ(defaultJobs(gpu, 1, 1, 0, true), 1);
  const uint64_t gib = uint64_t(1) << 30;
  EXPECT_EQ(defaultJobs(gpu, 16, 1, 128 * gib, true), 12);
  EXPECT_EQ(defaultJobs(gpu, 16, 1, 64 * gib, true), 8);  // 2 runners of 3 GiB a job, as its memory limit counts
  EXPECT_EQ(defaultJobs(ofType("cpu"), 4, 1, 0, true), 4);
  EXPECT_EQ(defaultJobsReason(gpu, 16, 1, 0, true), "12 per GPU: 16 cores, a submission's tasks in one process");
}

// `--task-processes auto` on a GPU: a submission's tasks in one process only where the class left
// to grade would start more processes (a task's each, and the counters') than there are cores.
TEST(TasksTogether, OnlyWhereTheClassWouldStartMoreProcessesThanCores) {
  EXPECT_FALSE(tasksTogetherFor(1, 4, 16));  // a resubmission graded again: its tasks side by side
  EXPECT_FALSE(tasksTogetherFor(3, 4, 16));  // 15 processes
  EXPECT_TRUE(tasksTogetherFor(4, 4, 16));   // 20
  EXPECT_TRUE(tasksTogetherFor(32, 4, 16));
  EXPECT_FALSE(tasksTogetherFor(6, 4, 32));  // two GPUs' node
  EXPECT_TRUE(tasksTogetherFor(7, 4, 32));
  EXPECT_TRUE(tasksTogetherFor(1, 4, 2));  // CI's two cores
  EXPECT_FALSE(tasksTogetherFor(0, 4, 16));
  EXPECT_FALSE(tasksTogetherFor(2, 1, 4));  // one task graded: 2 processes a submission
  EXPECT_TRUE(tasksTogetherFor(3, 1, 4));
}

TEST(UsableCores, AtLeastOneAndNoMoreThanTheMachineHas) {
  const int cores = usableCores();
  EXPECT_GE(cores, 1);
  EXPECT_LE(unsigned(cores), std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace
}  // namespace clgrade
