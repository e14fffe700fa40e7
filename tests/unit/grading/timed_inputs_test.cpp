// The keeper has the inputs of a task's timed launches read or made while it waits on its runner
// (grading/performance.h, prepareTimedInputs): those of the performance case and of the sweep at
// the device's timing size, and in a check only the visible ones. The trusted timing has the
// performance cases' inputs of its tasks read or made on threads while it opens the device
// (prepareTrustedInputs).
#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <string>
#include <vector>

#include "grading/performance.h"
#include "tasks/inputs.h"
#include "tasks/task.h"

namespace clgrade {
namespace {

TaskRubric separableRubric(bool visible) {
  TaskRubric t;
  t.id = "separable";
  CaseSpec c;
  c.id = "course";
  c.visible = visible;
  c.params = {{"input", "photo"},  {"width", "64"},     {"height", "32"}, {"weights", "0.1 0.3 0.2 0.25 0.15"},
              {"h_group", "16 4"}, {"v_group", "16 4"}, {"h_steps", "2"}, {"v_steps", "2"}};
  t.cases.push_back(c);
  t.performance.present = true;
  t.performance.caseId = "course";
  t.performance.width = 128;
  t.performance.height = 64;
  t.sweep.present = true;
  t.sweep.caseId = "course";
  t.sweep.steps = {1, 2};
  t.sweep.groups = {{16, 4}};
  t.sweep.width = 96;
  t.sweep.height = 48;
  return t;
}

/// The sizes of the inputs `inputs` holds, as "WxH".
std::vector<std::string> sizesHeld(const InputCache& inputs) {
  std::vector<std::string> sizes;
  for (const InputRecord& r : inputs.records()) sizes.push_back(std::to_string(r.width) + "x" + std::to_string(r.height));
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

TEST(TimedInputs, OnAGpuThePerformanceAndSweepInputsAtTheirTimingSizes) {
  DeviceInfo gpu;
  gpu.type = "gpu";
  InputCache inputs;
  prepareTimedInputs(gpu, *findTask("separable"), separableRubric(true), false, inputs);
  EXPECT_EQ(sizesHeld(inputs), (std::vector<std::string>{"128x64", "96x48"}));
}

TEST(TimedInputs, OnACpuTheCasesOwnSize) {
  DeviceInfo cpu;
  cpu.type = "cpu";
  InputCache inputs;
  prepareTimedInputs(cpu, *findTask("separable"), separableRubric(true), false, inputs);
  EXPECT_EQ(sizesHeld(inputs), (std::vector<std::string>{"64x32"}));
}

TEST(TimedInputs, ACheckPreparesNoHiddenInput) {
  DeviceInfo gpu;
  gpu.type = "gpu";
  InputCache check;
  prepareTimedInputs(gpu, *findTask("separable"), separableRubric(false), true, check);
  EXPECT_TRUE(sizesHeld(check).empty());
  InputCache grade;  // a grade times the hidden case: its inputs are the run's hidden ones
  prepareTimedInputs(gpu, *findTask("separable"), separableRubric(false), false, grade);
  EXPECT_EQ(sizesHeld(grade).size(), 2u);
}

TEST(TimedInputs, EveryShippedTaskAsksForTheImagesItLaunchesOn) {
  DeviceInfo cpu;
  cpu.type = "cpu";
  for (const char* id : {"conv3x3", "bilateral", "histogram"}) {
    TaskRubric t;
    t.id = id;
    CaseSpec c;
    c.id = "course";
    c.params = {{"width", "48"}, {"height", "40"}};
    if (std::string(id) == "bilateral") c.params["input"] = "scene";
    t.cases.push_back(c);
    t.performance.present = true;
    t.performance.caseId = "course";
    std::string err;
    ASSERT_TRUE(findTask(id)->validateCase(c, &err)) << id << ": " << err;
    InputCache inputs;
    prepareTimedInputs(cpu, *findTask(id), t, false, inputs);
    const std::vector<std::string> sizes = sizesHeld(inputs);
    EXPECT_FALSE(sizes.empty()) << id;
    for (const std::string& s : sizes) EXPECT_EQ(s, "48x40") << id;
  }
}

/// A rubric of the separable task and of a histogram task with no performance case.
Rubric twoTaskRubric() {
  Rubric r;
  r.tasks.push_back(separableRubric(false));
  TaskRubric h;
  h.id = "histogram";
  CaseSpec c;
  c.id = "course";
  c.params = {{"width", "48"}, {"height", "40"}};
  h.cases.push_back(c);
  r.tasks.push_back(h);
  return r;
}

TEST(TrustedInputs, ThePerformanceCaseOfEachChosenTaskAtItsTimingSizeOnAThread) {
  DeviceInfo gpu;
  gpu.type = "gpu";
  InputCache inputs;
  std::vector<std::future<void>> preparing = prepareTrustedInputs(gpu, twoTaskRubric(), {}, inputs);
  ASSERT_EQ(preparing.size(), 1u);  // the histogram times nothing here
  for (std::future<void>& f : preparing) f.get();
  // The reference is timed on the performance case alone: the sweep's input is the submission's.
  EXPECT_EQ(sizesHeld(inputs), (std::vector<std::string>{"128x64"}));
}

TEST(TrustedInputs, OnlyTheTasksAsked) {
  DeviceInfo gpu;
  gpu.type = "gpu";
  InputCache inputs;
  EXPECT_TRUE(prepareTrustedInputs(gpu, twoTaskRubric(), {"histogram"}, inputs).empty());
  EXPECT_TRUE(sizesHeld(inputs).empty());
}

TEST(TrustedInputs, ACaseThatCannotBeReadIsLeftToTheTiming) {
  DeviceInfo gpu;
  gpu.type = "gpu";
  Rubric r = twoTaskRubric();
  r.tasks[0].cases[0].params["input"] = "no such generator";
  InputCache inputs;
  std::vector<std::future<void>> preparing = prepareTrustedInputs(gpu, r, {}, inputs);
  ASSERT_EQ(preparing.size(), 1u);
  EXPECT_NO_THROW(preparing[0].get());  // the timing reads the case again, and says what is wrong
  EXPECT_TRUE(sizesHeld(inputs).empty());
}

}  // namespace
}  // namespace clgrade
