#include "batch/gpu_placement.h"

#include <gtest/gtest.h>

namespace clgrade {
namespace {

std::vector<std::string> visible(const std::vector<GpuSlot>& slots) {
  std::vector<std::string> v;
  for (const GpuSlot& s : slots) v.push_back(s.visible);
  return v;
}

TEST(GpuPlacement, EveryGpuOfTheMachineGetsJobs) {
  std::vector<GpuSlot> slots;
  std::string err;
  ASSERT_TRUE(placeOnGpus(4, nullptr, {}, &slots, &err)) << err;
  EXPECT_EQ(visible(slots), (std::vector<std::string>{"0", "1", "2", "3"}));
  EXPECT_EQ(slots[2].label, "GPU 2");
}

TEST(GpuPlacement, OneGpuLeavesTheEnvironmentAsItIs) {
  std::vector<GpuSlot> slots;
  std::string err;
  ASSERT_TRUE(placeOnGpus(1, nullptr, {}, &slots, &err)) << err;
  EXPECT_EQ(visible(slots), std::vector<std::string>{""});
  ASSERT_TRUE(placeOnGpus(1, "3", {0}, &slots, &err)) << err;
  EXPECT_EQ(visible(slots), std::vector<std::string>{""});
}

// Slurm gives a job GPUs 2 and 3 as CUDA_VISIBLE_DEVICES=2,3: the jobs go to those, not to 0 and 1.
TEST(GpuPlacement, TheGpusTheSchedulerGaveAreTheOnesPlaced) {
  std::vector<GpuSlot> slots;
  std::string err;
  ASSERT_TRUE(placeOnGpus(2, "2,3", {}, &slots, &err)) << err;
  EXPECT_EQ(visible(slots), (std::vector<std::string>{"2", "3"}));
  ASSERT_TRUE(placeOnGpus(2, "GPU-aa11, GPU-bb22", {1}, &slots, &err)) << err;
  EXPECT_EQ(visible(slots), std::vector<std::string>{"GPU-bb22"});
}

TEST(GpuPlacement, GpusNamedAreThoseUsed) {
  std::vector<GpuSlot> slots;
  std::string err;
  ASSERT_TRUE(placeOnGpus(4, nullptr, {0, 2}, &slots, &err)) << err;
  EXPECT_EQ(visible(slots), (std::vector<std::string>{"0", "2"}));
  EXPECT_EQ(slots[1].position, 2);  // the third GPU OpenCL lists: its processes' only device
}

TEST(GpuPlacement, AGpuThatIsNotThereOrTwiceIsRefused) {
  std::vector<GpuSlot> slots;
  std::string err;
  EXPECT_FALSE(placeOnGpus(2, nullptr, {2}, &slots, &err));
  EXPECT_NE(err.find("shows 2 GPUs (0 to 1)"), std::string::npos) << err;
  EXPECT_FALSE(placeOnGpus(2, nullptr, {1, 1}, &slots, &err));
  EXPECT_NE(err.find("twice"), std::string::npos) << err;
  EXPECT_FALSE(placeOnGpus(0, nullptr, {0}, &slots, &err));
  EXPECT_NE(err.find("not one"), std::string::npos) << err;
  ASSERT_TRUE(placeOnGpus(0, nullptr, {}, &slots, &err)) << err;  // PoCL: one place, nothing set
  EXPECT_EQ(visible(slots), std::vector<std::string>{""});
}

TEST(GpuPlacement, TheListIsNumbers) {
  std::vector<int> gpus;
  std::string err;
  ASSERT_TRUE(parseGpuList("0, 2", &gpus, &err)) << err;
  EXPECT_EQ(gpus, (std::vector<int>{0, 2}));
  EXPECT_FALSE(parseGpuList("0,,2", &gpus, &err));
  EXPECT_FALSE(parseGpuList("a", &gpus, &err));
  EXPECT_FALSE(parseGpuList("", &gpus, &err));
  EXPECT_FALSE(parseGpuList("-1", &gpus, &err));
}

}  // namespace
}  // namespace clgrade
