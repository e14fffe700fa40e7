// Each task reads its case into its own struct once per thing asked of it, and never goes on with
// defaults when a case does not read (issue 10).
#include <gtest/gtest.h>

#include "tasks/task.h"

namespace clgrade {
namespace {

CaseSpec badCase() {
  CaseSpec spec;
  spec.id = "bad";
  spec.params["width"] = "wide";
  return spec;
}

TEST(TypedTask, EveryTaskRefusesAnUnreadableCaseInsteadOfUsingDefaults) {
  for (const Task* task : allTasks()) {
    std::string err;
    EXPECT_FALSE(task->validateCase(badCase(), &err)) << task->info().id;
    EXPECT_NE(err.find("width"), std::string::npos) << task->info().id << ": " << err;
    InputCache inputs;
    EXPECT_THROW(task->referenceOutputs(inputs, badCase()), std::invalid_argument) << task->info().id;
    for (const CheckInfo& ci : task->info().checks) {
      if (!ci.simulated) continue;
      CaseOutcome o;
      task->judgeSimulation(ci.id, CounterReport(), badCase(), &o);
      EXPECT_EQ(o.status, Status::Error) << task->info().id << "." << ci.id;
      EXPECT_NE(o.message.find("case 'bad' cannot be read"), std::string::npos) << o.message;
    }
  }
}

TEST(TypedTask, SimulatedChecksSayHowTheHardwareJudgesThem) {
  // The hook grading/hardware.cpp reads instead of task and check names: each kernel it names exists.
  for (const Task* task : allTasks())
    for (const CheckInfo& ci : task->info().checks) {
      if (ci.hardware.kind == HardwareRule::Kind::None) continue;
      EXPECT_TRUE(ci.simulated) << task->info().id << "." << ci.id;
      if (ci.hardware.kind == HardwareRule::Kind::AccessCounts) continue;
      bool named = false;
      for (const std::string& signature : task->info().kernels)
        named |= signature.rfind(ci.hardware.kernel + "(", 0) == 0;
      EXPECT_TRUE(named) << task->info().id << "." << ci.id << ": " << ci.hardware.kernel;
    }
}

}  // namespace
}  // namespace clgrade
